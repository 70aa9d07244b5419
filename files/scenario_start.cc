// Scenario start keys: the admitted start, `arrival-order`, and writing both keys.
#include "files/scenario_start.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string_view>

namespace preemptcheck {

std::vector<std::string> read_arrival_order(const StrictYaml& y, const Field& f,
                                            const Scenario& s) {
  enum : int { kNode = 1, kPod = 2 };
  std::map<std::string, int> kind;  // every declared name: kNode, kPod, or both
  std::set<std::string> later;      // the names declared `arrives: later`
  for (const NodeSpec& n : s.nodes) {
    kind[n.name] |= kNode;
    if (n.arrives_later)
      later.insert(n.name);
  }
  for (const PodSpec& p : s.pods) {
    kind[p.name] |= kPod;
    if (p.arrives_later)
      later.insert(p.name);
  }
  std::vector<std::string_view> names(later.begin(), later.end());
  const std::string known = names.empty() ? std::string("nothing is declared `arrives: later`")
                                          : "later arrivals: " + join_words(names);

  std::vector<std::string> out;
  std::map<std::string, YAML::Node> seen;
  const YAML::Node& seq = y.sequence(f);
  for (auto it = seq.begin(); it != seq.end(); ++it) {
    const YAML::Node item = *it;
    if (!StrictYaml::is_string(item) || item.Scalar().empty()) {
      y.fail(item, fmt::format("expected the name of a node or pod in 'arrival-order', got {}",
                               StrictYaml::describe(item)));
    }
    const std::string& name = item.Scalar();
    const auto k = kind.find(name);
    if (k == kind.end())
      y.fail(item, fmt::format("unknown name '{}' in 'arrival-order'; {}", name, known));
    if (k->second == (kNode | kPod)) {
      y.fail(item, fmt::format("'{}' in 'arrival-order' names both a node and a pod", name));
    }
    if (!later.contains(name)) {
      y.fail(item, fmt::format("{} '{}' in 'arrival-order' does not arrive later (only nodes and "
                               "pods declared `arrives: later` can be ordered; a running pod "
                               "arrives with its node)",
                               k->second == kNode ? "node" : "pod", name));
    }
    const auto [first, inserted] = seen.emplace(name, item);
    if (!inserted) {
      y.fail(item, fmt::format("duplicate name '{}' in 'arrival-order' (first at {})", name,
                               StrictYaml::position(first->second)));
    }
    out.push_back(name);
  }
  return out;
}

void check_admitted(const StrictYaml& y, const Field& node_field, const PodSpec& p,
                    const std::vector<NodeSpec>& nodes, Resources& used) {
  // A node whose running pods request more than it has is bad input, not a scheduler's
  // fault, unless the scenario says it started that way.
  used += Resources{p.cpu, p.memory};
  for (const NodeSpec& n : nodes) {
    if (n.name == p.node && !used.fits_in(Resources{n.cpu, n.memory})) {
      y.fail(node_field,
             fmt::format("node '{}' is overfilled at the start: with pod '{}' its pods request "
                         "cpu {}, memory {} against its capacity cpu {}, memory {} (say "
                         "`allow-overcommitted-start: true` if it started so)",
                         n.name, p.name, format_cpu(used.cpu), format_memory(used.memory),
                         format_cpu(n.cpu), format_memory(n.memory)));
    }
  }
}

std::string start_keys_yaml(const Scenario& s) {
  std::string out;
  if (!s.arrival_order.empty()) {
    std::string list;
    for (const std::string& n : s.arrival_order)
      list += (list.empty() ? "" : ", ") + yaml_scalar(n);
    out += fmt::format("arrival-order: [{}]\n", list);
  }
  if (s.allow_overcommitted_start)
    out += "allow-overcommitted-start: true\n";
  return out;
}

}  // namespace preemptcheck
