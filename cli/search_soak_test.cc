// Soak: the reference runs of search_run_test.cc and stateful_run_test.cc, unseeded and with larger
// budgets (`ctest -L soak`). Each prints its seed; RC_PARAMS="seed=S max_success=N" repeats
// a run, and the printed `preemptcheck search` command repeats it from the command line.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli/search_command.h"
#include "cli/search_test_support.h"

namespace preemptcheck {
namespace {

using testing_support::soak_runs;
using testing_support::soak_seed;

// Every property is checked.
cli::SearchCommandOptions options(const std::vector<std::string>& args) {
  std::string error;
  auto o = cli::parse_search_args(args, error);
  EXPECT_TRUE(o.has_value()) << error;
  o->seed = soak_seed();
  return *o;
}

TEST(propertiesSoak, ReferenceHoldsOnEveryGeneratedCluster) {
  const cli::SearchCommandOptions o = options({"--runs", std::to_string(soak_runs(5000))});
  const std::string command = cli::search_command_line(o, *o.seed);
  std::cout << "seed " << *o.seed << ": " << command << "\n";
  SCOPED_TRACE("reproduce: " + command);
  std::string error;
  const SearchResult r = run_search(*cli::to_search_options(o, *o.seed, error));
  std::cout << fmt::format("{} clusters, {} cut, {} states, {:.1f} s\n", r.clusters, r.cut,
                           r.states, r.seconds);
  ASSERT_EQ(r.outcome, SearchResult::Outcome::kHolds)
      << (r.shrunk ? cluster_text(r.shrunk->scenario) + r.shrunk->result.violation->message
                   : r.message);
}

TEST(propertiesSoak, ReferenceHoldsOnRandomWalks) {
  const cli::SearchCommandOptions o =
      options({"--stateful", "--runs", std::to_string(soak_runs(3000)), "--max-steps", "300"});
  const std::string command = cli::search_command_line(o, *o.seed);
  std::cout << "seed " << *o.seed << ": " << command << "\n";
  SCOPED_TRACE("reproduce: " + command);
  std::string error;
  const StatefulResult r = run_stateful(*cli::to_stateful_options(o, *o.seed, error));
  std::cout << fmt::format("{} runs, {} steps, {:.1f} s\n", r.runs, r.steps, r.seconds);
  ASSERT_EQ(r.outcome, StatefulResult::Outcome::kHolds)
      << (r.reduced ? cluster_text(r.reduced->scenario) + r.reduced->message : r.message);
}

}  // namespace
}  // namespace preemptcheck
