// Every file `check --out` writes replays as recorded: for every committed scenario under
// `reference`, `kubernetes` and `kubernetes-1.32`, checked for every property at once (files
// after the first meet other properties' breaks on the way) and for each violated property
// alone, with one and with two threads (which write the same bytes).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command_test_support.h"
#include "files/output_file.h"
#include "properties/committed_scenarios.h"

namespace preemptcheck::cli {
namespace {

using testing::read_text;
using testing::ScratchDir;
using testing::source_path;

// Runs `preemptcheck ARGS`; its standard output and error in `out`.
int run(const std::vector<std::string>& args, std::string& out) {
  std::ostringstream o;
  std::ostringstream e;
  const int code = run_main(args, o, e);
  out = o.str() + e.str();
  return code;
}

// The files in `dir` by name, with their text.
std::map<std::string, std::string> files_in(const std::filesystem::path& dir) {
  std::map<std::string, std::string> out;
  if (!std::filesystem::exists(dir))
    return out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    out[e.path().filename().string()] = read_text(e.path().string());
  return out;
}

// The property a file is about: its name up to the first "--".
std::string property_of(const std::string& file_name) {
  return file_name.substr(0, file_name.find("--"));
}

// `check SCENARIO --profile P --out DIR` with a state bound that keeps the larger scenarios
// to a fraction of a second (a file written before the bound is still a shortest schedule).
int check_out(const std::string& scenario, const std::string& profile, const std::string& dir,
              const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"check", scenario,  "--profile", profile,        "--out",
                                   dir,     "--quiet", "--json",    "--max-states", "30000"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::string out;
  return run(args, out);
}

// Replays `file` and expects exit 1 with the recorded violation reproduced.
void expect_reproduces(const std::string& file, const std::string& context) {
  std::string out;
  EXPECT_EQ(run({"replay", file}, out), kExitViolated) << context << "\n" << out;
  EXPECT_NE(out.find("reproduced at step"), std::string::npos) << context << "\n" << out;
  EXPECT_EQ(out.find("diverged"), std::string::npos) << context << "\n" << out;
}

TEST(cliOutReplays, EveryFileCheckWritesReplaysWithItsOwnLine) {
  ScratchDir scratch;
  std::size_t replayed = 0;
  std::size_t met_on_the_way = 0;
  for (const std::string& scenario : committed_scenarios(source_path("scenarios"))) {
    for (const std::string profile : {"reference", "kubernetes", "kubernetes-1.32"}) {
      const std::string context = scenario + " --profile " + profile;
      const std::filesystem::path one = scratch.path() / "one";
      const std::filesystem::path two = scratch.path() / "two";
      std::filesystem::remove_all(one);
      std::filesystem::remove_all(two);
      const int code = check_out(scenario, profile, one.string(), {"--threads", "1"});
      EXPECT_EQ(check_out(scenario, profile, two.string(), {"--threads", "2"}), code) << context;
      const auto written = files_in(one);
      // The same files, byte for byte, but for the directory named in their header comments
      // (as recorded_path() records it: outside the working directory, by its name alone).
      auto as_two = written;
      for (auto& [name, text] : as_two) {
        for (const auto& [from, to] : {std::pair{"--out " + recorded_path(one.string()),
                                                 "--out " + recorded_path(two.string())},
                                       std::pair{"replay " + recorded_path(one.string()) + "/",
                                                 "replay " + recorded_path(two.string()) + "/"}}) {
          for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at))
            text.replace(at, from.size(), to);
        }
      }
      EXPECT_TRUE(as_two == files_in(two)) << context << ": two threads wrote other files";
      EXPECT_EQ(code == kExitViolated, !written.empty()) << context;
      for (const auto& [name, text] : written) {
        expect_reproduces((one / name).string(), context + " " + name);
        ++replayed;
        std::string out;
        run({"replay", (one / name).string()}, out);
        met_on_the_way += out.find("on the way") != std::string::npos ? 1 : 0;
        // The same property checked alone writes a file that replays too.
        const std::filesystem::path alone = scratch.path() / "alone";
        std::filesystem::remove_all(alone);
        EXPECT_EQ(check_out(scenario, profile, alone.string(), {"--property", property_of(name)}),
                  kExitViolated)
            << context << " --property " << property_of(name);
        for (const auto& [alone_name, alone_text] : files_in(alone)) {
          expect_reproduces((alone / alone_name).string(), context + " alone " + alone_name);
          ++replayed;
        }
      }
    }
  }
  // Many files, and some of them meet another property's break before their own: the case
  // a file that checked only its own property on replay used to refuse as "diverged".
  EXPECT_GT(replayed, 40U);
  EXPECT_GT(met_on_the_way, 0U);
}

}  // namespace
}  // namespace preemptcheck::cli
