// Generators: genomes, and the one total function from a genome to a valid scenario.
#include "properties/generators.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace preemptcheck {
namespace {

// An integer uniform in [lo, hi] whatever RapidCheck's size, shrinking toward lo.
rc::Gen<int> uniform(int lo, int hi) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange(lo, hi + 1));
}

// True with probability 1 / `one_in`, shrinking toward false.
rc::Gen<bool> sometimes(int one_in) {
  return rc::gen::map(uniform(0, one_in - 1), [one_in](int x) { return x == one_in - 1; });
}

// A list of lo..hi elements, its length uniform whatever RapidCheck's size; shrinks by
// removing elements (never below lo) and by shrinking each element.
template <class T>
rc::Gen<std::vector<T>> list(int lo, int hi, rc::Gen<T> element) {
  auto g = rc::gen::resize(hi, rc::gen::container<std::vector<T>>(
                                   rc::gen::resize(rc::kNominalSize, std::move(element))));
  if (lo <= 0)
    return g;
  return rc::gen::suchThat(
      std::move(g), [lo](const std::vector<T>& v) { return static_cast<int>(v.size()) >= lo; });
}

std::string plural(int n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

}  // namespace

ClusterBounds ClusterBounds::small() { return ClusterBounds{}; }

ClusterBounds ClusterBounds::limited(int max_nodes, int max_pods) {
  ClusterBounds b;
  b.max_nodes = std::clamp(max_nodes, 1, kMaxNodes);
  b.min_nodes = std::min(b.min_nodes, b.max_nodes);
  const int pods = std::clamp(max_pods, 1, kMaxPods);
  b.max_pending = std::min(3, pods);
  b.min_pending = std::min(b.min_pending, b.max_pending);
  b.max_running = pods - b.max_pending;
  b.min_running = std::min(b.min_running, b.max_running);
  return b;
}

ClusterBounds ClusterBounds::large() {
  ClusterBounds b;
  b.min_nodes = 3;
  b.max_nodes = 4;
  b.min_running = 6;
  b.max_running = 8;
  b.min_pending = 3;
  b.max_pending = 4;
  b.max_capacity = 4;
  b.max_priority = 5;
  return b;
}

rc::Gen<ClusterGene> gen_cluster_gene(const ClusterBounds& b) {
  using rc::gen::build;
  using rc::gen::set;
  const auto node = build<NodeGene>(set(&NodeGene::cpu, uniform(1, b.max_capacity)),
                                    set(&NodeGene::memory, uniform(1, b.max_capacity)));
  const auto running =
      build<RunningGene>(set(&RunningGene::node, uniform(0, std::max(0, b.max_nodes - 1))),
                         set(&RunningGene::priority, uniform(0, b.max_priority)),
                         set(&RunningGene::cpu, uniform(1, b.max_cpu)),
                         set(&RunningGene::memory, uniform(0, b.max_memory)),
                         set(&RunningGene::labelled, sometimes(2)));
  const auto pending = build<PendingGene>(set(&PendingGene::priority, uniform(0, b.max_priority)),
                                          set(&PendingGene::cpu, uniform(1, b.max_cpu)),
                                          set(&PendingGene::memory, uniform(0, b.max_memory)),
                                          set(&PendingGene::arrives_later, sometimes(3)),
                                          set(&PendingGene::preempt_never, sometimes(8)),
                                          set(&PendingGene::labelled, sometimes(2)));
  // A PDB one time in three: pdb is 0 (none) twice as often as each min-available.
  const auto pdb = rc::gen::map(uniform(0, 3 * (b.max_min_available + 1) - 1),
                                [](int x) { return x % 3 == 2 ? x / 3 + 1 : 0; });
  return build<ClusterGene>(
      set(&ClusterGene::nodes, list(b.min_nodes, b.max_nodes, node)),
      set(&ClusterGene::running, list(b.min_running, b.max_running, running)),
      set(&ClusterGene::pending, list(b.min_pending, b.max_pending, pending)),
      set(&ClusterGene::pdb, pdb),
      set(&ClusterGene::eviction_failures, uniform(0, b.max_eviction_failures)),
      set(&ClusterGene::binding_failures, uniform(0, b.max_binding_failures)),
      set(&ClusterGene::workers, uniform(0, b.max_workers)));
}

