// Scenario files: a strict reader over yaml-cpp's node tree that reports every problem at
// its line and column, and a writer of the canonical layout.
#include "cli/scenario_yaml.h"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

namespace preemptcheck {
namespace {

// ---------------------------------------------------------------------------------------
// Reading

// Top-level and per-entity keys, in the order they are listed in messages and written.
constexpr std::array kTopKeys = {"name",    "description", "nodes",      "pods",  "pdbs",
                                 "faults",  "executor",    "profile",    "mechanisms",
                                 "expect"};
constexpr std::array kExpectKeys = {"bound", "not-bound"};
constexpr std::array kNodeKeys = {"name", "cpu", "memory"};
constexpr std::array kPodKeys = {"name",    "priority",          "cpu",   "memory", "node",
                                 "arrives", "preemption-policy", "labels"};
constexpr std::array kPdbKeys = {"name", "selector", "min-available"};
constexpr std::array kFaultKeys = {"eviction-failures", "binding-failures", "restarts"};
constexpr std::array kExecutorKeys = {"workers"};

// Longest scalar quoted verbatim in a message.
constexpr std::size_t kMaxQuoted = 40;

// One `key: value` entry of a mapping whose keys are scalars.
struct Field {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

// A mapping's entries, checked for unknown and duplicate keys.
struct Fields {
  YAML::Node map;
  std::vector<Field> entries;

  const Field* find(std::string_view key) const {
    for (const Field& f : entries) {
      if (f.key == key) return &f;
    }
    return nullptr;
  }
};

template <std::size_t N>
std::string join(const std::array<const char*, N>& words) {
  std::string out;
  for (const char* w : words) {
    if (!out.empty()) out += ", ";
    out += w;
  }
  return out;
}

std::string join(const std::vector<std::string_view>& words) {
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty()) out += ", ";
    out += w;
  }
  return out;
}

// How a node that was not what we expected looks, for "…, got X".
std::string describe_node(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Scalar: {
      const std::string& s = n.Scalar();
      if (s.size() <= kMaxQuoted) return fmt::format("'{}'", s);
      return fmt::format("'{}...'", s.substr(0, kMaxQuoted));
    }
    case YAML::NodeType::Sequence:
      return "a sequence";
    case YAML::NodeType::Map:
      return "a mapping";
    default:
      return "null";
  }
}

// Ignores every parse event but remembers where the latest document started.
class DocumentStarts : public YAML::EventHandler {
 public:
  YAML::Mark last;

