// kubectl import: reads kubectl's YAML object by object with positioned errors, resolves
// priorities, sums requests as kube-scheduler does, and writes down what it leaves out.
#include "files/kubectl_import.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "files/kube_names.h"
#include "files/limits.h"
#include "files/quantity.h"
#include "files/scenario_yaml.h"
#include "files/strict_yaml.h"

namespace preemptcheck {
namespace {

/// The label the importer gives pods when a PDB must tell namespaces apart (a PDB selects only
/// pods of its own namespace; a scenario has no namespaces).
constexpr std::string_view kNamespaceLabel = "preemptcheck/namespace";

/// Documents in one file, at most: each is parsed on its own, so the bound keeps the work
/// linear in the file's size.
constexpr std::size_t kMaxDocuments = 64;

struct Requests {
  std::int64_t cpu = 0;
  std::int64_t memory = 0;
};

struct RawNode {
  std::string name;
  Requests allocatable;
};

struct RawPod {
  std::string ns;
  std::string name;
  std::map<std::string, std::string> labels;
  std::string node;
  std::string phase;
  std::string start_time;
  std::string created;
  std::optional<std::int64_t> priority;
  std::string class_name;
  std::optional<bool> preempt_never;
  Requests requests;
  bool terminating = false;

  std::string id() const { return ns + "/" + name; }
};

struct RawPdb {
  std::string ns;
  std::string name;
  std::map<std::string, std::string> match_labels;
  bool has_expressions = false;
  bool empty_selects_all = true;  ///< policy/v1; policy/v1beta1's empty selector selects none
  // minAvailable or maxUnavailable: a count, or a percentage when `percent`.
  std::optional<std::int64_t> min_available;
  bool min_percent = false;
  std::optional<std::int64_t> max_unavailable;
  bool max_percent = false;

  std::string id() const { return ns + "/" + name; }
};

struct RawClass {
  std::int64_t value = 0;
  bool global_default = false;
  std::optional<bool> preempt_never;
};

/// Everything read from every input, and what was left out on the way.
struct Collected {
  std::vector<RawNode> nodes;
  std::vector<RawPod> pods;
  std::vector<RawPdb> pdbs;
  std::map<std::string, RawClass> classes;
  std::map<std::string, std::vector<std::string>> dropped;  // why → which objects

  void drop(const std::string& why, std::string what) { dropped[why].push_back(std::move(what)); }
};

bool is_rfc3339_utc(std::string_view s) {
  // kubectl prints metav1.Time as "2024-05-01T10:00:00Z".
  constexpr std::string_view kShape = "dddd-dd-ddTdd:dd:ddZ";
  if (s.size() != kShape.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool digit = s[i] >= '0' && s[i] <= '9';
    if (kShape[i] == 'd' ? !digit : s[i] != kShape[i]) return false;
  }
  return true;
}

// Saturating sum, so that any number of containers cannot overflow before the bound check.
std::int64_t add_capped(std::int64_t a, std::int64_t b, std::int64_t cap) {
  return a > cap - b ? cap + 1 : a + b;
}

class Reader : StrictYaml {
 public:
  Reader(std::string_view file, Collected& into) : StrictYaml(file), c_(into) {}

  void read(const std::string& text) {
    check_bytes(text, file());
    for (const std::string& doc : documents(text)) {
      const YAML::Node root = parse(doc);
      if (root.IsNull()) continue;  // an empty document, as between two `---`
      object(root, false);
    }
  }

 private:
  // Each YAML document of `text` on its own, preceded by as many newlines as lines before it,
  // so that positions in it are positions in the file. A document starts at a `---` line.
  std::vector<std::string> documents(const std::string& text) const {
    std::vector<std::size_t> starts = {0};
    std::vector<int> start_lines = {0};
    int line = 0;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = std::min(text.find('\n', at), text.size());
      const std::string_view l(text.data() + at, end - at);
      if (at > 0 && l.starts_with("---") &&
          (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r')) {
        if (starts.size() == kMaxDocuments) {
          fail_at(line + 1, 1, fmt::format("more than {} YAML documents in one file; split it",
                                           kMaxDocuments));
        }
        starts.push_back(at);
        start_lines.push_back(line);
      }
      ++line;
      at = end + 1;
    }
    if (starts.size() == 1) return {text};
    std::vector<std::string> out;
    for (std::size_t i = 0; i < starts.size(); ++i) {
      const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : text.size();
      out.push_back(std::string(static_cast<std::size_t>(start_lines[i]), '\n') +
                    text.substr(starts[i], end - starts[i]));
    }
    return out;
  }

