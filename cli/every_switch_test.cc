// Every profile × switch × value: `check --out` writes what it found, and every file written
// replays as recorded ("reproduced", exit 1) and checks again to the same verdict through
// `check --scenario-of FILE --property P` (exit 1). A switch set to the reference's value
// under a profile that changes it (`--profile kubernetes-prebind --binding-victims=delete`)
// must be recorded in the file, or the file replays as edited and re-checks the profile's
// value instead; the check's own `mechanisms` line must name it too.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command_test_support.h"
#include "files/counterexample_yaml.h"
#include "impl/mechanisms.h"

namespace preemptcheck::cli {
namespace {

using testing::ScratchDir;
using testing::source_path;

using testing::Ran;

Ran run(const std::vector<std::string>& args) { return testing::run_command(args); }

// The files `dir` holds, sorted.
std::vector<std::string> files_in(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(dir))
    return out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The scenarios each combination is checked on: binding-in-flight breaks no-lost-wakeup under
// `kubernetes` with its victims deleted through the API, which `kubernetes-prebind
// --binding-victims=delete` is; assume-window breaks no-overcommit with `--assume=off`.
const char* const kScenarios[] = {"scenarios/binding-in-flight.yaml",
                                  "scenarios/assume-window.yaml"};

TEST(EverySwitch, EveryFileCheckOutWritesReplaysAndChecksAgainUnderItsOwnSwitches) {
  const ScratchDir scratch;
  std::size_t files = 0;
  std::set<std::string> wrote;  // "profile --name=value" of the combinations that wrote a file
  for (const std::string_view profile_name : profile_names()) {
    for (const std::string_view name : mechanism_names()) {
      for (const std::string_view value : mechanism_values(name)) {
        const std::string flag = fmt::format("--{}={}", name, value);
        const std::string label = fmt::format("{} {}", profile_name, flag);
        // The check's own mechanisms line names every switch with its value.
        for (std::size_t si = 0; si < std::size(kScenarios); ++si) {
          const std::filesystem::path dir =
              scratch.path() / fmt::format("{}-{}-{}-{}", profile_name, name, value, si);
          const Ran check =
              run({"check", source_path(kScenarios[si]), "--profile", std::string(profile_name),
                   flag, "--out", dir.string(), "--quiet", "--threads", "1"});
          ASSERT_TRUE(check.rc == 0 || check.rc == 1) << label << "\n" << check.out << check.err;
          const std::string line = fmt::format(" {}={}", name, value);
          const auto mechanisms_at = check.out.find("mechanisms ");
          ASSERT_NE(mechanisms_at, std::string::npos) << label;
          const std::string mechanisms_line =
              check.out.substr(mechanisms_at, check.out.find('\n', mechanisms_at) - mechanisms_at);
          EXPECT_NE((mechanisms_line + " ").find(line + " "), std::string::npos)
              << label << ": the mechanisms line does not name it: " << mechanisms_line;
          EXPECT_EQ(testing::count_of(mechanisms_line, "="), mechanism_names().size())
              << label << ": " << mechanisms_line;
          const std::vector<std::string> written = files_in(dir);
          EXPECT_EQ(written.empty(), check.rc == 0) << label << "\n" << check.out;
          for (const std::string& file : written) {
            ++files;
            wrote.insert(label);
            const Counterexample cx = load_counterexample_file(file);
            const Ran replay = run({"replay", file});
            EXPECT_EQ(replay.rc, 1) << label << ": replay " << file << "\n" << replay.err;
            EXPECT_NE(replay.out.find("reproduced at step"), std::string::npos)
                << label << ": replay " << file;
            const Ran again = run({"check", "--scenario-of", file, "--property", cx.property,
                                   "--quiet", "--threads", "1"});
            EXPECT_EQ(again.rc, 1) << label << ": check --scenario-of " << file << " --property "
                                   << cx.property << "\n"
                                   << again.out << again.err;
          }
        }
      }
    }
  }
  // The case of the issue wrote a file, and so did most combinations: the test exercises
  // what it says it does.
  EXPECT_TRUE(wrote.contains("kubernetes-prebind --binding-victims=delete"));
  EXPECT_GT(files, 150U);
}

}  // namespace
}  // namespace preemptcheck::cli
