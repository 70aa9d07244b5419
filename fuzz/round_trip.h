// Round-trip oracles for the file readers: load → write → load must give the same value; for the
// kubectl importer, import → write → load.
// Shared by the libFuzzer targets (fuzz/*_fuzzer.cc) and by the ordinary test suite, which
// replays every committed finding (fuzz/regressions/) through the same functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace preemptcheck::fuzz {

/// Loads `bytes` as a scenario file. A refused input (FileError) is fine and gives nullopt. An
/// accepted one must hold no control character the bytes rule refuses (C0 but tab, newline and
/// carriage return; DEL; C1), raw or escaped, in any string, and only DNS-1123 names; it is
/// written with scenario_to_yaml() and loaded again; the result must equal the first load
/// field by field, and writing it again must give the same text. The written text with its
/// quantities quoted, or tagged !!str, must load to the same value; with a priority quoted it
/// must be refused at that value; with each PDB as max-unavailable (where that can say its
/// min-available) it must load to the same value. Returns what differs, or nullopt. Any
/// exception other than FileError propagates: it is a finding too.
std::optional<std::string> scenario_round_trip(std::string_view bytes);

/// The same for a counterexample file, written with counterexample_to_yaml() (its scenario,
/// property and message free of control characters, its names valid): the property,
/// messages, found-by, the inline scenario and switches, and every step's action, text and
/// fingerprint must survive; the rewritten file's digest must match its scenario.
std::optional<std::string> counterexample_round_trip(std::string_view bytes);

/// Imports `bytes` as one file of `kubectl get nodes,pods,pdb,priorityclasses -o yaml` output
/// (files/kubectl_import.h). A refusal the importer documents is fine and gives nullopt: a
/// FileError, or std::invalid_argument — except "the imported scenario is not valid" for any
/// reason but a node overfilled at the start, which is the importer accepting input it should
/// have refused at its position, or building a scenario it should not have. A successful
/// import's scenario is written with scenario_to_yaml() and must load back equal, field by
/// field, and round-trip as scenario_round_trip() requires; its `pending` count must be the
/// number of its pods without a node, and its notes say it has no expect: and, exactly when
/// no pod is pending, that none is. Returns what is wrong, or nullopt; any other exception
/// propagates.
std::optional<std::string> kubectl_import_round_trip(std::string_view bytes);

/// Runs one oracle and aborts the process, printing what differs, when it finds a mismatch:
/// the libFuzzer entry points' body. `target` is "scenario", "counterexample" or "import".
void run_or_abort(std::string_view target, std::string_view bytes);

}  // namespace preemptcheck::fuzz
