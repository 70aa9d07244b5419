// Counterexample files: written as text (yaml-cpp's emitter cannot write comments), read
// back strictly through yaml-cpp's node tree with every problem at its line and column.
#include "cli/counterexample.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "impl/cluster.h"
#include "impl/show.h"
#include "impl/world.h"

namespace preemptcheck::cli {
namespace {

// ---------------------------------------------------------------------------------------
// Writing

// A double-quoted YAML scalar.
std::string yaml_quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

// A comment must stay on its line.
std::string one_line(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '\n', ' ');
  std::replace(out.begin(), out.end(), '\r', ' ');
  return out;
}

// A word of a file name: letters, digits, '.', '_' and '-' are kept, the rest become '-'.
std::string file_word(std::string_view s) {
  std::string out;
  for (const char c : s) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += keep ? c : '-';
  }
  return out.empty() ? "unnamed" : out;
}

// The scenario as canonical YAML, without its `profile` and `mechanisms` (the file states
// them at the top level, every switch), indented under `scenario:`.
std::string scenario_block(const Scenario& scenario) {
  std::istringstream in(scenario_to_yaml(scenario));
  std::string out;
  std::string line;
  bool skipping = false;
  while (std::getline(in, line)) {
    const bool top_level = !line.empty() && line[0] != ' ' && line[0] != '#';
    if (top_level) {
      skipping = line.starts_with("profile:") || line.starts_with("mechanisms:");
    }
    if (skipping) continue;
    out += line.empty() ? "\n" : fmt::format("  {}\n", line);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Reading

constexpr std::array kTopKeys = {"property", "message",    "also",       "found-by",
                                 "scenario", "profile",    "mechanisms", "steps"};
constexpr std::array kFoundByKeys = {"method", "shortest", "states", "depth", "properties",
                                     "seed",   "shrunk"};
constexpr std::array kStepKeys = {"action", "fingerprint"};
constexpr std::array kAlsoKeys = {"property", "message"};

template <std::size_t N>
std::string join(const std::array<const char*, N>& words) {
  std::string out;
  for (const char* w : words) out += fmt::format("{}{}", out.empty() ? "" : ", ", w);
  return out;
}

std::string join(const std::vector<std::string_view>& words) {
  std::string out;
  for (std::string_view w : words) out += fmt::format("{}{}", out.empty() ? "" : ", ", w);
  return out;
}

std::string describe_node(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Scalar:
      return n.Scalar().size() <= 40 ? fmt::format("'{}'", n.Scalar())
                                     : fmt::format("'{}...'", n.Scalar().substr(0, 40));
    case YAML::NodeType::Sequence:
      return "a sequence";
    case YAML::NodeType::Map:
      return "a mapping";
    default:
      return "nothing";
  }
}

std::string safety_property_names() {
  std::string out;
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (!d.is_witness) out += fmt::format("{}{}", out.empty() ? "" : ", ", d.name);
  }
  return out;
}

struct Entry {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

class Reader {
 public:
  Reader(std::string_view text, std::string_view file) : text_(text), file_(file) {}