  Fields object_fields(const YAML::Node& n, std::string_view what) const {
    if (!n.IsMap()) fail(n, fmt::format("expected {} (a mapping), got {}", what, describe(n)));
    return entries(n);
  }

  // The mapping under `key`, or an empty one when the key is absent or null.
  std::optional<Fields> child(const Fields& parent, std::string_view key) const {
    const Field* f = parent.find(key);
    if (f == nullptr || f->value.IsNull()) return std::nullopt;
    return entries(as_map(*f));
  }

  void object(const YAML::Node& n, bool in_list) {
    static constexpr std::string_view kWhat = "a Kubernetes object";
    const Fields f = object_fields(n, "a Kubernetes object with apiVersion and kind");
    const std::string kind = nonempty(require(f, "kind", kWhat));
    const std::string api_version = nonempty(require(f, "apiVersion", kWhat));
    if (kind.ends_with("List")) {
      if (in_list) fail(require(f, "kind", kWhat), "expected an object inside a List, got a List");
      const Field& items = require(f, "items", "a List");
      if (items.value.IsNull()) return;
      for (const YAML::Node& item : sequence(items)) object(item, true);
      return;
    }
    const Fields metadata = entries(as_map(require(f, "metadata", kWhat)));
    const std::string name = nonempty(require(metadata, "name", "metadata"));
    std::string ns = "default";
    if (const Field* nsf = metadata.find("namespace")) ns = nonempty(*nsf);
    if (kind == "Node") {
      node(f, name);
    } else if (kind == "Pod") {
      pod(f, metadata, ns, name);
    } else if (kind == "PodDisruptionBudget") {
      pdb(f, metadata, ns, name, api_version);
    } else if (kind == "PriorityClass") {
      priority_class(f, name);
    } else {
      c_.drop("objects of other kinds (not modelled)", fmt::format("{} {}/{}", kind, ns, name));
    }
  }

  // cpu in millicores or memory in bytes, from a quantity (kubectl quotes some: cpu: "4").
  std::int64_t quantity(const Field& f, bool is_cpu) const {
    const std::string s = text(f);
    const std::int64_t max = is_cpu ? limits::kMaxCpuMillicores : limits::kMaxMemoryBytes;
    const QuantityResult r = parse_quantity(s, is_cpu ? 3 : 0, max);
    if (r.value) return *r.value;
    switch (r.error) {
      case QuantityError::kSyntax:
        fail(f, fmt::format("expected a Kubernetes quantity for '{}' (such as {}), got {}", f.key,
                            is_cpu ? "2, 500m or 1.5" : "4, 512Mi or 8Gi", describe(f.value)));
      case QuantityError::kNegative:
        fail(f, fmt::format("expected a non-negative quantity for '{}', got {}", f.key, s));
      case QuantityError::kFraction:
        fail(f, fmt::format("'{}' is {}, not a whole number of {}; preemptcheck does not round",
                            f.key, s, is_cpu ? "millicores" : "bytes"));
      case QuantityError::kTooLarge:
        fail(f, fmt::format("'{}' is {}, above the bound {}", f.key, s,
                            is_cpu ? format_cpu(max) : format_memory(max)));
    }
    fail(f, "unreachable quantity error");
  }

  // cpu and memory of a ResourceList; the names of its other resources go to `others`.
  Requests resources(const Fields& list, std::set<std::string>& others) const {
    Requests r;
    for (const Field& e : list.entries) {
      if (e.key == "cpu") {
        r.cpu = quantity(e, true);
      } else if (e.key == "memory") {
        r.memory = quantity(e, false);
      } else {
        others.insert(e.key);
      }
    }
    return r;
  }

