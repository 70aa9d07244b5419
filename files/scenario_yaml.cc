// Scenario files, reading: a strict reader over yaml-cpp's node tree that reports every problem
// at its line and column. The writer of the canonical layout is files/scenario_yaml_write.cc.
#include "files/scenario_yaml.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <vector>

#include "files/kube_names.h"
#include "files/limits.h"
#include "files/quantity.h"
#include "files/scenario_start.h"
#include "files/strict_yaml.h"
#include "impl/cluster.h"

namespace preemptcheck {
namespace {

// ---------------------------------------------------------------------------------------
// Reading

// Top-level and per-entity keys, in the order they are listed in messages and written.
constexpr std::array<std::string_view, 12> kTopKeys = {
    "name",       "description", "nodes",         "pods",
    "pdbs",       "faults",      "executor",      "profile",
    "mechanisms", "expect",      "arrival-order", "allow-overcommitted-start"};
constexpr std::array<std::string_view, 2> kExpectKeys = {"bound", "not-bound"};
constexpr std::array<std::string_view, 4> kNodeKeys = {"name", "cpu", "memory", "arrives"};
constexpr std::array<std::string_view, 10> kPodKeys = {
    "name",    "priority",          "cpu",    "memory",    "node",
    "arrives", "preemption-policy", "labels", "scheduler", "recreated"};
constexpr std::array<std::string_view, 4> kPdbKeys = {"name", "selector", "min-available",
                                                      "max-unavailable"};
constexpr std::array<std::string_view, 5> kFaultKeys = {
    "eviction-failures", "binding-failures", "restarts", "deletions", "external-bindings"};
constexpr std::array<std::string_view, 1> kExecutorKeys = {"workers"};

class Loader : StrictYaml {
 public:
  explicit Loader(std::string_view file) : StrictYaml(file) {}

  Scenario load(std::string_view text) const {
    YAML::Node root;
    try {
      root = parse(std::string(text));
    } catch (const FileError& e) {
      // kubectl output in several documents stops at the second: say what the file is. The
      // first document was read whole before that error.
      if (e.message == "expected a single YAML document" &&
          is_kubectl_output(YAML::Load(std::string(text)))) {
        throw FileError(e.file, e.line, e.column, fmt::format("{}: {}", e.message, import_hint()));
      }
      throw;
    }
    if (root.IsNull())
      fail_at(1, 1, "expected a mapping at the top level");
    if (!root.IsMap()) {
      fail(root, fmt::format("expected a mapping at the top level, got {}", describe(root)));
    }
    if (is_kubectl_output(root)) {
      const Fields top = entries(root);
      const Field& first = top.find("apiVersion") ? *top.find("apiVersion") : *top.find("kind");
      fail(first.key_node,
           fmt::format("unknown key '{}' in the scenario: {}", first.key, import_hint()));
    }
    return scenario(root);
  }

 private:
  std::string import_hint() const {
    return fmt::format(
        "this is a Kubernetes object (it has apiVersion and kind), not a scenario; "
        "`preemptcheck import {} -o SCENARIO.yaml` turns kubectl output into one",
        is_shell_word(file()) ? file() : "KUBECTL.yaml");
  }

  // Whether `s` can be pasted into a shell command as it is.
  static bool is_shell_word(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             std::string_view("-_./").find(c) != std::string_view::npos;
    });
  }

  static bool is_kubectl_output(const YAML::Node& root) {
    return root.IsMap() && root["apiVersion"].IsDefined() && root["kind"].IsDefined();
  }

  // An object name: a DNS-1123 subdomain, as the API requires of pods, nodes and PDBs.
  std::string object_name(const Field& f, std::string_view what) const {
    std::string s = nonempty(f);
    if (std::string problem = dns1123_subdomain_problem(s); !problem.empty()) {
      fail(f, fmt::format("invalid {} name {}: {}", what, describe(f.value), problem));
    }
    return s;
  }

  // cpu in millicores or memory in bytes, as a Kubernetes quantity within its bound.
  std::int64_t quantity(const Field& f, bool is_cpu, bool positive) const {
    const std::string expected =
        fmt::format("a {} quantity", positive ? "positive" : "non-negative");
    const std::string& s = quantity_text(f, expected);
    const std::int64_t max = is_cpu ? limits::kMaxCpuMillicores : limits::kMaxMemoryBytes;
    const QuantityResult r = parse_quantity(s, is_cpu ? 3 : 0, max);
    if (r.value) {
      if (positive && *r.value == 0) {
        fail(f, fmt::format("expected {} for '{}', got {}", expected, f.key, s));
      }
      return *r.value;
    }
    switch (r.error) {
      case QuantityError::kSyntax:
        fail(f, fmt::format("expected {} for '{}' (a Kubernetes quantity such as {}), got {}",
                            expected, f.key, is_cpu ? "2, 500m or 1.5" : "4, 512Mi or 8Gi",
                            describe(f.value)));
      case QuantityError::kNegative:
        fail(f, fmt::format("expected {} for '{}', got {}", expected, f.key, s));
      case QuantityError::kFraction:
        fail(f, fmt::format("'{}' is {}", f.key, fraction_problem(s, is_cpu)));
      case QuantityError::kTooLarge:
        fail(f, fmt::format("quantity out of range for '{}': {} is above the bound {}", f.key, s,
                            is_cpu ? format_cpu(max) : format_memory(max)));
    }
    fail(f, "unreachable");
  }

