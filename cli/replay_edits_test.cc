// Counterexample files that cannot lie: every committed counterexample, edited in each way a
// file can be wrong — a fingerprint, two swapped steps, a deleted step (first, middle, last),
// a capacity or a request in the inline scenario, a mechanism value, the property, the
// fingerprints removed — is refused or found diverged by `replay`: exit 2, naming the step
// or the field. None exits 0, none exits 1. `graph --around` refuses each of them too, and
// writes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_test_support.h"
#include "cli/graph_command.h"
#include "cli/replay_command.h"

namespace preemptcheck::cli {
namespace {

using testing::join_lines;
using testing::read_text;
using testing::ScratchDir;
using testing::source_path;
using testing::split_lines;
using testing::write_text;

std::vector<std::string> committed() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(source_path("counterexamples"))) {
    if (e.path().extension() == ".yaml")
      out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The indices of the step lines.
std::vector<std::size_t> step_lines(const std::vector<std::string>& lines) {
  std::vector<std::size_t> out;
  bool in_steps = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("steps:"))
      in_steps = true;
    if (in_steps && lines[i].starts_with("  - "))
      out.push_back(i);
  }
  return out;
}

// In the first line whose text (after leading blanks) starts with `prefix`, the first
// `from` replaced by `to`; whether there was one. (Not std::regex: GCC 12 warns inside it
// under the sanitize preset.)
bool replace_in(std::vector<std::string>& lines, const std::string& prefix, const std::string& from,
                const std::string& to) {
  for (std::string& line : lines) {
    const auto start = line.find_first_not_of(' ');
    if (start == std::string::npos || line.compare(start, prefix.size(), prefix) != 0)
      continue;
    const auto at = line.find(from);
    if (at == std::string::npos)
      continue;
    line.replace(at, from.size(), to);
    return true;
  }
  return false;
}

// Removes ", fingerprint: \"0x...\"" from a step line; whether it had one.
bool drop_fingerprint(std::string& line) {
  const auto at = line.find(", fingerprint: \"");
  if (at == std::string::npos)
    return false;
  const auto end = line.find('"', at + 16);
  line.erase(at, end + 1 - at);
  return true;
}

struct Edit {
  std::string name;
  std::function<bool(std::vector<std::string>&)> apply;  ///< false: does not apply to this file
  std::string names;                                     ///< what the error must name
};

std::vector<Edit> edits() {
  auto remove_step = [](std::size_t which) {  // 0 first, 1 middle, 2 last
    return [which](std::vector<std::string>& lines) {
      const auto steps = step_lines(lines);
      if (steps.size() < 2)
        return false;
      const std::size_t i = which == 0 ? 0 : which == 1 ? steps.size() / 2 : steps.size() - 1;
      lines.erase(lines.begin() + static_cast<long>(steps[i]));
      return true;
    };
  };
  return {
      {"fingerprint",
       [](std::vector<std::string>& lines) {
         std::string& line = lines[step_lines(lines).front()];
         const auto at = line.find("fingerprint: \"0x");
         if (at == std::string::npos)
           return false;
         line[at + 16] = line[at + 16] == '0' ? '1' : '0';
         return true;
       },
       "step 1"},
      {"swapped-steps",
       [](std::vector<std::string>& lines) {
         const auto steps = step_lines(lines);
         for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
           const auto action = [&](std::size_t k) {
             return lines[steps[k]].substr(0, lines[steps[k]].find(", fingerprint"));
           };
           if (action(i) == action(i + 1))
             continue;
           std::swap(lines[steps[i]], lines[steps[i + 1]]);
           return true;
         }
         return false;
       },
       "step "},
      {"first-step-deleted", remove_step(0), "step "},
      {"middle-step-deleted", remove_step(1), "step "},
      {"last-step-deleted", remove_step(2), "step "},
      {"node-capacity",
       [](std::vector<std::string>& lines) {
         return replace_in(lines, "- {name:", ", cpu: ", ", cpu: 1");
       },
       "scenario-digest"},
      {"pod-request",
       [](std::vector<std::string>& lines) {
         return replace_in(lines, "- {name:", ", cpu: ", ", cpu: 1") &&
                replace_in(lines, "- {name:", ", priority: ", ", priority: 1");
       },
       "scenario-digest"},
      {"mechanism-value",
       [](std::vector<std::string>& lines) {
         return replace_in(lines, "mechanisms:", "deletion: async", "deletion: sync") ||
                replace_in(lines, "mechanisms:", "deletion: sync", "deletion: async");
       },
       "scenario-digest"},
      {"property",
       [](std::vector<std::string>& lines) {
         return replace_in(lines, "property:", "property: no-overcommit",
                           "property: no-double-victim") ||
                replace_in(lines, "property: ", "property: ", "property: no-overcommit\n#");
       },
       "step "},
      {"fingerprints-removed",
       [](std::vector<std::string>& lines) {
         bool any = false;
         for (const std::size_t i : step_lines(lines))
           any = drop_fingerprint(lines[i]) || any;
         return any;
       },
       "step 1"},
  };
}