  void node(const Fields& f, const std::string& name) {
    const Fields status = entries(as_map(require(f, "status", "a Node")));
    const Fields allocatable = entries(as_map(require(status, "allocatable", "a Node's status")));
    std::set<std::string> others;
    RawNode n{name, resources(allocatable, others)};
    require(allocatable, "cpu", "a Node's allocatable");
    require(allocatable, "memory", "a Node's allocatable");
    if (!others.empty()) {
      c_.drop("allocatable resources other than cpu and memory (not modelled)",
              fmt::format("{} ({})", name, fmt::join(others, ", ")));
    }
    if (const auto spec = child(f, "spec")) {
      if (const Field* t = spec->find("taints"); t && t->value.IsSequence() && t->value.size() > 0) {
        c_.drop("node spec.taints (not modelled)", name);
      }
      if (const Field* u = spec->find("unschedulable"); u && boolean(*u)) {
        c_.drop("node spec.unschedulable (not modelled; the node is kept)", name);
      }
    }
    c_.nodes.push_back(std::move(n));
  }

  // The scheduler's view of a pod's requests: kube-scheduler's NodeResourcesFit takes them from
  // the resource helper PodRequests, staging/src/k8s.io/component-helpers/resource/helpers.go at
  // commit 0085214e563468088672cf8c50849884198a18cc: the containers' requests summed
  // (aggregateContainerResourcesByFn, :252-262), each init container's requests plus the
  // restartable (sidecar) init containers started before it, the largest of those taken
  // (:272-296), the larger of the two kept per resource (:297), then spec.overhead added
  // (PodRequests, :178-181). Pod-level resources (:158-176, a feature gate) are not read.
  Requests pod_requests(const Fields& spec, const std::string& id) {
    constexpr std::int64_t kCpuCap = limits::kMaxCpuMillicores;
    constexpr std::int64_t kMemCap = limits::kMaxMemoryBytes;
    std::set<std::string> others;
    auto container_requests = [&](const YAML::Node& c, bool& restartable) {
      const Fields cf = object_fields(c, "a container");
      restartable = false;
      if (const Field* rp = cf.find("restartPolicy")) restartable = text(*rp) == "Always";
      const auto res = child(cf, "resources");
      if (!res) return Requests{};
      const auto req = child(*res, "requests");
      return req ? resources(*req, others) : Requests{};
    };
    Requests sum;
    bool restartable = false;
    for (const YAML::Node& c : sequence(require(spec, "containers", "a Pod's spec"))) {
      const Requests r = container_requests(c, restartable);
      sum.cpu = add_capped(sum.cpu, r.cpu, kCpuCap);
      sum.memory = add_capped(sum.memory, r.memory, kMemCap);
    }
    if (const Field* inits = spec.find("initContainers"); inits && !inits->value.IsNull()) {
      Requests sidecars;
      Requests init_max;
      for (const YAML::Node& c : sequence(*inits)) {
        const Requests r = container_requests(c, restartable);
        Requests use;
        if (restartable) {
          sum.cpu = add_capped(sum.cpu, r.cpu, kCpuCap);
          sum.memory = add_capped(sum.memory, r.memory, kMemCap);
          sidecars.cpu = add_capped(sidecars.cpu, r.cpu, kCpuCap);
          sidecars.memory = add_capped(sidecars.memory, r.memory, kMemCap);
          use = sidecars;
        } else {
          use = {add_capped(r.cpu, sidecars.cpu, kCpuCap),
                 add_capped(r.memory, sidecars.memory, kMemCap)};
        }
        init_max = {std::max(init_max.cpu, use.cpu), std::max(init_max.memory, use.memory)};
      }
      sum = {std::max(sum.cpu, init_max.cpu), std::max(sum.memory, init_max.memory)};
    }
    if (const auto overhead = child(spec, "overhead")) {
      const Requests o = resources(*overhead, others);
      sum.cpu = add_capped(sum.cpu, o.cpu, kCpuCap);
      sum.memory = add_capped(sum.memory, o.memory, kMemCap);
    }
    if (sum.cpu > kCpuCap || sum.memory > kMemCap) {
      fail(spec.map, fmt::format("pod {} requests more than the bounds cpu {}, memory {}", id,
                                 format_cpu(kCpuCap), format_memory(kMemCap)));
    }
    if (!others.empty()) {
      c_.drop("requests other than cpu and memory (not modelled)",
              fmt::format("{} ({})", id, fmt::join(others, ", ")));
    }
    return sum;
  }

