// kubectl import, reading: walks kubectl's YAML document by document and object by object with
// positioned errors (FileError), reads each Node, Pod, PodDisruptionBudget and PriorityClass
// into files/kubectl_objects.h's raw objects — a pod's requests summed as kube-scheduler sums
// them — and writes down what it leaves out.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "files/kube_names.h"
#include "files/kubectl_objects.h"
#include "files/limits.h"
#include "files/quantity.h"
#include "files/strict_yaml.h"

namespace preemptcheck::kubectl {
namespace {

/// Documents in one file, at most: each is parsed on its own, so the bound keeps the work
/// linear in the file's size.
constexpr std::size_t kMaxDocuments = 64;

bool is_rfc3339_utc(std::string_view s) {
  // kubectl prints metav1.Time as "2024-05-01T10:00:00Z".
  constexpr std::string_view kShape = "dddd-dd-ddTdd:dd:ddZ";
  if (s.size() != kShape.size())
    return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool digit = s[i] >= '0' && s[i] <= '9';
    if (kShape[i] == 'd' ? !digit : s[i] != kShape[i])
      return false;
  }
  return true;
}

// Saturating sum, so that any number of containers cannot overflow before the bound check.
std::int64_t add_capped(std::int64_t a, std::int64_t b, std::int64_t cap) {
  return a > cap - b ? cap + 1 : a + b;
}

class Reader : StrictYaml {
 public:
  Reader(std::string_view file, Collected& into)
      : StrictYaml(file, limits::kMaxKubectlFileBytes), c_(into) {}

