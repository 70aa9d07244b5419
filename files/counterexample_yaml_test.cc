// Counterexample files: every committed one loads with a matching digest and a fingerprint on
// every step; an edited scenario or switch no longer matches its digest; both formats word
// the shared errors the same way.
#include "files/counterexample_yaml.h"

#include "files/limits.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace preemptcheck {
namespace {

std::string source_dir() {
  const char* dir = std::getenv("PREEMPTCHECK_SOURCE_DIR");
  return dir != nullptr ? dir : ".";
}

std::vector<std::string> committed_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(source_dir() + "/counterexamples")) {
    if (e.path().extension() == ".yaml")
      out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string replace_once(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

TEST(filesCounterexampleYaml, EveryCommittedFileMatchesItsDigestAndIsFingerprinted) {
  const auto files = committed_files();
  ASSERT_GE(files.size(), 10U);
  for (const std::string& path : files) {
    const Counterexample cx = load_counterexample_file(path);
    EXPECT_TRUE(cx.recorded_digest.has_value()) << path;
    EXPECT_TRUE(cx.digest_matches()) << path;
    EXPECT_TRUE(cx.every_step_fingerprinted()) << path;
    // The writer reproduces the file's data: reading its text back gives the same digest.
    const Counterexample back = load_counterexample_text(counterexample_to_yaml(cx, path), path);
    EXPECT_EQ(back.recorded_digest, cx.recorded_digest) << path;
    EXPECT_EQ(back.steps.size(), cx.steps.size()) << path;
  }
}

class Edited : public testing::Test {
 protected:
  void SetUp() override {
    path_ = source_dir() + "/counterexamples/no-lost-wakeup--g1-basic--kubernetes.yaml";
    text_ = read_file(path_);
  }
  std::string path_;
  std::string text_;
};

TEST_F(Edited, ACapacityOrRequestChangeBreaksTheDigest) {
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"{name: node, cpu: 4, memory: 4}", "{name: node, cpu: 5, memory: 4}"},
           {"{name: victim-1, priority: 1, cpu: 2,", "{name: victim-1, priority: 1, cpu: 1,"},
           {"activate-on-finish: off", "activate-on-finish: on"},
           {"profile: kubernetes", "profile: reference"},
           {"workers: 0", "workers: 1"}}) {
    const Counterexample cx = load_counterexample_text(replace_once(text_, from, to), "cx.yaml");
    EXPECT_TRUE(cx.recorded_digest.has_value());
    EXPECT_FALSE(cx.digest_matches()) << from << " -> " << to;
  }
  EXPECT_TRUE(load_counterexample_text(text_, "cx.yaml").digest_matches());
}

TEST_F(Edited, AMissingDigestOrFingerprintIsExposed) {
  const auto digest_at = text_.find("scenario-digest:");
  ASSERT_NE(digest_at, std::string::npos);
  std::string no_digest = text_;
  no_digest.erase(digest_at, no_digest.find('\n', digest_at) + 1 - digest_at);
  const Counterexample a = load_counterexample_text(no_digest, "cx.yaml");
  EXPECT_FALSE(a.recorded_digest.has_value());
  EXPECT_FALSE(a.digest_matches());

  // The first step loses its fingerprint, whatever the fingerprint is.
  const auto step_at = text_.find("{action: ");
  ASSERT_NE(step_at, std::string::npos);
  const auto fp_at = text_.find(", fingerprint: \"", step_at);
  const auto fp_end = text_.find('}', fp_at);
  ASSERT_NE(fp_end, std::string::npos);
  std::string unfingerprinted = text_;
  unfingerprinted.erase(fp_at, fp_end - fp_at);
  const Counterexample b = load_counterexample_text(unfingerprinted, "cx.yaml");
  EXPECT_FALSE(b.every_step_fingerprinted());
  EXPECT_TRUE(b.digest_matches());
}

TEST_F(Edited, AMalformedDigestIsAnErrorAtIt) {
  const std::string bad = replace_once(text_, "scenario-digest: \"0x", "scenario-digest: \"0y");
  try {
    load_counterexample_text(bad, "cx.yaml");
    ADD_FAILURE() << "loaded";
  } catch (const FileError& e) {
    EXPECT_NE(e.message.find("expected a digest like \"0x0123456789abcdef\""), std::string::npos)
        << e.what();
    EXPECT_EQ(e.column, 18) << e.what();
  }
}

TEST_F(Edited, BothFormatsWordSharedErrorsAlike) {
  // A duplicate key at the top of the counterexample and inside its scenario.
  const std::string top = replace_once(text_, "also: []\n", "also: []\nalso: []\n");
  const std::string inner = replace_once(text_, "  pdbs: []\n", "  pdbs: []\n  pdbs: []\n");
  for (const std::string& text : {top, inner}) {
    try {
      load_counterexample_text(text, "cx.yaml");
      ADD_FAILURE() << "loaded";
    } catch (const FileError& e) {
      EXPECT_EQ(e.message.rfind("duplicate key '", 0), 0U) << e.what();
      EXPECT_NE(e.message.find("' (first at line "), std::string::npos) << e.what();
      EXPECT_NE(e.message.find(", column "), std::string::npos) << e.what();
    }
  }
  // Raw bytes are checked for both.
  try {
    load_counterexample_text(replace_once(text_, "also", std::string("al\0o", 4)), "cx.yaml");
    ADD_FAILURE() << "loaded";
  } catch (const FileError& e) {
    EXPECT_EQ(e.message, "a NUL byte is not allowed");
  }
}

TEST_F(Edited, StepsAndNestingAreBounded) {
  std::string many = text_;
  const std::string step = "  - \"observe\"\n";
  for (int i = 0; i < limits::kMaxSteps; ++i)
    many += step;
  try {
    load_counterexample_text(many, "cx.yaml");
    ADD_FAILURE() << "loaded";
  } catch (const FileError& e) {
    EXPECT_NE(e.message.find("too many steps: at most 10000"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace preemptcheck