  std::map<std::string, std::string> label_map(const Fields& metadata, std::string_view key) const {
    std::map<std::string, std::string> out;
    if (const auto labels = child(metadata, key)) {
      for (const Field& e : labels->entries) {
        const std::string value = text(e);
        if (std::string p = label_key_problem(e.key); !p.empty()) {
          fail(e.key_node, fmt::format("invalid label key '{}': {}", e.key, p));
        }
        if (std::string p = label_value_problem(value); !p.empty()) {
          fail(e, fmt::format("invalid label value {} for '{}': {}", describe(e.value), e.key, p));
        }
        out.emplace(e.key, value);
      }
    }
    return out;
  }

  void pod(const Fields& f, const Fields& metadata, const std::string& ns,
           const std::string& name) {
    RawPod p;
    p.ns = ns;
    p.name = name;
    const std::string id = p.id();
    p.labels = label_map(metadata, "labels");
    if (const Field* t = metadata.find("creationTimestamp")) p.created = time(*t);
    p.terminating = metadata.find("deletionTimestamp") != nullptr;
    const Fields spec = entries(as_map(require(f, "spec", "a Pod")));
    p.requests = pod_requests(spec, id);
    if (const Field* n = spec.find("nodeName")) p.node = nonempty(*n);
    if (const Field* pr = spec.find("priority")) {
      p.priority = integer(*pr, limits::kMinPriority, limits::kMaxPriority);
    }
    if (const Field* pc = spec.find("priorityClassName")) p.class_name = text(*pc);
    if (const Field* pp = spec.find("preemptionPolicy")) p.preempt_never = policy(*pp);
    for (std::string_view key : {"affinity", "nodeSelector", "topologySpreadConstraints",
                                 "schedulingGates", "resourceClaims", "resources"}) {
      if (const Field* u = spec.find(key); u && !u->value.IsNull() && u->value.size() > 0) {
        c_.drop(key == "resources"
                    ? std::string("pod-level spec.resources (not read; the containers' requests "
                                  "are used)")
                    : fmt::format("spec.{} (not modelled)", key),
                id);
      }
    }
    if (const Field* t = spec.find("tolerations"); t && !t->value.IsNull()) {
      // Admission adds the not-ready and unreachable tolerations to every pod
      // (DefaultTolerationSeconds); only other tolerations say something about the pod.
      for (const YAML::Node& tol : sequence(*t)) {
        const Fields tf = object_fields(tol, "a toleration");
        const Field* key = tf.find("key");
        const std::string k = key ? text(*key) : "";
        if (k != "node.kubernetes.io/not-ready" && k != "node.kubernetes.io/unreachable") {
          c_.drop("spec.tolerations (not modelled)", id);
          break;
        }
      }
    }
    if (const auto status = child(f, "status")) {
      if (const Field* ph = status->find("phase")) p.phase = text(*ph);
      if (const Field* st = status->find("startTime")) p.start_time = time(*st);
      if (const Field* nn = status->find("nominatedNodeName")) {
        c_.drop(fmt::format("status.nominatedNodeName (the scenario starts with no nominations)"),
                fmt::format("{} ({})", id, text(*nn)));
      }
    }
    c_.pods.push_back(std::move(p));
  }

  std::string time(const Field& f) const {
    std::string s = text(f);
    if (!is_rfc3339_utc(s)) {
      fail(f, fmt::format("expected a time such as 2024-05-01T10:00:00Z for '{}', got {}", f.key,
                          describe(f.value)));
    }
    return s;
  }

  bool policy(const Field& f) const {
    const std::string s = text(f);
    if (s != "PreemptLowerPriority" && s != "Never") {
      fail(f, fmt::format("expected PreemptLowerPriority or Never for '{}', got {}", f.key,
                          describe(f.value)));
    }
    return s == "Never";
  }