  std::int64_t count(const Field& f, std::int64_t max) const {
    return integer(f, 0, max, "a non-negative integer");
  }

  // A mapping of label keys to values (labels, selectors), each as the API validates them.
  std::map<std::string, std::string> labels(const Field& f) const {
    if (!f.value.IsMap()) {
      fail(f,
           fmt::format("expected a mapping of strings for '{}', got {}", f.key, describe(f.value)));
    }
    std::map<std::string, std::string> out;
    for (const Field& e : entries(f.value).entries) {
      if (std::string problem = label_key_problem(e.key); !problem.empty()) {
        fail(e.key_node, fmt::format("invalid label key '{}' in '{}': {}", e.key, f.key, problem));
      }
      std::string value = text(e);
      if (std::string problem = label_value_problem(value); !problem.empty()) {
        fail(e, fmt::format("invalid label value '{}' for '{}': {}", value, e.key, problem));
      }
      out[e.key] = std::move(value);
    }
    return out;
  }

  // The elements of `f`'s sequence, each a mapping, at most `limit` of them.
  std::vector<YAML::Node> elements(const Field& f, std::string_view what, int limit) const {
    const YAML::Node& seq = sequence(f);
    std::vector<YAML::Node> out;
    for (auto it = seq.begin(); it != seq.end(); ++it) {
      const YAML::Node e = *it;
      if (static_cast<int>(out.size()) == limit) {
        fail(e, fmt::format("too many {}s in '{}': at most {} are supported", what, f.key, limit));
      }
      if (!e.IsMap()) {
        fail(e, fmt::format("expected a mapping for each {} in '{}', got {}", what, f.key,
                            describe(e)));
      }
      out.push_back(e);
    }
    return out;
  }

  Scenario scenario(const YAML::Node& root) const {
    static constexpr std::string_view kWhat = "the scenario";
    const Fields top = mapping(root, kWhat, kTopKeys);
    Scenario s;
    const Field* name_field = top.find("name");
    if (name_field)
      s.name = object_name(*name_field, "scenario");
    if (const Field* f = top.find("description"))
      s.description = text(*f);
    const Field& nodes = require(top, "nodes", kWhat);
    const Field& pods = require(top, "pods", kWhat);

    std::map<std::string, YAML::Node> node_names;
    for (const YAML::Node& n : elements(nodes, "node", kMaxNodes)) {
      s.nodes.push_back(node(n, node_names));
    }
    if (s.nodes.empty())
      fail(nodes, "expected at least one node in 'nodes'");

    if (const Field* f = top.find("allow-overcommitted-start"))
      s.allow_overcommitted_start = boolean(*f);
    std::map<std::string, YAML::Node> pod_names;
    std::map<std::string, Resources> used;  // by node: the running pods' requests so far
    for (const YAML::Node& p : elements(pods, "pod", kMaxPods)) {
      s.pods.push_back(
          pod(p, pod_names, node_names, s.nodes, s.allow_overcommitted_start ? nullptr : &used));
    }
    if (const Field* f = top.find("arrival-order"))
      s.arrival_order = read_arrival_order(*this, *f, s);

    if (const Field* pdbs = top.find("pdbs")) {
      std::map<std::string, YAML::Node> pdb_names;
      const YAML::Node& seq = sequence(*pdbs);
      for (auto it = seq.begin(); it != seq.end(); ++it) {
        const YAML::Node e = *it;
        if (!e.IsMap()) {
          fail(e, fmt::format("expected a mapping for each PDB in 'pdbs', got {}", describe(e)));
        }
        s.pdbs.push_back(pdb(e, pdb_names, s.pods));
      }
    }

    if (const Field* f = top.find("faults"))
      s.faults = faults(*f);

    if (const Field* f = top.find("executor")) {
      const Fields executor = mapping(as_map(*f), "'executor'", kExecutorKeys);
      if (const Field* w = executor.find("workers")) {
        s.workers = static_cast<int>(count(*w, limits::kMaxWorkers));
      }
    }

    if (const Field* f = top.find("profile")) {
      s.profile = text(*f);
      if (!profile(s.profile)) {
        fail(*f, fmt::format("unknown profile '{}'; expected one of: {}", s.profile,
                             join_words(profile_names())));
      }
    }
    s.mechanisms = *profile(s.profile);

    if (const Field* f = top.find("mechanisms")) {
      for (const Field& m : entries(as_map(*f)).entries) {
        if (mechanism_values(m.key).empty()) {  // an unknown name, whatever its value
          fail(m.key_node, set_mechanism(s.mechanisms, m.key, "").value_or(""));
        }
        if (auto error = set_mechanism(s.mechanisms, m.key, text(m)))
          fail(m, std::move(*error));
      }
    }

    if (const Field* f = top.find("expect")) {
      const Fields expect = mapping(as_map(*f), "'expect'", kExpectKeys);
      for (const Field& e : expect.entries) {
        auto& out = e.key == "bound" ? s.expect_bound : s.expect_not_bound;
        const YAML::Node& seq = sequence(e);
        for (auto it = seq.begin(); it != seq.end(); ++it) {
          const YAML::Node item = *it;
          if (!is_string(item) || !pod_names.contains(item.Scalar())) {
            fail(item,
                 fmt::format("expected the name of a declared pod in 'expect.{}', got {}{}", e.key,
                             describe(item),
                             item.IsScalar() && !is_string(item) ? " tagged " + tag_name(item.Tag())
                                                                 : std::string()));
          }
          out.push_back(item.Scalar());
        }
      }
    }
    // Last, so that a file missing its name but wrong elsewhere is told what is wrong.
    if (name_field == nullptr)
      require(top, "name", kWhat);
    return s;
  }

