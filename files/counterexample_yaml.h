// Counterexample files (DESIGN §6): a violation as a YAML document a person can read and the
// tool can replay — the property and its message, how it was found, the scenario inline, the
// mechanisms, a digest of both, and the steps, one action per line with a comment saying what
// it did and the fingerprint of the state after it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/action.h"
#include "impl/scenario.h"
#include "spec/property_message.h"

namespace preemptcheck {

/// How a counterexample was found.
struct FoundBy {
  std::string method = "breadth-first";
  bool shortest = true;
  std::uint64_t states = 0;  ///< states the search had stored when it stopped
  std::uint32_t depth = 0;   ///< breadth-first depth of the violating step: the path length
  /// The safety properties the search checked, when not all of them.
  std::vector<std::string> properties;
  /// RapidCheck searches (`search`): the seed that repeats the search, and what shrinking
  /// did ("3 nodes, 8 pods, 6 steps -> 1 node, 3 pods, 4 steps"). Written only when set.
  std::optional<std::uint64_t> seed;
  std::string shrunk;
};

/// One step of a counterexample.
struct CounterexampleStep {
  Action action;
  std::string text;                          ///< the action as written, e.g. "evict p-high v1"
  std::optional<std::uint64_t> fingerprint;  ///< of the state after the step
  std::string comment;                       ///< what it did; written, never read back
  int line = 0;  ///< 1-based position of the step in the file it was read from
  int column = 0;
};

/// A counterexample, as written by `check --out` and read by `replay`.
struct Counterexample {
  std::string property;                     ///< the violated safety property
  std::string message;                      ///< its one-line message
  std::vector<spec::PropertyMessage> also;  ///< other properties the last step violated
  FoundBy found_by;
  /// The scenario, its `profile` and `mechanisms` those of the run (every switch is written).
  Scenario scenario;
  std::vector<CounterexampleStep> steps;
  /// A lasso, the counterexample of a liveness property (`loop: N`): the steps after step
  /// `loop` (0: from the initial state) repeat forever, so the state after the last step is
  /// the state after step `loop`; equal to the number of steps when the run stops for good
  /// in a state where nothing is enabled. Absent in a safety property's counterexample.
  std::optional<std::size_t> loop;
  int loop_line = 0;  ///< 1-based position of `loop:`'s value, when read back
  int loop_column = 0;
  /// The command that found it; written as a comment, never read back.
  std::string command;
  /// Read back only: the file's `scenario-digest:`, absent in files written before it existed.
  std::optional<std::uint64_t> recorded_digest;
  int digest_line = 0;  ///< 1-based position of `scenario-digest:`'s value, when recorded
  int digest_column = 0;

  /// Whether the file recorded a digest and it equals scenario_digest(scenario): the inline
  /// scenario and switches are those the counterexample was written for.
  bool digest_matches() const;
  /// Whether every step carries the fingerprint of the state after it.
  bool every_step_fingerprinted() const;
};

/// A stable digest of a scenario and its switches: XXH3 (64 bits) of scenario_to_yaml(),
/// which states every field, the profile and each switch that differs from it. Any edit of
/// the inline scenario or the switches that changes what is checked changes the digest.
std::uint64_t scenario_digest(const Scenario& scenario);

/// "no-double-victim--g2-single-victim--kubernetes--gate-release-before-last.yaml": the
/// property, the scenario, the profile when not `reference`, and the switches that differ
/// from the profile; a name over kMaxFileNameBytes is shortened by fit_file_name()
/// (files/output_file.h).
std::string counterexample_file_name(std::string_view property, const Scenario& scenario);
/// The same for cx's property and scenario; a lasso found with --unfair ends "--unfair.yaml".
std::string counterexample_file_name(const Counterexample& cx);

/// The file's text, with `scenario-digest:` computed from cx.scenario. `replay_path` is the
/// path written into the header's replay line.
std::string counterexample_to_yaml(const Counterexample& cx, std::string_view replay_path);

/// "0x0123456789abcdef".
std::string format_fingerprint(std::uint64_t fingerprint);

/// Parses and validates a counterexample file's text: every key, the scenario (through the
/// scenario loader, with positions in this file), the mechanisms, the digest's form, and
/// every step's action against the scenario's pods. Throws FileError ("FILE:LINE:COL: what
/// was expected") for every problem; `file_name` only labels errors. Whether the digest
/// matches and whether every step has a fingerprint are left to the caller to judge
/// (Counterexample::digest_matches, every_step_fingerprinted).
Counterexample load_counterexample_text(std::string_view text, std::string_view file_name);

/// Reads `path` (refusing a file over limits::kMaxFileBytes before parsing it) and loads it
/// as load_counterexample_text() does.
Counterexample load_counterexample_file(const std::string& path);

/// Writes `cx` into directory `dir` (created if missing) under counterexample_file_name(),
/// whole or not at all (write_file_atomically, files/output_file.h); returns the path
/// written, or an error message that names the path and gives the system's reason. The header's
/// replay line names the file by recorded_path() (files/output_file.h). `replaced_other`, when
/// given, is set when the path held a file with other content, which the write replaced.
std::optional<std::string> write_counterexample(const Counterexample& cx, const std::string& dir,
                                                std::string& error, bool* replaced_other = nullptr);

}  // namespace preemptcheck
