// Shared by the search suites: counterexample files in a scratch directory and their
// replay (replay_schedule, then `preemptcheck replay`), and the seeds of the soak runs.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <bitset>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/replay_command.h"
#include "files/counterexample_yaml.h"
#include "properties/rapidcheck_run.h"
#include "properties/schedule.h"
#include "spec/monitor.h"
#include "spec/property.h"

namespace preemptcheck::testing_support {

/// A scratch directory for this test, emptied first.
inline std::string scratch_dir(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / fmt::format("preemptcheck-{}-{}", ::getpid(), name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

/// Writes `cx` under a scratch directory and checks that it replays: loaded back, every step
/// is enabled on a fresh World and reaches the recorded fingerprint, and the last step
/// violates `property` (spec::check_step); `preemptcheck replay` agrees (exit 1). The file
/// is removed afterwards unless a check failed.
inline void expect_written_and_replayed(const Counterexample& cx, const std::string& name,
                                        const std::string& property) {
  std::string error;
  const std::string dir = scratch_dir(name);
  const auto path = write_counterexample(cx, dir, error);
  ASSERT_TRUE(path.has_value()) << error;
  // Kept for a look when something failed; removed otherwise.
  struct Cleanup {
    std::string dir;
    std::string path;
    ~Cleanup() {
      if (::testing::Test::HasFailure()) {
        std::cout << "counterexample kept: " << path << "\n";
      } else {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
      }
    }
  } cleanup{dir, *path};
  const Counterexample back = load_counterexample_file(*path);
  ASSERT_FALSE(back.steps.empty());
  EXPECT_EQ(back.property, property);
  std::vector<Action> actions;
  for (const CounterexampleStep& s : back.steps)
    actions.push_back(s.action);
  const Schedule schedule = replay_schedule(back.scenario, actions);
  ASSERT_FALSE(schedule.blocked.has_value())
      << "step " << schedule.blocked->number << " " << schedule.blocked->text;
  for (std::size_t i = 0; i < back.steps.size(); ++i) {
    ASSERT_TRUE(back.steps[i].fingerprint.has_value());
    EXPECT_EQ(*back.steps[i].fingerprint, schedule.steps[i].fingerprint) << "step " << i + 1;
  }
  bool broken = false;
  for (const auto& [p, message] : schedule.steps.back().findings.violated) {
    broken = broken || spec::property_def(p).name == property;
  }
  EXPECT_TRUE(broken) << "the last step does not violate " << property;

  cli::ReplayOptions replay;
  replay.file = *path;
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(cli::run_replay(replay, out, err), cli::kExitViolated) << out.str() << err.str();
}

/// The value of `key` in RC_PARAMS ("seed=5 max_success=100"), if given.
inline std::optional<std::uint64_t> rc_param(const std::string& key) {
  const char* env = std::getenv("RC_PARAMS");
  if (env == nullptr)
    return std::nullopt;
  std::istringstream in(env);
  std::string word;
  while (in >> word) {
    const auto eq = word.find('=');
    if (eq == std::string::npos || word.substr(0, eq) != key)
      continue;
    try {
      return std::stoull(word.substr(eq + 1));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// A soak run's seed: RC_PARAMS's, or a fresh one.
inline std::uint64_t soak_seed() { return rc_param("seed").value_or(random_seed()); }

/// A soak run's budget: RC_PARAMS's max_success, or `otherwise`.
inline int soak_runs(int otherwise) {
  return static_cast<int>(rc_param("max_success").value_or(static_cast<std::uint64_t>(otherwise)));
}

}  // namespace preemptcheck::testing_support
