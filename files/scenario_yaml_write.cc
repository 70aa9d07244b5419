// Scenario files, writing: the canonical layout load_scenario_text() reads back, and the
// conversion of a PDB's max-unavailable the loader and the importer share.
#include "files/scenario_yaml.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "files/scenario_start.h"
#include "impl/cluster.h"

namespace preemptcheck {
namespace {

// "{k: v, k: v}" from already-formatted entries.
std::string flow_entries(const std::vector<std::string>& entries) {
  std::string out = "{";
  for (const std::string& e : entries) {
    if (out.size() > 1)
      out += ", ";
    out += e;
  }
  out += '}';
  return out;
}

std::string flow_map(const std::map<std::string, std::string>& m) {
  std::vector<std::string> entries;
  for (const auto& [k, v] : m) {
    entries.push_back(fmt::format("{}: {}", yaml_scalar(k), yaml_scalar(v)));
  }
  return flow_entries(entries);
}

// "key:\n  - item\n" for each item, or "key: []\n".
void block_sequence(std::string& out, std::string_view key, const std::vector<std::string>& items) {
  if (items.empty()) {
    out += fmt::format("{}: []\n", key);
    return;
  }
  out += fmt::format("{}:\n", key);
  for (const std::string& item : items)
    out += fmt::format("  - {}\n", item);
}

}  // namespace

std::int64_t min_available_for_max_unavailable(std::int64_t max_unavailable,
                                               std::int64_t selected) {
  return std::max<std::int64_t>(0, selected - max_unavailable);
}

std::string scenario_to_yaml(const Scenario& s) {
  std::string out;
  out += fmt::format("name: {}\n", yaml_scalar(s.name));
  out += fmt::format("description: {}\n", yaml_scalar(s.description));

  std::vector<std::string> items;
  for (const NodeSpec& n : s.nodes) {
    std::vector<std::string> e = {fmt::format("name: {}", yaml_scalar(n.name)),
                                  fmt::format("cpu: {}", format_cpu(n.cpu)),
                                  fmt::format("memory: {}", format_memory(n.memory))};
    if (n.arrives_later)
      e.push_back("arrives: later");
    items.push_back(flow_entries(e));
  }
  block_sequence(out, "nodes", items);

  items.clear();
  for (const PodSpec& p : s.pods) {
    std::vector<std::string> e = {fmt::format("name: {}", yaml_scalar(p.name)),
                                  fmt::format("priority: {}", p.priority),
                                  fmt::format("cpu: {}", format_cpu(p.cpu))};
    if (p.memory != 0)
      e.push_back(fmt::format("memory: {}", format_memory(p.memory)));
    if (!p.node.empty())
      e.push_back(fmt::format("node: {}", yaml_scalar(p.node)));
    if (p.arrives_later)
      e.push_back("arrives: later");
    if (p.preempt_never)
      e.push_back("preemption-policy: Never");
    if (p.scheduler != PodScheduler::kThis) {
      e.push_back(p.scheduler == PodScheduler::kSecond ? "scheduler: second"
                                                       : "scheduler: second-nomination-aware");
    }
    if (p.recreated)
      e.push_back("recreated: true");
    if (!p.labels.empty())
      e.push_back(fmt::format("labels: {}", flow_map(p.labels)));
    items.push_back(flow_entries(e));
  }
  block_sequence(out, "pods", items);

  items.clear();
  for (const PdbSpec& p : s.pdbs) {
    items.push_back(flow_entries({fmt::format("name: {}", yaml_scalar(p.name)),
                                  fmt::format("selector: {}", flow_map(p.selector)),
                                  fmt::format("min-available: {}", p.min_available)}));
  }
  block_sequence(out, "pdbs", items);

  // `deletions` and `external-bindings` are written only when set, so that every file written
  // before they existed keeps its text and its scenario digest.
  out += fmt::format(
      "faults: {{eviction-failures: {}, binding-failures: {}, restarts: {}{}{}}}\n",
      s.faults.eviction_failures, s.faults.binding_failures, s.faults.restarts,
      s.faults.deletions != 0 ? fmt::format(", deletions: {}", s.faults.deletions) : std::string(),
      s.faults.external_bindings != 0
          ? fmt::format(", external-bindings: {}", s.faults.external_bindings)
          : std::string());
  out += fmt::format("executor: {{workers: {}}}\n", s.workers);
  out += fmt::format("profile: {}\n", yaml_scalar(s.profile));

  const Mechanisms base = profile(s.profile).value_or(Mechanisms{});
  std::vector<std::string> entries;
  for (std::string_view m : mechanism_names()) {
    const std::string value = mechanism_value(s.mechanisms, m);
    if (value != mechanism_value(base, m))
      entries.push_back(fmt::format("{}: {}", m, value));
  }
  out += fmt::format("mechanisms: {}\n", flow_entries(entries));
  if (!s.expect_bound.empty() || !s.expect_not_bound.empty()) {
    auto names = [](const std::vector<std::string>& v) {
      std::string list;
      for (const std::string& n : v)
        list += (list.empty() ? "" : ", ") + yaml_scalar(n);
      return "[" + list + "]";
    };
    out += fmt::format("expect: {{bound: {}, not-bound: {}}}\n", names(s.expect_bound),
                       names(s.expect_not_bound));
  }
  out += start_keys_yaml(s);
  return out;
}

}  // namespace preemptcheck
