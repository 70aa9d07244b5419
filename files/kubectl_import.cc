// kubectl import, building: turns the objects read from every input (files/kubectl_read.cc)
// into one Scenario — nodes kept by --nodes, pods filtered and put in start order, priorities
// resolved, PDBs scoped to their namespace and scaled, names made unique — lists what it left
// out, and checks that the loader accepts the result.
#include "files/kubectl_import.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "files/kube_names.h"
#include "files/kubectl_objects.h"
#include "files/limits.h"
#include "files/scenario_yaml.h"
#include "files/strict_yaml.h"
#include "impl/cluster.h"

namespace preemptcheck {
namespace {

using kubectl::Collected;
using kubectl::RawClass;
using kubectl::RawNode;
using kubectl::RawPdb;
using kubectl::RawPod;

/// The label the importer gives pods when a PDB must tell namespaces apart (a PDB selects only
/// pods of its own namespace; a scenario has no namespaces).
constexpr std::string_view kNamespaceLabel = "preemptcheck/namespace";

/// kube-scheduler's scheduler name. It queues only the pending pods whose spec.schedulerName is
/// one of its profiles' (`responsibleForPod`), and caches every pod bound to a node whatever its
/// scheduler (`assignedPod`): pkg/scheduler/eventhandlers.go at commit
/// 533140f065d7cfe8db68998dff46352551c5505d, `addAllEventHandlers` (lines not counted here).
/// So a running pod of another scheduler is kept (it fills its node and may be a victim), a
/// pending one is left out. The API defaults an absent schedulerName to this name (not citable
/// here: its defaulting code was not read).
constexpr std::string_view kDefaultScheduler = "default-scheduler";

// `name`, or with -2, -3 … appended, that is a valid object name not yet in `taken`. `name` is
// made of valid names (the reader refuses others), so it can be invalid only by its length;
// the cut may end in a '.', which is trimmed so that the suffix makes a valid name.
std::string unique_name(std::string name, std::set<std::string>& taken) {
  std::string candidate = name;
  for (int i = 2; !dns1123_subdomain_problem(candidate).empty() || taken.contains(candidate); ++i) {
    const std::string suffix = fmt::format("-{}", i);
    std::string prefix = name.substr(0, 253 - suffix.size());
    while (prefix.ends_with('.'))
      prefix.pop_back();
    candidate = prefix + suffix;
  }
  taken.insert(candidate);
  return candidate;
}

// Object names unique across namespaces: the plain name, or "NAMESPACE.NAME" for every object
// whose name another namespace also uses.
std::vector<std::string> scenario_names(
    const std::vector<std::pair<std::string, std::string>>& ids) {
  std::map<std::string, std::set<std::string>> namespaces_of;
  for (const auto& [ns, name] : ids)
    namespaces_of[name].insert(ns);
  std::set<std::string> taken;
  std::vector<std::string> out;
  for (const auto& [ns, name] : ids) {
    out.push_back(unique_name(namespaces_of[name].size() > 1 ? ns + "." + name : name, taken));
  }
  return out;
}

bool selects(const std::map<std::string, std::string>& selector,
             const std::map<std::string, std::string>& labels) {
  return std::all_of(selector.begin(), selector.end(), [&](const auto& kv) {
    const auto it = labels.find(kv.first);
    return it != labels.end() && it->second == kv.second;
  });
}

// ceil(percent × total / 100), as intstr.GetScaledValueFromIntOrPercent rounds when asked to
// round up, which the disruption controller does for both fields (getExpectedPodCount in
// pkg/controller/disruption/disruption.go at commit 189c34a7cded2a15356f015ce68ede8aa8ec9814;
// this comment cannot give its lines).
std::int64_t scaled_up(std::int64_t percent, std::int64_t total) {
  return (percent * total + 99) / 100;
}

}  // namespace
KubectlImport import_kubectl(const std::vector<KubectlInput>& inputs,
                             const KubectlImportOptions& options) {
  Collected c;
  for (const KubectlInput& in : inputs)
    kubectl::read_objects(in, c);

  KubectlImport out;
  Scenario& s = out.scenario;
  s.name = options.scenario_name;
  std::vector<std::string> files;
  for (const KubectlInput& in : inputs)
    files.push_back(in.file);
  s.description = fmt::format("imported from kubectl output: {}", fmt::join(files, ", "));

  // Nodes, sorted by name so that the order of the inputs does not matter.
  std::sort(c.nodes.begin(), c.nodes.end(),
            [](const RawNode& a, const RawNode& b) { return a.name < b.name; });
  std::set<std::string> node_names;  // each read once: kubectl::read_objects refuses a second
  for (const RawNode& n : c.nodes)
    node_names.insert(n.name);
  for (const std::string& keep : options.keep_nodes) {
    if (!node_names.contains(keep)) {
      throw std::invalid_argument(
          fmt::format("--nodes names '{}', which is not a node of the "
                      "input (nodes: {})",
                      keep, fmt::join(node_names, ", ")));
    }
  }
  auto kept = [&](const std::string& node) {
    return options.keep_nodes.empty() ||
           std::find(options.keep_nodes.begin(), options.keep_nodes.end(), node) !=
               options.keep_nodes.end();
  };
  // A node with no allocatable cpu or memory (everything reserved) can run nothing, and a
  // scenario's nodes have positive capacity: it is left out, and so are its pods.
  std::set<std::string> empty_nodes;
  for (const RawNode& n : c.nodes) {
    if (!kept(n.name)) {
      c.drop("nodes not kept by --nodes", n.name);
      continue;
    }
    if (n.allocatable.cpu == 0 || n.allocatable.memory == 0) {
      c.drop("nodes with no allocatable cpu or memory (left out)", n.name);
      empty_nodes.insert(n.name);
      continue;
    }
    s.nodes.push_back({n.name, n.allocatable.cpu, n.allocatable.memory});
  }
  if (s.nodes.size() > static_cast<std::size_t>(kMaxNodes)) {
    throw std::invalid_argument(fmt::format(
        "the input has {} nodes and a scenario holds at most {}; keep some with --nodes A,B",
        s.nodes.size(), kMaxNodes));
  }
  if (s.nodes.empty()) {
    throw std::invalid_argument(empty_nodes.empty()
                                    ? "the input has no Node objects"
                                    : "the input has no Node with allocatable cpu and memory");
  }

  // Pods: finished, terminating and elsewhere-placed pods are left out.
  std::vector<const RawPod*> pods;
  for (const RawPod& p : c.pods) {
    if (p.phase == "Succeeded" || p.phase == "Failed") {
      c.drop("finished pods (phase Succeeded or Failed)", p.id());
    } else if (p.terminating) {
      c.drop("terminating pods (metadata.deletionTimestamp)", p.id());
    } else if (p.node.empty() && p.scheduler != kDefaultScheduler) {
      c.drop(
          "pending pods of another scheduler (spec.schedulerName; kube-scheduler leaves "
          "them to it)",
          fmt::format("{} ({})", p.id(), p.scheduler));
    } else if (!p.node.empty() && !node_names.contains(p.node)) {
      c.drop("pods on a node that is not in the input", fmt::format("{} ({})", p.id(), p.node));
    } else if (!p.node.empty() && !kept(p.node)) {
      c.drop("pods on nodes not kept by --nodes", p.id());
    } else if (empty_nodes.contains(p.node)) {
      c.drop("pods on nodes with no allocatable cpu or memory", p.id());
    } else {
      pods.push_back(&p);
    }
  }
  if (pods.size() > static_cast<std::size_t>(kMaxPods)) {
    throw std::invalid_argument(fmt::format(
        "the input has {} pods to import and a scenario holds at most {}; keep fewer nodes with "
        "--nodes A,B",
        pods.size(), kMaxPods));
  }
  // Running pods in start order (status.startTime), then pending pods in creation order.
  std::stable_sort(pods.begin(), pods.end(), [](const RawPod* a, const RawPod* b) {
    auto key = [](const RawPod* p) {
      return std::make_tuple(p->node.empty(), p->node.empty() ? p->created : p->start_time, p->ns,
                             p->name);
    };
    return key(a) < key(b);
  });

  // Priorities: spec.priority (admission resolves it), else the PriorityClass, else the
  // globalDefault class, else 0.
  const RawClass* global_default = nullptr;
  for (const auto& [name, cls] : c.classes) {
    if (cls.global_default)
      global_default = &cls;
  }
  std::vector<std::pair<std::string, std::string>> ids;
  for (const RawPod* p : pods)
    ids.emplace_back(p->ns, p->name);
  const std::vector<std::string> pod_names = scenario_names(ids);
  for (std::size_t i = 0; i < pods.size(); ++i) {
    const RawPod& p = *pods[i];
    PodSpec spec;
    spec.name = pod_names[i];
    const RawClass* cls = nullptr;
    if (!p.class_name.empty()) {
      const auto it = c.classes.find(p.class_name);
      if (it != c.classes.end()) {
        cls = &it->second;
      } else if (!p.priority) {
        c.drop("priorityClassName not among the input's PriorityClasses (priority 0 used)",
               fmt::format("{} ({})", p.id(), p.class_name));
      }
    } else {
      cls = global_default;
    }
    spec.priority = static_cast<int>(p.priority ? *p.priority : cls ? cls->value : 0);
    spec.preempt_never =
        p.preempt_never ? *p.preempt_never : (cls && cls->preempt_never && *cls->preempt_never);
    spec.cpu = p.requests.cpu;
    spec.memory = p.requests.memory;
    spec.node = p.node;
    spec.labels = p.labels;
    s.pods.push_back(std::move(spec));
    if (p.node.empty())
      ++out.pending;
  }

  // PDBs: a PDB selects pods of its own namespace; when its labels would also select pods of
  // another namespace, its pods and its selector carry the namespace label.
  std::vector<std::pair<std::string, std::string>> pdb_ids;
  std::vector<PdbSpec> pdbs;
  std::set<std::string> namespaces_to_label;
  std::set<std::string> selector_keys;
  for (const RawPdb& b : c.pdbs) {
    if (b.has_expressions) {
      c.drop("PDBs with selector.matchExpressions (not modelled; PDB left out)", b.id());
      continue;
    }
    if (b.match_labels.empty() && !b.empty_selects_all) {
      c.drop("PDBs with an empty selector under policy/v1beta1 (select nothing; left out)", b.id());
      continue;
    }
    std::int64_t matching = 0;
    bool other_namespace = b.match_labels.empty();
    for (const RawPod* p : pods) {
      if (!selects(b.match_labels, p->labels))
        continue;
      if (p->ns == b.ns) {
        ++matching;
      } else {
        other_namespace = true;
      }
    }
    if (matching == 0) {
      c.drop("PDBs that select no imported pod (left out)", b.id());
      continue;
    }
    PdbSpec spec;
    spec.selector = b.match_labels;
    if (other_namespace) {
      spec.selector.emplace(kNamespaceLabel, b.ns);
      namespaces_to_label.insert(b.ns);
    }
    for (const auto& [key, value] : spec.selector)
      selector_keys.insert(key);
    // minAvailable as a count is kept; a percentage and maxUnavailable are scaled by the
    // expected pod count, which the disruption controller takes from the pods' controllers
    // and which is here the number of matching pods in the input.
    std::int64_t min_available = 0;
    if (b.min_available) {
      min_available = b.min_percent ? scaled_up(*b.min_available, matching) : *b.min_available;
    } else if (b.max_unavailable) {
      const std::int64_t max =
          b.max_percent ? scaled_up(*b.max_unavailable, matching) : *b.max_unavailable;
      min_available = min_available_for_max_unavailable(max, matching);
    }
    if ((b.min_available && b.min_percent) || b.max_unavailable) {
      c.drop(
          "the pods' controllers' scale (not in the input; PDB percentages and "
          "maxUnavailable are scaled by the matching pods instead)",
          b.id());
    }
    // Above the matching count, no pod may be disrupted either way.
    spec.min_available = static_cast<int>(std::min(min_available, matching));
    pdbs.push_back(std::move(spec));
    pdb_ids.emplace_back(b.ns, b.name);
  }
  const std::vector<std::string> pdb_names = scenario_names(pdb_ids);
  for (std::size_t i = 0; i < pdbs.size(); ++i) {
    pdbs[i].name = pdb_names[i];
    s.pdbs.push_back(std::move(pdbs[i]));
  }
  // Labels matter only to PDB selectors: the others are left out of the scenario.
  std::size_t labels_dropped = 0;
  for (std::size_t i = 0; i < pods.size(); ++i) {
    std::map<std::string, std::string> keep;
    for (const auto& [key, value] : s.pods[i].labels) {
      if (selector_keys.contains(key)) {
        keep.emplace(key, value);
      } else {
        ++labels_dropped;
      }
    }
    if (namespaces_to_label.contains(pods[i]->ns))
      keep.emplace(kNamespaceLabel, pods[i]->ns);
    s.pods[i].labels = std::move(keep);
  }
  if (labels_dropped > 0) {
    c.drop("pod labels no imported PDB selects on (only PDBs read labels)",
           fmt::format("{} label{}", labels_dropped, labels_dropped == 1 ? "" : "s"));
  }

  for (auto& [why, what] : c.dropped) {
    std::sort(what.begin(), what.end());
    what.erase(std::unique(what.begin(), what.end()), what.end());
    out.dropped.push_back(fmt::format("{}: {}", why, fmt::join(what, ", ")));
  }

  // A node whose running pods request more than its allocatable (allocatable shrinks after
  // admission) is a start `check` accepts only when the scenario says so.
  for (const NodeSpec& n : s.nodes) {
    Resources used;
    for (const PodSpec& p : s.pods) {
      if (p.node == n.name)
        used += Resources{p.cpu, p.memory};
    }
    if (used.fits_in(Resources{n.cpu, n.memory}))
      continue;
    s.allow_overcommitted_start = true;
    out.notes.push_back(fmt::format(
        "node {} starts overcommitted: its running pods request cpu {}, memory {} against its "
        "allocatable cpu {}, memory {}; the scenario says allow-overcommitted-start, and "
        "no-overcommit judges only what the scheduler adds to it",
        n.name, format_cpu(used.cpu), format_memory(used.memory), format_cpu(n.cpu),
        format_memory(n.memory)));
  }
  if (out.pending == 0) {
    out.notes.push_back(
        "no pod is pending, so nothing preempts: every property holds trivially; add a pending "
        "pod (a pod without 'node') to the scenario, or import a cluster where one waits");
  }
  out.notes.push_back(
      "the scenario has no 'expect', so expected-outcome holds vacuously; add "
      "expect: {bound: [...], not-bound: [...]} to check the outcome you expect");

  // The result must be a scenario `check` accepts.
  try {
    s = load_scenario_text(scenario_to_yaml(s), "the imported scenario");
  } catch (const FileError& e) {
    throw std::invalid_argument(fmt::format("the imported scenario is not valid: {}", e.message));
  }
  return out;
}

KubectlImport import_kubectl_files(const std::vector<std::string>& paths,
                                   const KubectlImportOptions& options) {
  std::vector<KubectlInput> inputs;
  for (const std::string& path : paths)
    inputs.push_back({path, read_file(path, limits::kMaxKubectlFileBytes)});
  return import_kubectl(inputs, options);
}

}  // namespace preemptcheck