  void read(const std::string& text) {
    check_bytes(text, file(), limits::kMaxKubectlFileBytes);
    for (const std::string& doc : documents(text)) {
      const YAML::Node root = parse(doc);
      if (root.IsNull())
        continue;  // an empty document, as between two `---`
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
          fail_at(line + 1, 1,
                  fmt::format("more than {} YAML documents in one file; split it", kMaxDocuments));
        }
        starts.push_back(at);
        start_lines.push_back(line);
      }
      ++line;
      at = end + 1;
    }
    if (starts.size() == 1)
      return {text};
    std::vector<std::string> out;
    for (std::size_t i = 0; i < starts.size(); ++i) {
      const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : text.size();
      out.push_back(std::string(static_cast<std::size_t>(start_lines[i]), '\n') +
                    text.substr(starts[i], end - starts[i]));
    }
    return out;
  }

  Fields object_fields(const YAML::Node& n, std::string_view what) const {
    if (!n.IsMap())
      fail(n, fmt::format("expected {} (a mapping), got {}", what, describe(n)));
    return entries(n);
  }

  // The mapping under `key`, or an empty one when the key is absent or null.
  std::optional<Fields> child(const Fields& parent, std::string_view key) const {
    const Field* f = parent.find(key);
    if (f == nullptr || f->value.IsNull())
      return std::nullopt;
    return entries(as_map(*f));
  }

  void object(const YAML::Node& n, bool in_list) {
    static constexpr std::string_view kWhat = "a Kubernetes object";
    const Fields f = object_fields(n, "a Kubernetes object with apiVersion and kind");
    const std::string kind = nonempty(require(f, "kind", kWhat));
    const std::string api_version = nonempty(require(f, "apiVersion", kWhat));
    if (kind.ends_with("List")) {
      if (in_list)
        fail(require(f, "kind", kWhat), "expected an object inside a List, got a List");
      const Field& items = require(f, "items", "a List");
      if (items.value.IsNull())
        return;
      for (const YAML::Node& item : sequence(items))
        object(item, true);
      return;
    }
    const Fields metadata = entries(as_map(require(f, "metadata", kWhat)));
    const Field& name_field = require(metadata, "name", "metadata");
    const std::string name = nonempty(name_field);
    std::string ns = "default";
    const Field* nsf = metadata.find("namespace");
    if (nsf)
      ns = nonempty(*nsf);
    const bool modelled =
        kind == "Node" || kind == "Pod" || kind == "PodDisruptionBudget" || kind == "PriorityClass";
    // The API server refuses these names, so kubectl never prints them; the scenario would
    // refuse them too, without a position in this file.
    if (modelled)
      object_name(name_field, kind);
    if (nsf && (kind == "Pod" || kind == "PodDisruptionBudget"))
      namespace_name(*nsf);
    if (kind == "Node") {
      read_once(c_.node_at, name, name_field, fmt::format("node '{}' is read twice", name));
      node(f, name);
    } else if (kind == "Pod") {
      read_once(c_.pod_at, ns + "/" + name, name_field,
                fmt::format("pod {}/{} is read twice", ns, name));
      if (const Field* uid = metadata.find("uid")) {
        const std::string u = nonempty(*uid);
        read_once(c_.uid_at, u, *uid,
                  fmt::format("pod {}/{} has the UID {} of a pod read before", ns, name, u));
      }
      pod(f, metadata, ns, name);
    } else if (kind == "PodDisruptionBudget") {
      pdb(f, metadata, ns, name, api_version);
    } else if (kind == "PriorityClass") {
      priority_class(f, name);
    } else {
      c_.drop("objects of other kinds (not modelled)", fmt::format("{} {}/{}", kind, ns, name));
    }
  }

  // Records where `key` was read; a second reading, from this input or an earlier one, is
  // refused at `at`: kubectl prints every object once, so overlapping inputs would count it
  // twice.
  void read_once(std::map<std::string, std::string>& seen, const std::string& key, const Field& at,
                 const std::string& what) const {
    const YAML::Mark m = at.value.Mark();
    const auto [it, inserted] =
        seen.emplace(key, fmt::format("{}:{}:{}", file(), m.line + 1, m.column + 1));
    if (!inserted) {
      fail(at, fmt::format("{} (first at {}); give each object once: inputs that overlap "
                           "would count it twice",
                           what, it->second));
    }
  }

  // A name as the API validates it: a DNS-1123 subdomain.
  void object_name(const Field& f, std::string_view kind) const {
    if (std::string p = dns1123_subdomain_problem(text(f)); !p.empty()) {
      fail(f, fmt::format("invalid {} name {}: {}", kind, describe(f.value), p));
    }
  }

  // A namespace as the API validates it: a DNS-1123 label (a subdomain of one part, at most 63
  // characters).
  void namespace_name(const Field& f) const {
    const std::string s = text(f);
    std::string p = dns1123_subdomain_problem(s);
    if (p.empty() && s.find('.') != std::string::npos)
      p = "a namespace holds no '.'";
    if (p.empty() && s.size() > 63)
      p = "a namespace is at most 63 characters";
    if (!p.empty())
      fail(f, fmt::format("invalid namespace {}: {}", describe(f.value), p));
  }

  // cpu in millicores or memory in bytes, from a quantity (kubectl quotes some: cpu: "4").
  std::int64_t quantity(const Field& f, bool is_cpu) const {
    const std::string s = quantity_text(f, "a Kubernetes quantity");
    const std::int64_t max = is_cpu ? limits::kMaxCpuMillicores : limits::kMaxMemoryBytes;
    const QuantityResult r = parse_quantity(s, is_cpu ? 3 : 0, max);
    if (r.value)
      return *r.value;
    switch (r.error) {
      case QuantityError::kSyntax:
        fail(f, fmt::format("expected a Kubernetes quantity for '{}' (such as {}), got {}", f.key,
                            is_cpu ? "2, 500m or 1.5" : "4, 512Mi or 8Gi", describe(f.value)));
      case QuantityError::kNegative:
        fail(f, fmt::format("expected a non-negative quantity for '{}', got {}", f.key, s));
      case QuantityError::kFraction:
        fail(f, fmt::format("'{}' is {}; preemptcheck does not round", f.key,
                            fraction_problem(s, is_cpu)));
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
      if (const Field* t = spec->find("taints");
          t && t->value.IsSequence() && t->value.size() > 0) {
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
      if (const Field* rp = cf.find("restartPolicy"))
        restartable = text(*rp) == "Always";
      const auto res = child(cf, "resources");
      if (!res)
        return Requests{};
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
    if (const Field* t = metadata.find("creationTimestamp"))
      p.created = time(*t);
    p.terminating = metadata.find("deletionTimestamp") != nullptr;
    const Fields spec = entries(as_map(require(f, "spec", "a Pod")));
    p.requests = pod_requests(spec, id);
    if (const Field* n = spec.find("nodeName")) {
      p.node = nonempty(*n);
      object_name(*n, "node");
    }
    if (const Field* pr = spec.find("priority")) {
      p.priority = integer(*pr, limits::kMinPriority, limits::kMaxPriority);
    }
    if (const Field* pc = spec.find("priorityClassName"))
      p.class_name = text(*pc);
    if (const Field* pp = spec.find("preemptionPolicy"))
      p.preempt_never = policy(*pp);
    if (const Field* sn = spec.find("schedulerName"))
      p.scheduler = nonempty(*sn);
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
      if (const Field* ph = status->find("phase"))
        p.phase = text(*ph);
      if (const Field* st = status->find("startTime"))
        p.start_time = time(*st);
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
      const bool ok =
          !digits.empty() && digits.size() <= 3 &&
          std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
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
    if (min)
      std::tie(p.min_available, p.min_percent) = int_or_percent(*min);
    if (max)
      std::tie(p.max_unavailable, p.max_percent) = int_or_percent(*max);
    c_.pdbs.push_back(std::move(p));
  }

  void priority_class(const Fields& f, const std::string& name) {
    RawClass c;
    c.value =
        integer(require(f, "value", "a PriorityClass"), limits::kMinPriority, limits::kMaxPriority);
    if (const Field* g = f.find("globalDefault"))
      c.global_default = boolean(*g);
    if (const Field* p = f.find("preemptionPolicy"))
      c.preempt_never = policy(*p);
    c_.classes[name] = c;
  }

  Collected& c_;
};

}  // namespace

void read_objects(const KubectlInput& input, Collected& into) {
  Reader(input.file, into).read(input.text);
}

}  // namespace preemptcheck::kubectl