TEST(ReplayEdits, EveryEditOfEveryCommittedFileExitsTwoNamingTheStepOrField) {
  ScratchDir dir;
  const auto files = committed();
  ASSERT_GE(files.size(), 12U);
  int checked = 0;
  for (const std::string& file : files) {
    const std::vector<std::string> original = split_lines(read_text(file));
    for (const Edit& edit : edits()) {
      std::vector<std::string> lines = original;
      if (!edit.apply(lines))
        continue;
      ASSERT_NE(lines, original) << edit.name;
      const std::string edited =
          dir.file(std::filesystem::path(file).stem().string() + "--" + edit.name + ".yaml");
      write_text(edited, join_lines(lines));
      ReplayOptions o;
      o.file = edited;
      std::ostringstream out;
      std::ostringstream err;
      const int rc = run_replay(o, out, err);
      EXPECT_EQ(rc, kExitBadInput) << edit.name << " of " << file << "\n" << out.str() << err.str();
      // A lasso's loop cannot stand with a safety property: the error names `loop`.
      const bool lasso = std::any_of(original.begin(), original.end(),
                                     [](const std::string& l) { return l.starts_with("loop: "); });
      const std::string names =
          lasso && edit.name == "property" ? std::string("'loop'") : edit.names;
      EXPECT_NE(err.str().find(names), std::string::npos)
          << edit.name << " of " << file << ": expected the error to name '" << names << "'\n"
          << err.str();
      ++checked;
    }
  }
  // Every edit applies to every file except the step deletions and swaps of one-step files.
  EXPECT_GE(checked, static_cast<int>(files.size()) * 9);
}

TEST(ReplayEdits, GraphAroundRefusesEveryEditReplayRefuses) {
  ScratchDir dir;
  int checked = 0;
  for (const std::string& file : committed()) {
    const std::vector<std::string> original = split_lines(read_text(file));
    for (const Edit& edit : edits()) {
      std::vector<std::string> lines = original;
      if (!edit.apply(lines))
        continue;
      const std::string edited = dir.file("edited.yaml");
      write_text(edited, join_lines(lines));
      GraphOptions o;
      o.around_path = edited;
      o.dot_path = dir.file("around.dot");
      std::filesystem::remove(o.dot_path);
      std::ostringstream out;
      std::ostringstream err;
      EXPECT_EQ(run_graph(o, out, err), kExitBadInput) << edit.name << " of " << file << "\n"
                                                       << out.str() << err.str();
      EXPECT_FALSE(std::filesystem::exists(o.dot_path)) << edit.name << " of " << file;
      ++checked;
    }
    // The file as written is drawn.
    GraphOptions o;
    o.around_path = file;
    o.dot_path = dir.file("around.dot");
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_graph(o, out, err), kExitHolds) << file << "\n" << err.str();
  }
  EXPECT_GE(checked, 12 * 9);
}

}  // namespace
}  // namespace preemptcheck::cli
