// The `import` command: files/kubectl_import.h does the work; this prints it.
#include "cli/import_command.h"

#include <fmt/format.h>

#include <ostream>
#include <stdexcept>

#include "cli/common.h"
#include "files/kubectl_import.h"
#include "files/output_file.h"
#include "files/scenario_yaml.h"
#include "report/json.h"
#include "report/print.h"

namespace preemptcheck::cli {

int run_import(const ImportOptions& o, std::ostream& out, std::ostream& err) {
  KubectlImport imported;
  try {
    imported = import_kubectl_files(o.files, KubectlImportOptions{o.nodes, "imported"});
  } catch (const FileError& e) {
    report::print(err, "preemptcheck import: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    report::print(err, "preemptcheck import: {}\n", e.what());
    return kExitBadInput;
  }
  const Scenario& s = imported.scenario;
  const std::string yaml = scenario_to_yaml(s);
  const bool to_stdout = o.out_path.empty() || o.out_path == "-";
  if (!to_stdout) {
    if (const auto error = write_file_atomically(o.out_path, yaml)) {
      report::print(err, "preemptcheck import: {}\n", *error);
      return kExitBadInput;
    }
  }
  for (const std::string& d : imported.dropped)
    report::print(err, "preemptcheck import: dropped {}\n", d);
  for (const std::string& n : imported.notes)
    report::print(err, "preemptcheck import: note: {}\n", n);
  const std::string summary = fmt::format(
      "imported {} node{}, {} pod{} ({} pending, the preemptors), {} PDB{}", s.nodes.size(),
      s.nodes.size() == 1 ? "" : "s", s.pods.size(), s.pods.size() == 1 ? "" : "s",
      imported.pending, s.pdbs.size(), s.pdbs.size() == 1 ? "" : "s");
  if (o.json) {
    report::Json doc = report::json_document("import");
    doc["scenario"] = s.name;
    doc["output"] = to_stdout ? "-" : o.out_path;
    doc["nodes"] = s.nodes.size();
    doc["pods"] = s.pods.size();
    doc["pending"] = imported.pending;
    doc["pdbs"] = s.pdbs.size();
    doc["dropped"] = imported.dropped;
    doc["notes"] = imported.notes;
    doc["scenario_yaml"] = yaml;
    doc["exit_code"] = kExitHolds;
    report::write_json(doc, out);
  } else if (to_stdout) {
    out << yaml;
    report::print(err, "preemptcheck import: {}\n", summary);
  } else {
    report::print(out, "{}; wrote {}\ncheck it:  preemptcheck check {}\n", summary, o.out_path,
                  o.out_path);
  }
  return kExitHolds;
}

}  // namespace preemptcheck::cli