  void OnDocumentStart(const YAML::Mark& mark) override { last = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Where a second document in `text` starts, if there is one. Parses at most two documents,
// so it cannot loop; may throw YAML::Exception for a malformed second document.
std::optional<YAML::Mark> second_document(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  if (!parser.HandleNextDocument(starts)) return std::nullopt;
  if (!parser.HandleNextDocument(starts)) return std::nullopt;
  return starts.last;
}

class Loader {
 public:
  explicit Loader(std::string_view file) : file_(file) {}

  Scenario load(std::string_view text) const {
    const std::string input(text);
    try {
      // Not YAML::LoadAll: it loops forever, allocating, on a stray ',' outside a flow
      // collection (yaml-cpp issue 1040). Load reads one document; a second is found apart.
      const YAML::Node root = YAML::Load(input);
      if (root.IsNull()) fail_at(1, 1, "expected a mapping at the top level");
      if (!root.IsMap()) {
        fail(root, fmt::format("expected a mapping at the top level, got {}", describe_node(root)));
      }
      if (const auto second = second_document(input)) {
        fail(*second, "expected a single YAML document");
      }
      return scenario(root);
    } catch (const YAML::DeepRecursion& e) {
      fail(e.mark, "invalid YAML: nesting too deep");  // its own msg says "bad file"
    } catch (const YAML::Exception& e) {
      fail(e.mark, fmt::format("invalid YAML: {}", e.msg));
    }
  }

 private:
  [[noreturn]] void fail_at(int line, int column, std::string message) const {
    throw ScenarioError(file_, line, column, std::move(message));
  }

  [[noreturn]] void fail(const YAML::Mark& mark, std::string message) const {
    if (mark.is_null()) fail_at(0, 0, std::move(message));
    fail_at(mark.line + 1, mark.column + 1, std::move(message));
  }

  [[noreturn]] void fail(const YAML::Node& at, std::string message) const {
    fail(at.Mark(), std::move(message));
  }

  // An empty value (`cpu:`) carries the position of whatever follows it, so problems with
  // a null value are reported at its key.
  [[noreturn]] void fail(const Field& at, std::string message) const {
    fail(at.value.IsNull() ? at.key_node : at.value, std::move(message));
  }

  static std::string position(const YAML::Node& n) {
    const YAML::Mark m = n.Mark();
    return fmt::format("line {}, column {}", m.line + 1, m.column + 1);
  }

  // The entries of `map`, whose keys must be distinct scalars.
  Fields entries(const YAML::Node& map) const {
    Fields out{map, {}};
    std::map<std::string, YAML::Node> seen;  // not Fields::find: maps may be large
    for (auto it = map.begin(); it != map.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar()) {
        fail(key, fmt::format("expected a string key, got {}", describe_node(key)));
      }
      const auto [first, inserted] = seen.emplace(key.Scalar(), key);
      if (!inserted) {
        fail(key, fmt::format("duplicate key '{}' (first at {})", key.Scalar(),
                              position(first->second)));
      }
      out.entries.push_back(Field{key.Scalar(), key, it->second});
    }
    return out;
  }

  // The entries of mapping `node`, whose keys must be among `allowed`; `what` names the
  // mapping in messages.
  template <std::size_t N>
  Fields mapping(const YAML::Node& node, std::string_view what,
                 const std::array<const char*, N>& allowed) const {
    Fields out = entries(node);
    for (const Field& f : out.entries) {
      bool known = false;
      for (const char* k : allowed) known = known || f.key == k;
      if (!known) {
        fail(f.key_node, fmt::format("unknown key '{}' in {}; expected one of: {}", f.key, what,
                                     join(allowed)));
      }
    }
    return out;
  }

  const Field& require(const Fields& fields, std::string_view key, std::string_view what) const {
    const Field* f = fields.find(key);
    if (f == nullptr) fail(fields.map, fmt::format("missing required key '{}' in {}", key, what));
    return *f;
  }

  std::string text(const Field& f) const {
    if (!f.value.IsScalar()) {
      fail(f, fmt::format("expected a string for '{}', got {}", f.key, describe_node(f.value)));
    }
    return f.value.Scalar();
  }

  std::string name(const Field& f) const {
    std::string s = text(f);
    if (s.empty()) fail(f, fmt::format("expected a non-empty string for '{}'", f.key));
    return s;
  }

  // A plain decimal integer in int range: [-+]?[0-9]+. Quoted scalars are strings.
  int integer(const Field& f) const {
    const YAML::Node& v = f.value;
    if (!v.IsScalar() || v.Tag() == "!") {
      const std::string got =
          v.IsScalar() ? fmt::format("the quoted string '{}'", v.Scalar()) : describe_node(v);
      fail(f, fmt::format("expected an integer for '{}', got {}", f.key, got));
    }
    const std::string& s = v.Scalar();
    const std::size_t sign = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    bool digits = s.size() > sign;
    for (std::size_t i = sign; i < s.size(); ++i) digits = digits && s[i] >= '0' && s[i] <= '9';
    if (!digits) {
      fail(f, fmt::format("expected an integer for '{}', got {}", f.key, describe_node(v)));
    }
    // from_chars takes a leading '-' but not '+'.
    const char* begin = s.data() + (s[0] == '+' ? 1 : 0);
    const char* end = s.data() + s.size();
    int value = 0;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end) {
      fail(f, fmt::format("integer out of range for '{}': {}", f.key, describe_node(v)));
    }
    return value;
  }

  int positive(const Field& f) const {
    const int v = integer(f);
    if (v <= 0) fail(f, fmt::format("expected a positive integer for '{}', got {}", f.key, v));
    return v;
  }

  int non_negative(const Field& f) const {
    const int v = integer(f);
    if (v < 0) fail(f, fmt::format("expected a non-negative integer for '{}', got {}", f.key, v));
    return v;
  }