  // An IntOrString: a plain integer, or a percentage "N%" (quoted or not).
  std::pair<std::int64_t, bool> int_or_percent(const Field& f) const {
    if (!f.value.IsScalar()) {
      fail(f, fmt::format("expected an integer or a percentage for '{}', got {}", f.key,
                          describe(f.value)));
    }
    const std::string& s = f.value.Scalar();
    if (s.ends_with("%")) {
      const std::string digits = s.substr(0, s.size() - 1);
      const bool ok = !digits.empty() && digits.size() <= 3 &&
                      std::all_of(digits.begin(), digits.end(),
                                  [](char ch) { return ch >= '0' && ch <= '9'; });
      if (!ok || std::stoi(digits) > 100) {
        fail(f, fmt::format("expected a percentage from 0% to 100% for '{}', got {}", f.key,
                            describe(f.value)));
      }
      return {std::stoi(digits), true};
    }
    return {integer(f, 0, limits::kMaxPriority, "an integer or a percentage"), false};
  }

  void pdb(const Fields& f, const Fields&, const std::string& ns, const std::string& name,
           const std::string& api_version) {
    RawPdb p;
    p.ns = ns;
    p.name = name;
    p.empty_selects_all = api_version != "policy/v1beta1";
    const Fields spec = entries(as_map(require(f, "spec", "a PodDisruptionBudget")));
    if (const auto selector = child(spec, "selector")) {
      p.match_labels = label_map(*selector, "matchLabels");
      if (const Field* e = selector->find("matchExpressions"); e && !e->value.IsNull()) {
        p.has_expressions = sequence(*e).size() > 0;
      }
    } else {
      p.empty_selects_all = false;  // no selector at all selects nothing
    }
    const Field* min = spec.find("minAvailable");
    const Field* max = spec.find("maxUnavailable");
    if (min && max) {
      fail(*max, "a PodDisruptionBudget sets minAvailable or maxUnavailable, not both");
    }
    if (min) std::tie(p.min_available, p.min_percent) = int_or_percent(*min);
    if (max) std::tie(p.max_unavailable, p.max_percent) = int_or_percent(*max);
    c_.pdbs.push_back(std::move(p));
  }

  void priority_class(const Fields& f, const std::string& name) {
    RawClass c;
    c.value = integer(require(f, "value", "a PriorityClass"), limits::kMinPriority,
                      limits::kMaxPriority);
    if (const Field* g = f.find("globalDefault")) c.global_default = boolean(*g);
    if (const Field* p = f.find("preemptionPolicy")) c.preempt_never = policy(*p);
    c_.classes[name] = c;
  }