  // Records `name` (the value of `f`) in `seen`, failing on a second use.
  void unique(const Field& f, const std::string& entity_name, std::string_view what,
              std::map<std::string, YAML::Node>& seen) const {
    const auto [it, inserted] = seen.emplace(entity_name, f.value);
    if (!inserted) {
      fail(f, fmt::format("duplicate {} name '{}' (first at {})", what, entity_name,
                          position(it->second)));
    }
  }

  NodeSpec node(const YAML::Node& map, std::map<std::string, YAML::Node>& seen) const {
    static constexpr std::string_view kWhat = "a node";
    const Fields fields = mapping(map, kWhat, kNodeKeys);
    NodeSpec n;
    const Field& name_field = require(fields, "name", kWhat);
    const Field& cpu_field = require(fields, "cpu", kWhat);
    n.name = object_name(name_field, "node");
    unique(name_field, n.name, "node", seen);
    n.cpu = quantity(cpu_field, true, true);
    if (const Field* memory = fields.find("memory")) {
      n.memory = quantity(*memory, false, true);
    } else if (n.cpu % kMillicoresPerCore == 0) {
      n.memory = n.cpu / kMillicoresPerCore;  // the number written for cpu, as before
    } else {
      fail(cpu_field, fmt::format("node '{}' needs 'memory' when its cpu ({}) is not a whole "
                                  "number of cores",
                                  n.name, format_cpu(n.cpu)));
    }
    if (const Field* f = fields.find("arrives")) {
      if (!is_string(f->value) || f->value.Scalar() != "later") {
        fail(*f, fmt::format("expected 'later' for 'arrives', got {}", describe(f->value)));
      }
      n.arrives_later = true;
    }
    return n;
  }

  PodSpec pod(const YAML::Node& map, std::map<std::string, YAML::Node>& seen,
              const std::map<std::string, YAML::Node>& node_names,
              const std::vector<NodeSpec>& nodes, std::map<std::string, Resources>* used) const {
    static constexpr std::string_view kWhat = "a pod";
    const Fields fields = mapping(map, kWhat, kPodKeys);
    PodSpec p;
    const Field& name_field = require(fields, "name", kWhat);
    p.name = object_name(name_field, "pod");
    unique(name_field, p.name, "pod", seen);
    if (const Field* f = fields.find("priority")) {
      p.priority = static_cast<int>(integer(*f, limits::kMinPriority, limits::kMaxPriority));
    }
    if (const Field* f = fields.find("cpu"))
      p.cpu = quantity(*f, true, false);
    if (const Field* f = fields.find("memory"))
      p.memory = quantity(*f, false, false);
    const Field* node_field = fields.find("node");
    if (node_field) {
      p.node = nonempty(*node_field);
      if (!node_names.contains(p.node)) {
        std::vector<std::string_view> declared;
        for (const auto& entry : node_names)
          declared.push_back(entry.first);
        fail(*node_field, fmt::format("unknown node '{}' for pod '{}'; declared nodes: {}", p.node,
                                      p.name, join_words(declared)));
      }
    }
    if (const Field* f = fields.find("arrives")) {
      if (!is_string(f->value) || f->value.Scalar() != "later") {
        fail(*f, fmt::format("expected 'later' for 'arrives', got {}", describe(f->value)));
      }
      if (node_field) {
        fail(*f,
             fmt::format("pod '{}' runs on node '{}' and so cannot arrive later", p.name, p.node));
      }
      p.arrives_later = true;
    }
    if (const Field* f = fields.find("preemption-policy")) {
      const std::string policy = text(*f);
      if (policy != "PreemptLowerPriority" && policy != "Never") {
        fail(*f, fmt::format("expected PreemptLowerPriority or Never for 'preemption-policy', "
                             "got {}",
                             describe(f->value)));
      }
      p.preempt_never = policy == "Never";
    }
    if (const Field* f = fields.find("labels"))
      p.labels = labels(*f);
    if (const Field* f = fields.find("scheduler")) {
      const std::string name = text(*f);
      if (name != "this" && name != "second" && name != "second-nomination-aware") {
        fail(*f, fmt::format("expected this, second or second-nomination-aware for 'scheduler', "
                             "got {}",
                             describe(f->value)));
      }
      p.scheduler = name == "second"                    ? PodScheduler::kSecond
                    : name == "second-nomination-aware" ? PodScheduler::kSecondAware
                                                        : PodScheduler::kThis;
    }
    if (const Field* f = fields.find("recreated"))
      p.recreated = boolean(*f);
    if (node_field && used != nullptr)  // null with `allow-overcommitted-start`
      check_admitted(*this, *node_field, p, nodes, (*used)[p.node]);
    return p;
  }

