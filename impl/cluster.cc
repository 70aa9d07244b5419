// Cluster: index the scenario once.
#include "impl/cluster.h"

#include <cassert>
#include <string>

namespace preemptcheck {

std::string format_cpu(std::int64_t millicores) {
  if (millicores % kMillicoresPerCore == 0)
    return std::to_string(millicores / kMillicoresPerCore);
  return std::to_string(millicores) + "m";
}

std::string format_memory(std::int64_t bytes) {
  static constexpr const char* kSuffixes[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  if (bytes == 0 || bytes % 1024 != 0)
    return std::to_string(bytes);
  int k = -1;
  while (k < 5 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++k;
  }
  return std::to_string(bytes) + kSuffixes[k];
}

Cluster::Cluster(Scenario scenario) : scenario_(std::move(scenario)) {
  assert(scenario_.pods.size() <= kMaxPods && "too many pods for a PodSet");
  assert(scenario_.nodes.size() <= kMaxNodes && "too many nodes");
  for (const PodSpec& p : scenario_.pods)
    requests_.push_back({p.cpu, p.memory});
  for (const NodeSpec& n : scenario_.nodes)
    capacities_.push_back({n.cpu, n.memory});
  for (const PdbSpec& pdb : scenario_.pdbs) {
    PodSet members = 0;
    for (size_t i = 0; i < scenario_.pods.size(); ++i) {
      const auto& labels = scenario_.pods[i].labels;
      bool matches = !pdb.selector.empty();  // an empty selector selects nothing
      for (const auto& [key, value] : pdb.selector) {
        auto it = labels.find(key);
        if (it == labels.end() || it->second != value)
          matches = false;
      }
      if (matches)
        members |= pod_bit(static_cast<PodId>(i));
    }
    pdb_members_.push_back(members);
  }
  placed_.assign(scenario_.nodes.size(), 0);
  for (size_t i = 0; i < scenario_.pods.size(); ++i) {
    if (auto n = find_node(scenario_.pods[i].node))
      placed_[*n] |= pod_bit(static_cast<PodId>(i));
  }
  // arrival-order: each entry waits for the one before it. The loader has checked that every
  // name is a later arrival, named once; an unknown name here is skipped.
  pod_after_.assign(scenario_.pods.size(), Arrival{});
  node_after_.assign(scenario_.nodes.size(), Arrival{});
  Arrival before;
  for (const std::string& name : scenario_.arrival_order) {
    Arrival here;
    if (auto p = find_pod(name)) {
      pod_after_[*p] = before;
      here = {Arrival::Kind::kPod, *p};
    } else if (auto n = find_node(name)) {
      node_after_[*n] = before;
      here = {Arrival::Kind::kNode, *n};
    } else {
      continue;
    }
    before = here;
  }
  for (const std::string& n : scenario_.expect_bound) {
    if (auto p = find_pod(n))
      expect_bound_ |= pod_bit(*p);
  }
  for (const std::string& n : scenario_.expect_not_bound) {
    if (auto p = find_pod(n))
      expect_not_bound_ |= pod_bit(*p);
  }
}

std::optional<PodId> Cluster::find_pod(std::string_view name) const {
  for (size_t i = 0; i < scenario_.pods.size(); ++i) {
    if (scenario_.pods[i].name == name)
      return static_cast<PodId>(i);
  }
  return std::nullopt;
}

std::optional<NodeId> Cluster::find_node(std::string_view name) const {
  for (size_t i = 0; i < scenario_.nodes.size(); ++i) {
    if (scenario_.nodes[i].name == name)
      return static_cast<NodeId>(i);
  }
  return std::nullopt;
}

}  // namespace preemptcheck
