// Liveness on the command line: `check --liveness` searches a scenario's whole state graph for a
// lasso on which a pod starves (no-starvation, spec/liveness.h); `replay` of a lasso file checks
// that its loop returns to where it started and judges it.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

#include "cli/check_command.h"
#include "files/counterexample_yaml.h"
#include "impl/scenario.h"
#include "properties/schedule.h"

namespace preemptcheck::cli {

/// The states `check --liveness` builds at most when --max-states does not say.
inline constexpr std::uint64_t kDefaultLivenessStates = 1'000'000;

/// Runs `check --liveness` on the loaded `scenario` (switches applied); `source` names where it
/// came from, `command` is the command line for the file's header. Exit 0: no pod starves on
/// any (fair) loop of the whole graph; 1: a lasso, printed and, with --out, written; 3: the
/// graph has more than the allowed states, nothing is proven.
int run_liveness_check(const CheckOptions& options, const Scenario& scenario,
                       const std::string& source, const std::string& command, std::ostream& out,
                       std::ostream& err);

/// Why the replayed lasso file (cx.loop set, every step run, as recorded) does not reproduce:
/// its loop does not return, or the recorded pod does not starve on it with the recorded
/// message; empty when it reproduces.
std::string lasso_divergence(const Counterexample& cx, const Schedule& schedule);

/// What replay_lasso() decided.
struct LassoReplay {
  int exit_code = kExitBadInput;
  std::string diverged;  ///< why the file does not reproduce, when it does not
};

/// The verdict of a replayed lasso file (cx.loop set, every step run): as recorded
/// (`verified`), 1 when the loop returns to the state after step `loop` and the recorded pod
/// starves on it with the recorded message, 2 otherwise; under other switches or unverified,
/// 1 when it returns and some pod starves, 0 when it returns and none does, 2 when it does
/// not return.
LassoReplay replay_lasso(const Counterexample& cx, const Schedule& schedule, bool verified,
                         const std::string& file, std::ostream& out, std::ostream& err);

}  // namespace preemptcheck::cli