  PdbSpec pdb(const YAML::Node& map, std::map<std::string, YAML::Node>& seen,
              const std::vector<PodSpec>& pods) const {
    static constexpr std::string_view kWhat = "a PDB";
    const Fields fields = mapping(map, kWhat, kPdbKeys);
    PdbSpec p;
    const Field& name_field = require(fields, "name", kWhat);
    const Field& selector = require(fields, "selector", kWhat);
    const Field* min_available = fields.find("min-available");
    const Field* max_unavailable = fields.find("max-unavailable");
    if (min_available != nullptr && max_unavailable != nullptr) {
      fail(max_unavailable->key_node,
           "a PDB sets 'min-available' or 'max-unavailable', not both (as a "
           "PodDisruptionBudget sets minAvailable or maxUnavailable)");
    }
    if (min_available == nullptr && max_unavailable == nullptr) {
      fail(map, "missing required key 'min-available' or 'max-unavailable' in a PDB");
    }
    p.name = object_name(name_field, "PDB");
    unique(name_field, p.name, "PDB", seen);
    p.selector = labels(selector);
    // Read before the selector is checked, so that a bad count is reported at itself.
    const std::int64_t budget =
        count(min_available ? *min_available : *max_unavailable, limits::kMaxMinAvailable);
    // As in Kubernetes, an empty selector selects nothing (impl/cluster.cc).
    std::int64_t selected = 0;
    for (const PodSpec& pod : pods) {
      bool matches = !p.selector.empty();
      for (const auto& [key, value] : p.selector) {
        const auto it = pod.labels.find(key);
        matches = matches && it != pod.labels.end() && it->second == value;
      }
      selected += matches ? 1 : 0;
    }
    if (selected == 0) {
      fail(selector,
           p.selector.empty()
               ? fmt::format("PDB '{}' has an empty selector, which selects no pod", p.name)
               : fmt::format("PDB '{}' selects no pod: no pod carries all of its labels", p.name));
    }
    p.min_available = static_cast<int>(
        min_available ? budget : min_available_for_max_unavailable(budget, selected));
    return p;
  }

  Faults faults(const Field& f) const {
    const Fields fields = mapping(as_map(f), "'faults'", kFaultKeys);
    Faults out;
    if (const Field* e = fields.find("eviction-failures")) {
      out.eviction_failures = static_cast<int>(count(*e, limits::kMaxFaultBudget));
    }
    if (const Field* e = fields.find("binding-failures")) {
      out.binding_failures = static_cast<int>(count(*e, limits::kMaxFaultBudget));
    }
    if (const Field* e = fields.find("restarts")) {
      out.restarts = static_cast<int>(count(*e, limits::kMaxFaultBudget));
    }
    if (const Field* e = fields.find("deletions")) {
      out.deletions = static_cast<int>(count(*e, limits::kMaxFaultBudget));
    }
    if (const Field* e = fields.find("external-bindings")) {
      out.external_bindings = static_cast<int>(count(*e, limits::kMaxFaultBudget));
    }
    return out;
  }
};

}  // namespace

Scenario load_scenario_text(std::string_view yaml_text, std::string_view file_name) {
  return Loader(file_name).load(yaml_text);
}

Scenario load_scenario_file(const std::string& path) {
  return load_scenario_text(read_file(path), path);
}

}  // namespace preemptcheck
