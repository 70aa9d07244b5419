// The `import` command: turn `kubectl get nodes,pods,pdb,priorityclasses -o yaml` output into
// a scenario file, and say what was left out (DESIGN §8).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace preemptcheck::cli {

struct ImportOptions {
  std::vector<std::string> files;  ///< kubectl YAML files, read in this order
  std::vector<std::string> nodes;  ///< --nodes: the nodes to keep; empty keeps all
  std::string out_path;            ///< -o: where the scenario goes; empty or "-": standard output
  bool json = false;               ///< one JSON document (the scenario inside) instead
};

/// Parses the words after `import`. On an error returns nothing and sets `error`.
std::optional<ImportOptions> parse_import_args(const std::vector<std::string>& args,
                                               std::string& error);

/// Runs `preemptcheck import`: writes the scenario and returns 0; lists what was left out on
/// `err` ("preemptcheck import: dropped ..."); 2 for malformed input (FILE:LINE:COL), a
/// --nodes name the input lacks, a cluster larger than a scenario holds, or an unwritable -o.
int run_import(const ImportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace preemptcheck::cli