  const YAML::Node& sequence(const Field& f) const {
    if (!f.value.IsSequence()) {
      fail(f, fmt::format("expected a sequence for '{}', got {}", f.key, describe_node(f.value)));
    }
    return f.value;
  }

  // A mapping of strings to strings (labels, selectors).
  std::map<std::string, std::string> string_map(const Field& f) const {
    if (!f.value.IsMap()) {
      fail(f, fmt::format("expected a mapping of strings for '{}', got {}", f.key,
                          describe_node(f.value)));
    }
    std::map<std::string, std::string> out;
    for (const Field& e : entries(f.value).entries) out[e.key] = text(e);
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
                            describe_node(e)));
      }
      out.push_back(e);
    }
    return out;
  }

  Scenario scenario(const YAML::Node& root) const {
    static constexpr std::string_view kWhat = "the scenario";
    const Fields top = mapping(root, kWhat, kTopKeys);
    Scenario s;
    s.name = name(require(top, "name", kWhat));
    s.description = text(require(top, "description", kWhat));
    const Field& nodes = require(top, "nodes", kWhat);
    const Field& pods = require(top, "pods", kWhat);

    std::map<std::string, YAML::Node> node_names;
    for (const YAML::Node& n : elements(nodes, "node", kMaxNodes)) {
      s.nodes.push_back(node(n, node_names));
    }
    if (s.nodes.empty()) fail(nodes, "expected at least one node in 'nodes'");

    std::map<std::string, YAML::Node> pod_names;
    for (const YAML::Node& p : elements(pods, "pod", kMaxPods)) {
      s.pods.push_back(pod(p, pod_names, node_names));
    }

    if (const Field* pdbs = top.find("pdbs")) {
      std::map<std::string, YAML::Node> pdb_names;
      const YAML::Node& seq = sequence(*pdbs);
      for (auto it = seq.begin(); it != seq.end(); ++it) {
        const YAML::Node e = *it;
        if (!e.IsMap()) {
          fail(e,
               fmt::format("expected a mapping for each PDB in 'pdbs', got {}", describe_node(e)));
        }
        s.pdbs.push_back(pdb(e, pdb_names));
      }
    }

    if (const Field* f = top.find("faults")) s.faults = faults(*f);

    if (const Field* f = top.find("executor")) {
      if (!f->value.IsMap()) {
        fail(*f, fmt::format("expected a mapping for 'executor', got {}", describe_node(f->value)));
      }
      const Fields executor = mapping(f->value, "'executor'", kExecutorKeys);
      if (const Field* w = executor.find("workers")) s.workers = non_negative(*w);
    }

    if (const Field* f = top.find("profile")) {
      s.profile = text(*f);
      if (!profile(s.profile)) {
        fail(*f, fmt::format("unknown profile '{}'; expected one of: {}", s.profile,
                             join(profile_names())));
      }
    }
    s.mechanisms = *profile(s.profile);

    if (const Field* f = top.find("mechanisms")) {
      if (!f->value.IsMap()) {
        fail(*f,
             fmt::format("expected a mapping for 'mechanisms', got {}", describe_node(f->value)));
      }
      for (const Field& m : entries(f->value).entries) {
        if (mechanism_values(m.key).empty()) {  // an unknown name, whatever its value
          fail(m.key_node, set_mechanism(s.mechanisms, m.key, "").value_or(""));
        }
        if (auto error = set_mechanism(s.mechanisms, m.key, text(m))) fail(m, std::move(*error));
      }
    }

    if (const Field* f = top.find("expect")) {
      if (!f->value.IsMap()) {
        fail(*f, fmt::format("expected a mapping for 'expect', got {}", describe_node(f->value)));
      }
      const Fields expect = mapping(f->value, "'expect'", kExpectKeys);
      for (const Field& e : expect.entries) {
        auto& out = e.key == "bound" ? s.expect_bound : s.expect_not_bound;
        const YAML::Node& seq = sequence(e);
        for (auto it = seq.begin(); it != seq.end(); ++it) {
          const YAML::Node item = *it;
          if (!item.IsScalar() || !pod_names.contains(item.Scalar())) {
            fail(item, fmt::format("expected the name of a declared pod in 'expect.{}', got {}",
                                   e.key, describe_node(item)));
          }
          out.push_back(item.Scalar());
        }
      }
    }
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
    n.name = name(name_field);
    unique(name_field, n.name, "node", seen);
    n.cpu = positive(cpu_field);
    const Field* memory = fields.find("memory");
    n.memory = memory ? positive(*memory) : n.cpu;
    return n;
  }

  PodSpec pod(const YAML::Node& map, std::map<std::string, YAML::Node>& seen,
              const std::map<std::string, YAML::Node>& nodes) const {
    static constexpr std::string_view kWhat = "a pod";
    const Fields fields = mapping(map, kWhat, kPodKeys);
    PodSpec p;
    const Field& name_field = require(fields, "name", kWhat);
    p.name = name(name_field);
    unique(name_field, p.name, "pod", seen);
    if (const Field* f = fields.find("priority")) p.priority = integer(*f);
    if (const Field* f = fields.find("cpu")) p.cpu = non_negative(*f);
    if (const Field* f = fields.find("memory")) p.memory = non_negative(*f);
    const Field* node_field = fields.find("node");
    if (node_field) {
      p.node = name(*node_field);
      if (!nodes.contains(p.node)) {
        std::vector<std::string_view> declared;
        for (const auto& entry : nodes) declared.push_back(entry.first);
        fail(*node_field, fmt::format("unknown node '{}' for pod '{}'; declared nodes: {}", p.node,
                                      p.name, join(declared)));
      }
    }
    if (const Field* f = fields.find("arrives")) {
      if (!f->value.IsScalar() || f->value.Scalar() != "later") {
        fail(*f, fmt::format("expected 'later' for 'arrives', got {}", describe_node(f->value)));
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
                             describe_node(f->value)));
      }
      p.preempt_never = policy == "Never";
    }
    if (const Field* f = fields.find("labels")) p.labels = string_map(*f);
    return p;
  }

  PdbSpec pdb(const YAML::Node& map, std::map<std::string, YAML::Node>& seen) const {
    static constexpr std::string_view kWhat = "a PDB";
    const Fields fields = mapping(map, kWhat, kPdbKeys);
    PdbSpec p;
    const Field& name_field = require(fields, "name", kWhat);
    const Field& selector = require(fields, "selector", kWhat);
    const Field& min_available = require(fields, "min-available", kWhat);
    p.name = name(name_field);
    unique(name_field, p.name, "PDB", seen);
    p.selector = string_map(selector);
    p.min_available = non_negative(min_available);
    return p;
  }

  Faults faults(const Field& f) const {
    if (!f.value.IsMap()) {
      fail(f, fmt::format("expected a mapping for 'faults', got {}", describe_node(f.value)));
    }
    const Fields fields = mapping(f.value, "'faults'", kFaultKeys);
    Faults out;
    if (const Field* e = fields.find("eviction-failures")) out.eviction_failures = non_negative(*e);
    if (const Field* e = fields.find("binding-failures")) out.binding_failures = non_negative(*e);
    if (const Field* e = fields.find("restarts")) {
      out.restarts = non_negative(*e);
      if (out.restarts > 0) fail(*e, "restart faults are not supported yet");
    }
    return out;
  }

  std::string file_;
};