  Counterexample read() const {
    try {
      const YAML::Node root = YAML::Load(text_);
      if (root.IsNull()) fail_at(1, 1, "expected a counterexample mapping at the top level");
      if (!root.IsMap() || root.Style() == YAML::EmitterStyle::Flow) {
        fail(root, fmt::format("expected a block mapping at the top level, one key per line, "
                               "got {}",
                               describe_node(root)));
      }
      check_single_document(root);
      return counterexample(root);
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
  [[noreturn]] void fail(const YAML::Node& n, std::string message) const {
    fail(n.Mark(), std::move(message));
  }
  // A null value carries the position of whatever follows it: report at its key.
  [[noreturn]] void fail(const Entry& e, std::string message) const {
    fail(e.value.IsNull() ? e.key_node : e.value, std::move(message));
  }

  // YAML::Load reads the first document only; a second one would be ignored silently.
  void check_single_document(const YAML::Node& root) const {
    const int first = root.Mark().line;
    std::istringstream in(text_);
    std::string line;
    for (int n = 0; std::getline(in, line); ++n) {
      if (n <= first) continue;
      if (line == "---" || line.starts_with("--- ") || line == "..." ||
          line.starts_with("... ")) {
        fail_at(n + 1, 1, "expected a single YAML document");
      }
    }
  }

  template <std::size_t N>
  std::vector<Entry> mapping(const YAML::Node& map, std::string_view what,
                             const std::array<const char*, N>& allowed) const {
    std::vector<Entry> out;
    for (auto it = map.begin(); it != map.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar()) {
        fail(key, fmt::format("expected a string key in {}, got {}", what, describe_node(key)));
      }
      const bool known = std::any_of(allowed.begin(), allowed.end(),
                                     [&](const char* k) { return key.Scalar() == k; });
      if (!known) {
        fail(key, fmt::format("unknown key '{}' in {}; expected one of: {}", key.Scalar(), what,
                              join(allowed)));
      }
      for (const Entry& e : out) {
        if (e.key == key.Scalar()) {
          fail(key, fmt::format("duplicate key '{}' in {} (first at line {})", e.key, what,
                                e.key_node.Mark().line + 1));
        }
      }
      out.push_back({key.Scalar(), key, it->second});
    }
    return out;
  }

  static const Entry* find(const std::vector<Entry>& entries, std::string_view key) {
    for (const Entry& e : entries) {
      if (e.key == key) return &e;
    }
    return nullptr;
  }

  const Entry& require(const std::vector<Entry>& entries, const YAML::Node& map,
                       std::string_view key, std::string_view what) const {
    const Entry* e = find(entries, key);
    if (e == nullptr) fail(map, fmt::format("missing required key '{}' in {}", key, what));
    return *e;
  }

  std::string text(const Entry& e) const {
    if (!e.value.IsScalar()) {
      fail(e, fmt::format("expected a string for '{}', got {}", e.key, describe_node(e.value)));
    }
    return e.value.Scalar();
  }

  template <class T>
  T number(const Entry& e) const {
    const std::string s = text(e);
    T value{};
    try {
      value = e.value.as<T>();
    } catch (const YAML::Exception&) {
      fail(e, fmt::format("expected a non-negative integer for '{}', got '{}'", e.key, s));
    }
    if (s.empty() || s[0] == '-') {
      fail(e, fmt::format("expected a non-negative integer for '{}', got '{}'", e.key, s));
    }
    return value;
  }

  bool boolean(const Entry& e) const {
    const std::string s = text(e);
    if (s == "true") return true;
    if (s == "false") return false;
    fail(e, fmt::format("expected true or false for '{}', got '{}'", e.key, s));
  }

  std::string safety_property(const YAML::Node& at, const std::string& name) const {
    const auto p = spec::find_property(name);
    if (!p || spec::property_def(*p).is_witness) {
      fail(at, fmt::format("unknown property '{}'; expected one of: {}", name,
                           safety_property_names()));
    }
    return name;
  }

  Counterexample counterexample(const YAML::Node& root) const {
    static constexpr std::string_view kWhat = "the counterexample";
    const std::vector<Entry> top = mapping(root, kWhat, kTopKeys);
    Counterexample cx;

    const Entry& property = require(top, root, "property", kWhat);
    cx.property = safety_property(property.value.IsNull() ? property.key_node : property.value,
                                  text(property));
    cx.message = text(require(top, root, "message", kWhat));
    if (const Entry* also = find(top, "also")) read_also(*also, cx);
    read_found_by(require(top, root, "found-by", kWhat), cx.found_by);

    const Entry& scenario = require(top, root, "scenario", kWhat);
    const Entry& profile_entry = require(top, root, "profile", kWhat);
    const Entry& mechanisms = require(top, root, "mechanisms", kWhat);
    const Entry& steps = require(top, root, "steps", kWhat);

    cx.scenario = read_scenario(scenario, top);
    cx.scenario.profile = text(profile_entry);
    const auto base = profile(cx.scenario.profile);
    if (!base) {
      fail(profile_entry, fmt::format("unknown profile '{}'; expected one of: {}",
                                      cx.scenario.profile, join(profile_names())));
    }
    cx.scenario.mechanisms = *base;
    if (!mechanisms.value.IsMap()) {
      fail(mechanisms, fmt::format("expected a mapping of switches for 'mechanisms', got {}",
                                   describe_node(mechanisms.value)));
    }
    for (auto it = mechanisms.value.begin(); it != mechanisms.value.end(); ++it) {
      const YAML::Node key = it->first;
      const YAML::Node value = it->second;
      if (!key.IsScalar() || mechanism_values(key.Scalar()).empty()) {
        fail(key, fmt::format("unknown mechanism {}; expected one of: {}", describe_node(key),
                              join(mechanism_names())));
      }
      if (!value.IsScalar()) {
        fail(value.IsNull() ? key : value,
             fmt::format("expected a value for mechanism '{}': one of {}", key.Scalar(),
                         join(mechanism_values(key.Scalar()))));
      }
      if (auto error = set_mechanism(cx.scenario.mechanisms, key.Scalar(), value.Scalar())) {
        fail(value, *error);
      }
    }
    read_steps(steps, cx);
    return cx;
  }

  void read_also(const Entry& also, Counterexample& cx) const {
    if (!also.value.IsSequence()) {
      fail(also, fmt::format("expected a sequence for 'also', got {}", describe_node(also.value)));
    }
    for (auto it = also.value.begin(); it != also.value.end(); ++it) {
      const YAML::Node e = *it;
      if (!e.IsMap()) {
        fail(e, fmt::format("expected {{property: NAME, message: TEXT}} in 'also', got {}",
                            describe_node(e)));
      }
      const std::vector<Entry> fields = mapping(e, "an 'also' entry", kAlsoKeys);
      const Entry& p = require(fields, e, "property", "an 'also' entry");
      checker::PropertyMessage m;
      m.name = safety_property(p.value.IsNull() ? p.key_node : p.value, text(p));
      m.message = text(require(fields, e, "message", "an 'also' entry"));
      cx.also.push_back(std::move(m));
    }
  }

  void read_found_by(const Entry& entry, FoundBy& out) const {
    if (!entry.value.IsMap()) {
      fail(entry, fmt::format("expected a mapping for 'found-by', got {}",
                              describe_node(entry.value)));
    }
    const std::vector<Entry> fields = mapping(entry.value, "'found-by'", kFoundByKeys);
    out.method = text(require(fields, entry.value, "method", "'found-by'"));
    if (const Entry* e = find(fields, "shortest")) out.shortest = boolean(*e);
    if (const Entry* e = find(fields, "states")) out.states = number<std::uint64_t>(*e);
    if (const Entry* e = find(fields, "depth")) out.depth = number<std::uint32_t>(*e);
    if (const Entry* e = find(fields, "seed")) out.seed = number<std::uint64_t>(*e);
    if (const Entry* e = find(fields, "shrunk")) out.shrunk = text(*e);
    if (const Entry* e = find(fields, "properties")) {
      if (!e->value.IsSequence()) {
        fail(*e, fmt::format("expected a sequence of property names for 'properties', got {}",
                             describe_node(e->value)));
      }
      for (auto it = e->value.begin(); it != e->value.end(); ++it) {
        const YAML::Node p = *it;
        if (!p.IsScalar()) {
          fail(p, fmt::format("expected a property name, got {}", describe_node(p)));
        }
        out.properties.push_back(safety_property(p, p.Scalar()));
      }
    }
  }

  // The inline scenario goes through the scenario loader itself. It reads a copy of this
  // file in which every line outside the scenario's value is blank (lines before it) or
  // dropped (lines after it), and the text before the value on its first line is spaces:
  // the loader's lines and columns are then this file's.
  Scenario read_scenario(const Entry& entry, const std::vector<Entry>& top) const {
    if (!entry.value.IsMap()) {
      fail(entry, fmt::format("expected a mapping (the scenario) for 'scenario', got {}",
                              describe_node(entry.value)));
    }
    const YAML::Mark start = entry.value.Mark();
    int end = -1;  // the first line after the scenario: the next top-level key's
    for (const Entry& e : top) {
      const int line = e.key_node.Mark().line;
      if (line > start.line && (end < 0 || line < end)) end = line;
    }
    std::istringstream in(text_);
    std::string sub;
    std::string line;
    for (int n = 0; std::getline(in, line) && (end < 0 || n < end); ++n) {
      if (n < start.line) {
        sub += '\n';
        continue;
      }
      if (n == start.line) {
        const auto prefix = std::min<std::size_t>(static_cast<std::size_t>(start.column),
                                                  line.size());
        line.replace(0, prefix, prefix, ' ');
      }
      sub += line;
      sub += '\n';
    }
    return load_scenario_text(sub, file_);
  }

  std::uint64_t fingerprint(const Entry& e) const {
    const std::string s = text(e);
    constexpr std::string_view kExpected = "expected a fingerprint like \"0x0123456789abcdef\"";
    bool ok = s.size() == 18 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    std::uint64_t value = 0;
    for (std::size_t i = 2; ok && i < s.size(); ++i) {
      const char c = s[i];
      int digit = -1;
      if (c >= '0' && c <= '9') digit = c - '0';
      if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
      if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
      ok = digit >= 0;
      value = (value << 4) | static_cast<std::uint64_t>(digit < 0 ? 0 : digit);
    }
    if (!ok) fail(e, fmt::format("{}, got '{}'", kExpected, s));
    return value;
  }

  void read_steps(const Entry& entry, Counterexample& cx) const {
    if (!entry.value.IsSequence()) {
      fail(entry, fmt::format("expected a sequence of steps for 'steps', got {}",
                              describe_node(entry.value)));
    }
    const Cluster cluster(cx.scenario);
    std::string pods;
    for (const PodSpec& p : cx.scenario.pods) pods += fmt::format("{}{}", pods.empty() ? "" : ", ", p.name);
    int index = 0;
    for (auto it = entry.value.begin(); it != entry.value.end(); ++it) {
      ++index;
      const YAML::Node node = *it;
      CounterexampleStep step;
      YAML::Node action_node;
      if (node.IsScalar()) {
        action_node = node;
      } else if (node.IsMap()) {
        const std::string what = fmt::format("step {}", index);
        const std::vector<Entry> fields = mapping(node, what, kStepKeys);
        const Entry& action = require(fields, node, "action", what);
        text(action);
        action_node = action.value;
        if (const Entry* f = find(fields, "fingerprint")) step.fingerprint = fingerprint(*f);
      } else {
        fail(node, fmt::format("expected step {} as {{action: \"ACTION\", fingerprint: "
                               "\"0x…\"}} or as an action, got {}",
                               index, describe_node(node)));
      }
      step.text = action_node.Scalar();
      std::string error;
      const auto action = parse_action(step.text, cluster, &error);
      if (!action) {
        if (error.starts_with("unknown pod")) {
          error += fmt::format("; the scenario's pods are: {}", pods);
        }
        fail(action_node, fmt::format("step {}: {}", index, error));
      }
      step.action = *action;
      step.line = action_node.Mark().line + 1;
      step.column = action_node.Mark().column + 1;
      cx.steps.push_back(std::move(step));
    }
  }

  std::string text_;
  std::string file_;
};

}  // namespace

std::string format_fingerprint(std::uint64_t fingerprint) {
  return fmt::format("0x{:016x}", fingerprint);
}

Counterexample make_counterexample(const Scenario& scenario,
                                   const checker::Result<Action>& result,
                                   const std::bitset<spec::kPropertyCount>& checked,
                                   std::string command) {
  const auto& v = *result.violation;
  Counterexample cx;
  cx.property = v.name;
  cx.message = v.message;
  cx.also = v.also_violated;
  cx.found_by.states = result.stats.states;
  cx.found_by.depth = static_cast<std::uint32_t>(v.path.size());
  if (!checked.all()) {
    for (const spec::PropertyDef& d : spec::property_table()) {
      if (!d.is_witness && checked.test(static_cast<std::size_t>(d.id))) {
        cx.found_by.properties.emplace_back(d.name);
      }
    }
  }
  cx.scenario = scenario;
  cx.command = std::move(command);
  auto cluster = std::make_shared<const Cluster>(scenario);
  World w(cluster);
  for (const Action& a : v.path) {
    const World before = w;
    const StepReport report = w.apply(a);
    CounterexampleStep step;
    step.action = a;
    step.text = format_action(a, *cluster);
    step.fingerprint = w.fingerprint();
    step.comment = describe_step(before, report, w);
    cx.steps.push_back(std::move(step));
  }
  return cx;
}

std::string counterexample_file_name(const Counterexample& cx) {
  std::string name = fmt::format("{}--{}", file_word(cx.property), file_word(cx.scenario.name));
  if (cx.scenario.profile != "reference") name += "--" + file_word(cx.scenario.profile);
  const Mechanisms base = profile(cx.scenario.profile).value_or(Mechanisms{});
  for (const std::string& d : differences(cx.scenario.mechanisms, base)) {
    // "--gate=release-before-last" → "gate-release-before-last"
    std::string word = d.starts_with("--") ? d.substr(2) : d;
    std::replace(word.begin(), word.end(), '=', '-');
    name += "--" + file_word(word);
  }
  return name + ".yaml";
}

std::string counterexample_to_yaml(const Counterexample& cx, std::string_view replay_path) {
  std::string out;
  out += fmt::format("# Counterexample to {}, written by `preemptcheck {} --out`: regenerate it,\n"
                     "# never edit it by hand.\n",
                     cx.property, cx.found_by.seed ? "search" : "check");
  if (!cx.command.empty()) out += fmt::format("# Found by:  {}\n", one_line(cx.command));
  out += fmt::format("# Replay:    preemptcheck replay {}\n", one_line(replay_path));
  out += fmt::format("property: {}\n", cx.property);
  out += fmt::format("message: {}\n", yaml_quoted(cx.message));
  if (cx.also.empty()) {
    out += "also: []\n";
  } else {
    out += "also:\n";
    for (const auto& m : cx.also) {
      out += fmt::format("  - {{property: {}, message: {}}}\n", m.name, yaml_quoted(m.message));
    }
  }
  out += fmt::format("found-by: {{method: {}, shortest: {}, states: {}, depth: {}", cx.found_by.method,
                     cx.found_by.shortest ? "true" : "false", cx.found_by.states,
                     cx.found_by.depth);
  if (!cx.found_by.properties.empty()) {
    std::string names;
    for (const std::string& p : cx.found_by.properties) {
      names += fmt::format("{}{}", names.empty() ? "" : ", ", p);
    }
    out += fmt::format(", properties: [{}]", names);
  }
  if (cx.found_by.seed) out += fmt::format(", seed: {}", *cx.found_by.seed);
  if (!cx.found_by.shrunk.empty()) out += fmt::format(", shrunk: {}", yaml_quoted(cx.found_by.shrunk));
  out += "}\n";
  out += "scenario:\n";
  out += scenario_block(cx.scenario);
  out += fmt::format("profile: {}\n", cx.scenario.profile);
  std::string switches;
  for (std::string_view m : mechanism_names()) {
    switches += fmt::format("{}{}: {}", switches.empty() ? "" : ", ", m,
                            mechanism_value(cx.scenario.mechanisms, m));
  }
  out += fmt::format("mechanisms: {{{}}}\n", switches);
  if (cx.steps.empty()) {
    out += "steps: []  # the initial state already violates the property\n";
    return out;
  }
  out += "steps:\n";
  std::vector<std::string> entries;
  std::size_t width = 0;
  for (const CounterexampleStep& s : cx.steps) {
    std::string e = fmt::format("  - {{action: {}", yaml_quoted(s.text));
    if (s.fingerprint) e += fmt::format(", fingerprint: \"{}\"", format_fingerprint(*s.fingerprint));
    e += '}';
    width = std::max(width, e.size());
    entries.push_back(std::move(e));
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    out += fmt::format("{:<{}}  # {}\n", entries[i], width, one_line(cx.steps[i].comment));
  }
  return out;
}

Counterexample load_counterexample_text(std::string_view text, std::string_view file_name) {
  return Reader(text, file_name).read();
}

Counterexample load_counterexample_file(const std::string& path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path, ec)) {
    throw ScenarioError(path, 0, 0, "cannot read file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path, 0, 0, "cannot read file");
  return load_counterexample_text(text.str(), path);
}

std::optional<std::string> write_counterexample(const Counterexample& cx, const std::string& dir,
                                                std::string& error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    error = fmt::format("cannot create directory '{}': {}", dir, ec.message());
    return std::nullopt;
  }
  const std::string path = (std::filesystem::path(dir) / counterexample_file_name(cx)).string();
  const std::string text = counterexample_to_yaml(cx, path);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    error = fmt::format("cannot write '{}'", path);
    return std::nullopt;
  }
  return path;
}

}  // namespace preemptcheck::cli
