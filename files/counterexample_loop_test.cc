// Lasso counterexamples (`loop: N`): the writer marks the loop and the reader gives it back;
// a loop out of range, a loop on a safety property and a liveness property without a loop are
// errors at their line and column; files without `loop:` read as before.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "files/counterexample_yaml.h"
#include "files/limits.h"

namespace preemptcheck {
namespace {

std::string source_dir() {
  const char* dir = std::getenv("PREEMPTCHECK_SOURCE_DIR");
  return dir != nullptr ? dir : ".";
}

// A committed safety counterexample, its steps made a lasso looping after step `loop`.
Counterexample lasso(std::size_t loop) {
  Counterexample cx = load_counterexample_file(
      source_dir() + "/counterexamples/no-lost-wakeup--g1-basic--kubernetes.yaml");
  cx.property = "no-starvation";
  cx.message = "preemptor stays pending forever";
  cx.also.clear();
  cx.loop = loop;
  return cx;
}

// The 1-based line and column where `needle` starts in `text`.
std::pair<int, int> position_of(const std::string& text, std::string_view needle,
                                std::size_t offset = 0) {
  const auto at = text.find(needle) + offset;
  EXPECT_NE(at, std::string::npos) << needle;
  const auto line_start = text.rfind('\n', at);
  int line = 1;
  for (std::size_t i = 0; i < at; ++i)
    line += text[i] == '\n' ? 1 : 0;
  return {line, static_cast<int>(at - (line_start == std::string::npos ? 0 : line_start + 1)) + 1};
}

testing::AssertionResult fails_at(const std::string& text, std::pair<int, int> at,
                                  std::string_view fragment) {
  try {
    load_counterexample_text(text, "lasso.yaml");
  } catch (const FileError& e) {
    if (e.line != at.first || e.column != at.second ||
        e.message.find(fragment) == std::string::npos || e.file != "lasso.yaml") {
      return testing::AssertionFailure() << "expected " << at.first << ":" << at.second << " \""
                                         << fragment << "\", got " << e.what();
    }
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "loaded without error";
}

TEST(filesCounterexampleLoop, TheWriterMarksTheLoopAndTheReaderGivesItBack) {
  const Counterexample cx = lasso(10);
  const std::string text = counterexample_to_yaml(cx, "lasso.yaml");
  EXPECT_NE(text.find("loop: 10  # steps 11-16 repeat forever: after step 16 the state is again "
                      "the one after step 10\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  # ---- the loop: the steps below repeat forever\n"), std::string::npos);
  EXPECT_EQ(text.rfind("# Lasso counterexample to no-starvation", 0), 0U) << text;
  const Counterexample back = load_counterexample_text(text, "lasso.yaml");
  ASSERT_TRUE(back.loop.has_value());
  EXPECT_EQ(*back.loop, 10U);
  EXPECT_EQ(back.property, "no-starvation");
  EXPECT_EQ(back.steps.size(), cx.steps.size());
  EXPECT_TRUE(back.digest_matches());
  EXPECT_TRUE(back.every_step_fingerprinted());
  EXPECT_EQ(std::make_pair(back.loop_line, back.loop_column), position_of(text, "10  # steps"));
  // The marker sits between step 10 and step 11: ten step lines before it, six after.
  const auto marker = text.find("# ---- the loop");
  const auto steps = text.find("\nsteps:\n");
  auto count_steps = [&](std::size_t from, std::size_t to) {
    int n = 0;
    for (auto at = text.find("\n  - {action:", from); at < to;
         at = text.find("\n  - {action:", at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count_steps(steps, marker), 10);
  EXPECT_EQ(count_steps(marker, text.size()), 6);
}

TEST(filesCounterexampleLoop, ALoopAtTheEndIsARunThatStops) {
  const Counterexample cx = lasso(16);
  const std::string text = counterexample_to_yaml(cx, "lasso.yaml");
  EXPECT_NE(text.find("loop: 16  # the run stops after step 16 for good"), std::string::npos);
  EXPECT_EQ(load_counterexample_text(text, "lasso.yaml").loop, 16U);
}

TEST(filesCounterexampleLoop, ASafetyCounterexampleHasNoLoop) {
  const Counterexample cx = load_counterexample_file(
      source_dir() + "/counterexamples/no-lost-wakeup--g1-basic--kubernetes.yaml");
  const std::string text = counterexample_to_yaml(cx, "cx.yaml");
  EXPECT_EQ(text.find("loop"), std::string::npos);
  EXPECT_FALSE(load_counterexample_text(text, "cx.yaml").loop.has_value());
}

TEST(filesCounterexampleLoop, BadLoopsAreErrorsAtTheirPosition) {
  const std::string text = counterexample_to_yaml(lasso(10), "lasso.yaml");
  const std::string out_of_range =
      text.substr(0, text.find("loop: 10")) + "loop: 17" + text.substr(text.find("loop: 10") + 8);
  EXPECT_TRUE(fails_at(out_of_range, position_of(out_of_range, "loop: 17", 6),
                       "expected 'loop' to be a step number from 0 to 16 (the steps after it "
                       "repeat forever), got 17"));
  const std::string negative =
      text.substr(0, text.find("loop: 10")) + "loop: -1" + text.substr(text.find("loop: 10") + 8);
  EXPECT_TRUE(fails_at(negative, position_of(negative, "loop: -1", 6),
                       "expected a non-negative integer for 'loop', got"));
  // A loop on a safety property's counterexample.
  std::string safety = text;
  safety.replace(safety.find("property: no-starvation"), 23, "property: no-lost-wakeup");
  EXPECT_TRUE(fails_at(safety, position_of(safety, "loop: 10"),
                       "'loop' marks a lasso, the counterexample of a liveness property "
                       "(no-starvation); 'no-lost-wakeup' is a safety property"));
  // A liveness property without a loop.
  std::string no_loop = text;
  no_loop.erase(no_loop.find("loop: 10"),
                no_loop.find('\n', no_loop.find("loop: 10")) - no_loop.find("loop: 10") + 1);
  EXPECT_TRUE(fails_at(no_loop, position_of(no_loop, "property: no-starvation", 10),
                       "'no-starvation' is a liveness property: its counterexample is a lasso "
                       "and needs 'loop: N'"));
}

}  // namespace
}  // namespace preemptcheck
