// Recorded: whether a replayed schedule says what its counterexample file records — the
// properties the file was found checking, how the replay's verdicts differ from the record
// ("diverged"), and which changed switch makes a step impossible.
#pragma once

#include <string>
#include <vector>

#include "files/counterexample_yaml.h"
#include "impl/action.h"
#include "impl/mechanisms.h"
#include "impl/scenario.h"
#include "properties/schedule.h"

namespace preemptcheck {

/// The safety properties the file was found checking: its found-by properties, or all.
CheckedProperties checked_by(const Counterexample& cx);

/// Why a counterexample file (read from `file`) cannot be trusted before anything runs: it
/// records no scenario-digest, its digest does not match its inline scenario and switches,
/// or a step carries no fingerprint — empty when none of these, and empty for a missing
/// digest or fingerprints when `allow_unverified` (a schedule written by hand). Every reader
/// of a counterexample (`replay`, `graph --around`) refuses what this names.
std::string refusal(const Counterexample& cx, std::string_view file, bool allow_unverified);

/// Whether nothing in the file can be verified: it has no digest, or a step has no
/// fingerprint (allowed only under `--allow-unfingerprinted`).
bool is_unverified(const Counterexample& cx);

/// Whether the state after step `i` (0-based) of `schedule` has another fingerprint than
/// the file records for it, as "FILE:LINE:COL: diverged at step K (...)"; empty when the
/// fingerprints match or the file records none.
std::string fingerprint_divergence(const Counterexample& cx, const Schedule& schedule,
                                   std::size_t i, std::string_view file);

/// How `schedule` (the file's steps replayed under its own switches, checking every property)
/// differs from the record, in words naming the step and the property; empty exactly when the
/// file's own property broke first at the last step, with the recorded message, and the
/// properties of checked_by(cx) that broke beside it there are the recorded `also`. A record
/// that does not occur by the last step, occurs earlier, or with another message or other
/// `also` differs. Other properties that break on the way are not a divergence: see
/// met_on_the_way().
std::string divergence(const Counterexample& cx, const Schedule& schedule);

/// The properties other than the file's own that broke on the way and are not part of its
/// record (its `also`), each "P broke at step K: MESSAGE", in step order: what a file about
/// one property meets when the search that wrote it checked others too.
std::vector<std::string> met_on_the_way(const Counterexample& cx, const Schedule& schedule);

/// Under switches `run` that differ from the file's (`recorded_switches`), why step k (1-based)
/// of `actions` is not enabled: "blocked by NAME=VALUE (the file's NAME=VALUE enables it)" for
/// each changed switch that, set back alone, makes steps 1..k run; or that only the file's
/// switches together enable it.
std::string blocking_switches(const Scenario& run, const Mechanisms& recorded_switches,
                              const std::vector<Action>& actions, std::size_t k);

/// "at step 3", or "in the initial state" for step 0.
std::string at_step(std::size_t step);

}  // namespace preemptcheck