// ---------------------------------------------------------------------------------------
// Writing

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Whether `s` reads back as the same string when written as a plain scalar, in block and
// in flow context alike. Deliberately conservative: anything doubtful is quoted.
bool plain_safe(std::string_view s) {
  if (s.empty() || !is_alnum(s.front()) || s.back() == ' ') return false;
  if (s == "null" || s == "Null" || s == "NULL") return false;
  for (char c : s) {
    if (!is_alnum(c) && std::string_view(" -_./'()+=@").find(c) == std::string_view::npos) {
      return false;
    }
  }
  return true;
}

std::string scalar(std::string_view s) {
  if (plain_safe(s)) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

// "{k: v, k: v}" from already-formatted entries.
std::string flow_entries(const std::vector<std::string>& entries) {
  std::string out = "{";
  for (const std::string& e : entries) {
    if (out.size() > 1) out += ", ";
    out += e;
  }
  out += '}';
  return out;
}

std::string flow_map(const std::map<std::string, std::string>& m) {
  std::vector<std::string> entries;
  for (const auto& [k, v] : m) entries.push_back(fmt::format("{}: {}", scalar(k), scalar(v)));
  return flow_entries(entries);
}

// "key:\n  - item\n" for each item, or "key: []\n".
void block_sequence(std::string& out, std::string_view key, const std::vector<std::string>& items) {
  if (items.empty()) {
    out += fmt::format("{}: []\n", key);
    return;
  }
  out += fmt::format("{}:\n", key);
  for (const std::string& item : items) out += fmt::format("  - {}\n", item);
}

}  // namespace