Scenario to_scenario(const ClusterGene& gene, const std::string& name,
                     const std::string& profile_name, const Mechanisms& mechanisms) {
  Scenario s;
  s.name = name;
  s.description = "a generated cluster";
  s.profile = profile_name;
  s.mechanisms = mechanisms;
  const int node_count = std::clamp(static_cast<int>(gene.nodes.size()), 1, kMaxNodes);
  std::vector<int> free_cpu;
  std::vector<int> free_memory;
  for (int i = 0; i < node_count; ++i) {
    const NodeGene g = i < static_cast<int>(gene.nodes.size()) ? gene.nodes[i] : NodeGene{};
    NodeSpec n{fmt::format("n{}", i + 1), cores(std::max(1, g.cpu)), std::max(1, g.memory)};
    free_cpu.push_back(std::max(1, g.cpu));
    free_memory.push_back(std::max(1, g.memory));
    s.nodes.push_back(std::move(n));
  }
  const bool has_pdb = gene.pdb > 0;
  const std::map<std::string, std::string> label{{"app", "web"}};
  for (const RunningGene& g : gene.running) {
    if (static_cast<int>(s.pods.size()) >= kMaxPods)
      break;
    const int cpu = std::max(0, g.cpu);
    const int memory = std::max(0, g.memory);
    const int first = std::max(0, g.node) % node_count;
    for (int k = 0; k < node_count; ++k) {
      const int n = (first + k) % node_count;
      if (cpu > free_cpu[n] || memory > free_memory[n])
        continue;
      free_cpu[n] -= cpu;
      free_memory[n] -= memory;
      PodSpec p;
      p.name = fmt::format("v{}", s.pods.size() + 1);
      p.priority = g.priority;
      p.cpu = cores(cpu);
      p.memory = memory;
      p.node = s.nodes[n].name;
      if (has_pdb && g.labelled)
        p.labels = label;
      s.pods.push_back(std::move(p));
      break;
    }
  }
  int pending = 0;
  for (const PendingGene& g : gene.pending) {
    if (static_cast<int>(s.pods.size()) >= kMaxPods)
      break;
    PodSpec p;
    p.name = fmt::format("p{}", ++pending);
    p.priority = g.priority;
    p.cpu = cores(std::max(0, g.cpu));
    p.memory = std::max(0, g.memory);
    p.arrives_later = g.arrives_later;
    p.preempt_never = g.preempt_never;
    if (has_pdb && g.labelled)
      p.labels = label;
    s.pods.push_back(std::move(p));
  }
  // A PDB that selects no pod constrains nothing, and a scenario file may not hold one: it
  // is left out, which changes no schedule.
  const bool any_labelled =
      std::any_of(s.pods.begin(), s.pods.end(), [](const PodSpec& p) { return !p.labels.empty(); });
  if (has_pdb && any_labelled)
    s.pdbs.push_back(PdbSpec{"web", label, gene.pdb - 1});
  s.faults.eviction_failures = std::max(0, gene.eviction_failures);
  s.faults.binding_failures = std::max(0, gene.binding_failures);
  s.workers = std::max(0, gene.workers);
  return s;
}

rc::Gen<Scenario> gen_scenario(const ClusterBounds& bounds, const std::string& name,
                               const std::string& profile_name, const Mechanisms& mechanisms) {
  return rc::gen::map(gen_cluster_gene(bounds), [=](const ClusterGene& g) {
    return to_scenario(g, name, profile_name, mechanisms);
  });
}

std::string cluster_size(const Scenario& s) {
  int running = 0;
  for (const PodSpec& p : s.pods)
    running += p.node.empty() ? 0 : 1;
  const int pods = static_cast<int>(s.pods.size());
  return fmt::format("{}, {} ({} running, {} pending)",
                     plural(static_cast<int>(s.nodes.size()), "node"), plural(pods, "pod"), running,
                     pods - running);
}

int cluster_weight(const Scenario& s) { return static_cast<int>(s.nodes.size() + s.pods.size()); }