  Collected& c_;
};

// `name`, or with -2, -3 … appended, that is a valid object name not yet in `taken`.
std::string unique_name(std::string name, std::set<std::string>& taken) {
  std::string candidate = name;
  for (int i = 2; !dns1123_subdomain_problem(candidate).empty() || taken.contains(candidate); ++i) {
    const std::string suffix = fmt::format("-{}", i);
    candidate = name.substr(0, 253 - suffix.size()) + suffix;
  }
  taken.insert(candidate);
  return candidate;
}

// Object names unique across namespaces: the plain name, or "NAMESPACE.NAME" for every object
// whose name another namespace also uses.
std::vector<std::string> scenario_names(const std::vector<std::pair<std::string, std::string>>& ids) {
  std::map<std::string, std::set<std::string>> namespaces_of;
  for (const auto& [ns, name] : ids) namespaces_of[name].insert(ns);
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
  for (const KubectlInput& in : inputs) Reader(in.file, c).read(in.text);

  KubectlImport out;
  Scenario& s = out.scenario;
  s.name = options.scenario_name;
  std::vector<std::string> files;
  for (const KubectlInput& in : inputs) files.push_back(in.file);
  s.description = fmt::format("imported from kubectl output: {}", fmt::join(files, ", "));

  // Nodes, sorted by name so that the order of the inputs does not matter.
  std::sort(c.nodes.begin(), c.nodes.end(),
            [](const RawNode& a, const RawNode& b) { return a.name < b.name; });
  std::set<std::string> node_names;
  for (const RawNode& n : c.nodes) {
    if (!node_names.insert(n.name).second) {
      throw std::invalid_argument(fmt::format("node '{}' appears twice in the input", n.name));
    }
  }
  for (const std::string& keep : options.keep_nodes) {
    if (!node_names.contains(keep)) {
      throw std::invalid_argument(fmt::format("--nodes names '{}', which is not a node of the "
                                              "input (nodes: {})",
                                              keep, fmt::join(node_names, ", ")));
    }
  }
  auto kept = [&](const std::string& node) {
    return options.keep_nodes.empty() ||
           std::find(options.keep_nodes.begin(), options.keep_nodes.end(), node) !=
               options.keep_nodes.end();
  };
  for (const RawNode& n : c.nodes) {
    if (!kept(n.name)) {
      c.drop("nodes not kept by --nodes", n.name);
      continue;
    }
    s.nodes.push_back({n.name, n.allocatable.cpu, n.allocatable.memory});
  }
  if (s.nodes.size() > static_cast<std::size_t>(kMaxNodes)) {
    throw std::invalid_argument(fmt::format(
        "the input has {} nodes and a scenario holds at most {}; keep some with --nodes A,B",
        s.nodes.size(), kMaxNodes));
  }
  if (s.nodes.empty()) throw std::invalid_argument("the input has no Node objects");

  // Pods: finished, terminating and elsewhere-placed pods are left out.
  std::vector<const RawPod*> pods;
  for (const RawPod& p : c.pods) {
    if (p.phase == "Succeeded" || p.phase == "Failed") {
      c.drop("finished pods (phase Succeeded or Failed)", p.id());
    } else if (p.terminating) {
      c.drop("terminating pods (metadata.deletionTimestamp)", p.id());
    } else if (!p.node.empty() && !node_names.contains(p.node)) {
      c.drop("pods on a node that is not in the input", fmt::format("{} ({})", p.id(), p.node));
    } else if (!p.node.empty() && !kept(p.node)) {
      c.drop("pods on nodes not kept by --nodes", p.id());
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
      return std::make_tuple(p->node.empty(), p->node.empty() ? p->created : p->start_time,
                             p->ns, p->name);
    };
    return key(a) < key(b);
  });

  // Priorities: spec.priority (admission resolves it), else the PriorityClass, else the
  // globalDefault class, else 0.
  const RawClass* global_default = nullptr;
  for (const auto& [name, cls] : c.classes) {
    if (cls.global_default) global_default = &cls;
  }
  std::vector<std::pair<std::string, std::string>> ids;
  for (const RawPod* p : pods) ids.emplace_back(p->ns, p->name);
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
    spec.preempt_never = p.preempt_never ? *p.preempt_never
                                         : (cls && cls->preempt_never && *cls->preempt_never);
    spec.cpu = p.requests.cpu;
    spec.memory = p.requests.memory;
    spec.node = p.node;
    spec.labels = p.labels;
    s.pods.push_back(std::move(spec));
    if (p.node.empty()) ++out.pending;
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
      if (!selects(b.match_labels, p->labels)) continue;
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
    for (const auto& [key, value] : spec.selector) selector_keys.insert(key);
    // minAvailable as a count is kept; a percentage and maxUnavailable are scaled by the
    // expected pod count, which the disruption controller takes from the pods' controllers
    // and which is here the number of matching pods in the input.
    std::int64_t min_available = 0;
    if (b.min_available) {
      min_available = b.min_percent ? scaled_up(*b.min_available, matching) : *b.min_available;
    } else if (b.max_unavailable) {
      const std::int64_t max =
          b.max_percent ? scaled_up(*b.max_unavailable, matching) : *b.max_unavailable;
      min_available = std::max<std::int64_t>(0, matching - max);
    }
    if ((b.min_available && b.min_percent) || b.max_unavailable) {
      c.drop("the pods' controllers' scale (not in the input; PDB percentages and "
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
    if (namespaces_to_label.contains(pods[i]->ns)) keep.emplace(kNamespaceLabel, pods[i]->ns);
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

  // The result must be a scenario `check` accepts; a node overfilled by its running pods is
  // the likeliest reason it is not.
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
  for (const std::string& path : paths) inputs.push_back({path, read_file(path)});
  return import_kubectl(inputs, options);
}

}  // namespace preemptcheck
