// Scenario files: loading a Scenario from YAML with positioned errors, and writing one back
// as canonical YAML (DESIGN §5).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "impl/scenario.h"

namespace preemptcheck {

/// A scenario that cannot be loaded. `line` and `column` are 1-based and point at the
/// offending YAML node; both are 0 when no position applies (an unreadable file).
/// what() is "FILE:LINE:COL: MESSAGE", or "FILE: MESSAGE" when there is no position.
struct ScenarioError : std::runtime_error {
  ScenarioError(std::string file_name, int line_number, int column_number, std::string text);

  std::string file;
  int line = 0;
  int column = 0;
  std::string message;  ///< what was wrong and what was expected, without the position
};

/// Parses and validates one scenario document. `file_name` only labels errors. Throws
/// ScenarioError for every problem — syntax, unknown or duplicate keys, wrong types,
/// missing keys, inconsistent references, limits — and never any other exception.
/// The result's `mechanisms` are the profile's with the document's overrides applied.
Scenario load_scenario_text(std::string_view yaml_text, std::string_view file_name);

/// Reads `path` and loads it as load_scenario_text() does; an unreadable file is a
/// ScenarioError at line 0, column 0 with the message "cannot read file".
Scenario load_scenario_file(const std::string& path);

/// The scenario as canonical YAML in the DESIGN §5 layout: every top-level key in a fixed
/// order, one flow map per node, pod and PDB, and under `mechanisms` only the switches that
/// differ from the profile. load_scenario_text() reads it back to an equal Scenario when
/// the scenario is valid.
std::string scenario_to_yaml(const Scenario& scenario);

}  // namespace preemptcheck