std::string cluster_text(const Scenario& s) {
  std::string out;
  for (const NodeSpec& n : s.nodes) {
    out += fmt::format("node {} cpu {} memory {}\n", n.name, format_cpu(n.cpu),
                       format_memory(n.memory));
  }
  for (const PodSpec& p : s.pods) {
    out += fmt::format("pod {} priority {} cpu {} memory {}", p.name, p.priority, format_cpu(p.cpu),
                       format_memory(p.memory));
    if (!p.node.empty())
      out += " on " + p.node;
    if (p.arrives_later)
      out += " arrives later";
    if (p.preempt_never)
      out += " preemption-policy Never";
    for (const auto& [k, v] : p.labels)
      out += fmt::format(" label {}={}", k, v);
    out += '\n';
  }
  for (const PdbSpec& pdb : s.pdbs) {
    out += fmt::format("pdb {} min-available {}", pdb.name, pdb.min_available);
    for (const auto& [k, v] : pdb.selector)
      out += fmt::format(" selects {}={}", k, v);
    out += '\n';
  }
  out += fmt::format("faults eviction {} binding {} workers {}\n", s.faults.eviction_failures,
                     s.faults.binding_failures, s.workers);
  return out;
}

std::string check_generated(const Scenario& s, const ClusterBounds& b) {
  const int nodes = static_cast<int>(s.nodes.size());
  if (nodes < b.min_nodes || nodes > b.max_nodes)
    return fmt::format("{} nodes", nodes);
  std::vector<std::int64_t> free_cpu;
  std::vector<std::int64_t> free_memory;
  for (int i = 0; i < nodes; ++i) {
    const NodeSpec& n = s.nodes[i];
    if (n.name != fmt::format("n{}", i + 1))
      return "node name " + n.name;
    if (n.cpu % kMillicoresPerCore != 0 || n.cpu < cores(1) || n.cpu > cores(b.max_capacity) ||
        n.memory < 1 || n.memory > b.max_capacity) {
      return "capacity of " + n.name;
    }
    free_cpu.push_back(n.cpu);
    free_memory.push_back(n.memory);
  }
  int running = 0;
  int pending = 0;
  for (const PodSpec& p : s.pods) {
    if (p.priority < 0 || p.priority > b.max_priority)
      return "priority of " + p.name;
    if (p.cpu % kMillicoresPerCore != 0 || p.cpu < cores(1) || p.cpu > cores(b.max_cpu) ||
        p.memory < 0 || p.memory > b.max_memory) {
      return "request of " + p.name;
    }
    if (!p.labels.empty() && s.pdbs.empty())
      return "labels without a PDB on " + p.name;
    if (p.node.empty()) {
      if (p.name != fmt::format("p{}", ++pending))
        return "pending pod name " + p.name;
      continue;
    }
    if (pending > 0)
      return "running pod after a pending one: " + p.name;
    if (p.name != fmt::format("v{}", ++running))
      return "running pod name " + p.name;
    if (p.arrives_later || p.preempt_never)
      return "running pod " + p.name + " arrives later";
    const auto it = std::find_if(s.nodes.begin(), s.nodes.end(),
                                 [&](const NodeSpec& n) { return n.name == p.node; });
    if (it == s.nodes.end())
      return "unknown node of " + p.name;
    const auto n = static_cast<size_t>(it - s.nodes.begin());
    free_cpu[n] -= p.cpu;
    free_memory[n] -= p.memory;
    if (free_cpu[n] < 0 || free_memory[n] < 0)
      return "overcommitted at start: " + p.node;
  }
  if (running > b.max_running)
    return fmt::format("{} running pods", running);
  if (pending < b.min_pending || pending > b.max_pending) {
    return fmt::format("{} pending pods", pending);
  }
  if (s.pdbs.size() > 1)
    return "more than one PDB";
  for (const PdbSpec& pdb : s.pdbs) {
    if (pdb.min_available < 0 || pdb.min_available > b.max_min_available) {
      return "min-available of " + pdb.name;
    }
  }
  if (s.faults.eviction_failures < 0 || s.faults.eviction_failures > b.max_eviction_failures ||
      s.faults.binding_failures < 0 || s.faults.binding_failures > b.max_binding_failures ||
      s.faults.restarts != 0 || s.faults.external_bindings != 0) {
    return "fault budgets";
  }
  if (s.workers < 0 || s.workers > b.max_workers)
    return "workers";
  return "";
}

void showValue(const Scenario& scenario, std::ostream& os) {
  os << cluster_size(scenario) << '\n' << cluster_text(scenario);
}

}  // namespace preemptcheck