ScenarioError::ScenarioError(std::string file_name, int line_number, int column_number,
                             std::string text)
    : std::runtime_error(
          line_number > 0 ? fmt::format("{}:{}:{}: {}", file_name, line_number, column_number, text)
                          : fmt::format("{}: {}", file_name, text)),
      file(std::move(file_name)),
      line(line_number),
      column(column_number),
      message(std::move(text)) {}

Scenario load_scenario_text(std::string_view yaml_text, std::string_view file_name) {
  return Loader(file_name).load(yaml_text);
}

Scenario load_scenario_file(const std::string& path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  // A directory opens but reads as empty.
  if (!in || std::filesystem::is_directory(path, ec)) {
    throw ScenarioError(path, 0, 0, "cannot read file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path, 0, 0, "cannot read file");
  return load_scenario_text(text.str(), path);
}

std::string scenario_to_yaml(const Scenario& s) {
  std::string out;
  out += fmt::format("name: {}\n", scalar(s.name));
  out += fmt::format("description: {}\n", scalar(s.description));

  std::vector<std::string> items;
  for (const NodeSpec& n : s.nodes) {
    items.push_back(
        flow_entries({fmt::format("name: {}", scalar(n.name)), fmt::format("cpu: {}", n.cpu),
                      fmt::format("memory: {}", n.memory)}));
  }
  block_sequence(out, "nodes", items);

  items.clear();
  for (const PodSpec& p : s.pods) {
    std::vector<std::string> e = {fmt::format("name: {}", scalar(p.name)),
                                  fmt::format("priority: {}", p.priority),
                                  fmt::format("cpu: {}", p.cpu)};
    if (p.memory != 0) e.push_back(fmt::format("memory: {}", p.memory));
    if (!p.node.empty()) e.push_back(fmt::format("node: {}", scalar(p.node)));
    if (p.arrives_later) e.push_back("arrives: later");
    if (p.preempt_never) e.push_back("preemption-policy: Never");
    if (!p.labels.empty()) e.push_back(fmt::format("labels: {}", flow_map(p.labels)));
    items.push_back(flow_entries(e));
  }
  block_sequence(out, "pods", items);

  items.clear();
  for (const PdbSpec& p : s.pdbs) {
    items.push_back(flow_entries({fmt::format("name: {}", scalar(p.name)),
                                  fmt::format("selector: {}", flow_map(p.selector)),
                                  fmt::format("min-available: {}", p.min_available)}));
  }
  block_sequence(out, "pdbs", items);

  out += fmt::format("faults: {{eviction-failures: {}, binding-failures: {}, restarts: {}}}\n",
                     s.faults.eviction_failures, s.faults.binding_failures, s.faults.restarts);
  out += fmt::format("executor: {{workers: {}}}\n", s.workers);
  out += fmt::format("profile: {}\n", scalar(s.profile));

  const Mechanisms base = profile(s.profile).value_or(Mechanisms{});
  std::vector<std::string> entries;
  for (std::string_view m : mechanism_names()) {
    const std::string value = mechanism_value(s.mechanisms, m);
    if (value != mechanism_value(base, m)) entries.push_back(fmt::format("{}: {}", m, value));
  }
  out += fmt::format("mechanisms: {}\n", flow_entries(entries));
  if (!s.expect_bound.empty() || !s.expect_not_bound.empty()) {
    auto names = [](const std::vector<std::string>& v) {
      std::string list;
      for (const std::string& n : v) list += (list.empty() ? "" : ", ") + scalar(n);
      return "[" + list + "]";
    };
    out += fmt::format("expect: {{bound: {}, not-bound: {}}}\n", names(s.expect_bound),
                       names(s.expect_not_bound));
  }
  return out;
}

}  // namespace preemptcheck
