// The rules on a check's options, and what its thread and memory options mean
// (check_request.h).
#include "properties/check_request.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <thread>

#include "spec/liveness.h"

namespace preemptcheck {
namespace {

// --simulate's rules: its --seed and --simulate-depth, and what it does not combine with.
std::string simulate_problem(const CheckRequest& o) {
  if (!o.simulate) {
    if (o.seed)
      return "--seed seeds the random walks of --simulate N: add --simulate, or leave it out";
    if (o.simulate_depth)
      return "--simulate-depth bounds the random walks of --simulate N: add --simulate, or "
             "leave it out";
    return {};
  }
  if (o.liveness)
    return "--simulate takes random walks for the safety properties; --liveness builds the "
           "whole state graph: leave one out";
  if (o.reduce != Reduction::kNone)
    return "--simulate walks the unreduced model: leave out --reduce";
  if (o.limits.max_states || o.limits.max_depth || o.max_memory || o.stop_at_first)
    return "--simulate is bounded by its walks, --simulate-depth and --time-limit: leave out "
           "--max-states, --max-depth, --max-memory and --stop-at-first";
  if (o.gated())
    return "--simulate proves no property holds, so it cannot gate: leave out --expect-violated "
           "and --junit";
  return {};
}

// What an expectation names that this check does not decide; empty when it decides it.
std::string expectation_problem(const CheckRequest& o, const std::string& p) {
  if (o.liveness && p != spec::kNoStarvation) {
    return fmt::format(
        "--expect-violated {} names a safety property; --liveness checks no-starvation alone: "
        "leave it out, or check it without --liveness",
        p);
  }
  if (!o.liveness && p == spec::kNoStarvation) {
    return fmt::format(
        "--expect-violated {} names the liveness property: add --liveness to check it", p);
  }
  if (!o.liveness && !o.checked.test(static_cast<std::size_t>(*spec::find_property(p)))) {
    return fmt::format(
        "--expect-violated {} names a property --property leaves unchecked: check it too, or "
        "leave the expectation out",
        p);
  }
  return {};
}

}  // namespace

std::string check_request_problem(const CheckRequest& o) {
  if (std::string problem = simulate_problem(o); !problem.empty())
    return problem;
  if (o.unfair && !o.liveness)
    return "--unfair applies to --liveness only";
  if (o.liveness && !o.checked.all())
    return "--liveness checks no-starvation alone: leave out --property";
  if (o.liveness && o.reduce != Reduction::kNone)
    return "--liveness builds the whole state graph: leave out --reduce";
  if (o.liveness && (o.limits.max_depth || o.max_memory || o.stop_at_first)) {
    return "--liveness builds the whole state graph, bounded by --max-states and --time-limit "
           "alone: leave out --max-depth, --max-memory and --stop-at-first";
  }
  if (o.gated() && o.stop_at_first) {
    return "--expect-violated and --junit judge every checked property; --stop-at-first decides "
           "only one: leave it out";
  }
  for (const std::string& p : o.expect_violated) {
    if (std::string problem = expectation_problem(o, p); !problem.empty())
      return problem;
  }
  return {};
}

unsigned effective_threads(unsigned threads) {
  if (threads != 0)
    return threads;
  return std::max(1U, std::thread::hardware_concurrency());
}

std::uint64_t default_max_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0)
    return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) / 5 * 4;
}

}  // namespace preemptcheck
