// Scenario files: loading a Scenario from YAML with positioned errors, and writing one back
// as canonical YAML (DESIGN §5; every key, default and bound in docs/scenario.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "files/yaml_text.h"
#include "impl/scenario.h"

namespace preemptcheck {

/// The error type of both file formats, under its earlier name.
using ScenarioError = FileError;

/// Parses and validates one scenario document. `file_name` only labels errors. Throws
/// FileError for every problem — bytes that are not clean UTF-8, syntax, unknown or duplicate
/// keys, wrong types, names Kubernetes would refuse, numbers out of their bounds
/// (files/limits.h), inconsistent references, a starting placement that overfills a node, a
/// PDB that selects no pod — and never any other exception. The result's `mechanisms` are the
/// profile's with the document's overrides applied.
Scenario load_scenario_text(std::string_view yaml_text, std::string_view file_name);

/// Reads `path` (refusing a file over limits::kMaxFileBytes before parsing it) and loads it as
/// load_scenario_text() does; an unreadable file is a FileError at line 0, column 0 with the
/// message "cannot read file".
Scenario load_scenario_file(const std::string& path);

/// The min-available a PDB's max-unavailable stands for: the pods its selector selects
/// (`selected`, the count the disruption controller would take from the pods' controllers,
/// which neither a scenario nor kubectl's output has) minus `max_unavailable`, at least 0. The
/// loader converts `max-unavailable` so, and the importer converts maxUnavailable so.
std::int64_t min_available_for_max_unavailable(std::int64_t max_unavailable, std::int64_t selected);

/// The scenario as canonical YAML in the DESIGN §5 layout: every top-level key in a fixed
/// order, one flow map per node, pod and PDB, cpu and memory as Kubernetes quantities
/// (format_cpu, format_memory), every PDB with its min-available, and under `mechanisms` only
/// the switches that differ from the profile. load_scenario_text() reads it back to an equal
/// Scenario when the scenario is valid.
std::string scenario_to_yaml(const Scenario& scenario);

}  // namespace preemptcheck
