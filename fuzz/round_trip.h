// Round-trip oracles for the two file readers: load → write → load must give the same value.
// Shared by the libFuzzer targets (fuzz/*_fuzzer.cc) and by the ordinary test suite, which
// replays every committed finding (fuzz/regressions/) through the same functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace preemptcheck::fuzz {

/// Loads `bytes` as a scenario file. A refused input (FileError) is fine and gives nullopt. An
/// accepted one is written with scenario_to_yaml() and loaded again; the result must equal the
/// first load field by field, and writing it again must give the same text. Returns what
/// differs, or nullopt. Any exception other than FileError propagates: it is a finding too.
std::optional<std::string> scenario_round_trip(std::string_view bytes);

/// The same for a counterexample file, written with counterexample_to_yaml(): the property,
/// messages, found-by, the inline scenario and switches, and every step's action, text and
/// fingerprint must survive; the rewritten file's digest must match its scenario.
std::optional<std::string> counterexample_round_trip(std::string_view bytes);

/// Runs one oracle and aborts the process, printing what differs, when it finds a mismatch:
/// the libFuzzer entry points' body. `target` is "scenario" or "counterexample".
void run_or_abort(std::string_view target, std::string_view bytes);

}  // namespace preemptcheck::fuzz
