// Counterexample files, read back strictly through the shared reader with every problem at its
// line and column (counterexample_yaml_write.cc writes them).
#include "files/counterexample_yaml.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <limits>
#include <sstream>

#include "files/limits.h"
#include "files/output_file.h"
#include "files/strict_yaml.h"
#include "impl/cluster.h"
#include "spec/liveness.h"
#include "spec/property.h"

namespace preemptcheck {
namespace {

// ---- Reading ---------------------------------------------------------------------------

constexpr std::array<std::string_view, 10> kTopKeys = {
    "property",   "message",         "also", "found-by", "scenario", "profile",
    "mechanisms", "scenario-digest", "loop", "steps"};
constexpr std::array<std::string_view, 7> kFoundByKeys = {
    "method", "shortest", "states", "depth", "properties", "seed", "shrunk"};
constexpr std::array<std::string_view, 2> kStepKeys = {"action", "fingerprint"};
constexpr std::array<std::string_view, 2> kAlsoKeys = {"property", "message"};

std::string safety_property_names() {
  std::string out;
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (!d.is_witness)
      out += fmt::format("{}{}", out.empty() ? "" : ", ", d.name);
  }
  return out;
}

std::string liveness_property_names() {
  std::string out;
  for (const spec::LivenessDef& d : spec::liveness_table())
    out += fmt::format("{}{}", out.empty() ? "" : ", ", d.name);
  return out;
}

class Reader : StrictYaml {
 public:
  Reader(std::string_view text, std::string_view file) : StrictYaml(file), text_(text) {}

  Counterexample read() const {
    const YAML::Node root = parse(text_);
    if (root.IsNull())
      fail_at(1, 1, "expected a counterexample mapping at the top level");
    if (!root.IsMap() || root.Style() == YAML::EmitterStyle::Flow) {
      fail(root, fmt::format("expected a block mapping at the top level, one key per line, "
                             "got {}",
                             describe(root)));
    }
    return counterexample(root);
  }

 private:
  // A plain decimal integer in [0, max], unsigned so that a 64-bit seed fits.
  std::uint64_t unsigned_integer(const Field& f, std::uint64_t max) const {
    const std::string& s = plain_scalar(f, "a non-negative integer", "int");
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ptr != s.data() + s.size() ||
        (ec != std::errc() && ec != std::errc::result_out_of_range)) {
      fail(f, fmt::format("expected a non-negative integer for '{}', got {}", f.key,
                          describe(f.value)));
    }
    if (ec == std::errc::result_out_of_range || value > max) {
      fail(f,
           fmt::format("integer out of range for '{}': {} is above the bound {}", f.key, s, max));
    }
    return value;
  }

  std::string safety_property(const YAML::Node& at, const std::string& name) const {
    const auto p = spec::find_property(name);
    if (!p || spec::property_def(*p).is_witness) {
      fail(at, fmt::format("unknown property '{}'; expected one of: {}", name,
                           safety_property_names()));
    }
    return name;
  }

  // "0x" and sixteen hex digits.
  std::uint64_t hex64(const Field& e, std::string_view what) const {
    const std::string s = text(e);
    bool ok = s.size() == 18 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    std::uint64_t value = 0;
    for (std::size_t i = 2; ok && i < s.size(); ++i) {
      const char c = s[i];
      int digit = -1;
      if (c >= '0' && c <= '9')
        digit = c - '0';
      if (c >= 'a' && c <= 'f')
        digit = c - 'a' + 10;
      if (c >= 'A' && c <= 'F')
        digit = c - 'A' + 10;
      ok = digit >= 0;
      value = (value << 4) | static_cast<std::uint64_t>(digit < 0 ? 0 : digit);
    }
    if (!ok)
      fail(e, fmt::format("expected {} like \"0x0123456789abcdef\", got '{}'", what, s));
    return value;
  }

  Counterexample counterexample(const YAML::Node& root) const {
    static constexpr std::string_view kWhat = "the counterexample";
    const Fields top = mapping(root, kWhat, kTopKeys);
    Counterexample cx;

    // A file `check --out` writes has every key, its digest among them; a schedule written by
    // hand (no digest) needs only its scenario and steps (no property: every property is judged).
    if (top.find("scenario-digest") != nullptr) {
      for (const std::string_view key :
           {"property", "message", "found-by", "profile", "mechanisms"})
        require(top, key, kWhat);
    }
    if (const Field* property = top.find("property")) {
      const YAML::Node& at = property->value.IsNull() ? property->key_node : property->value;
      cx.property = text(*property);
      if (!spec::is_liveness_property(cx.property))
        safety_property(at, cx.property);
    }
    if (const Field* message = top.find("message"))
      cx.message = text(*message);
    if (const Field* also = top.find("also"))
      read_also(*also, cx);
    if (const Field* found_by = top.find("found-by")) {
      read_found_by(*found_by, cx.found_by);
    } else {
      cx.found_by.method = "written by hand";
      cx.found_by.shortest = false;
    }

    const Field& scenario = require(top, "scenario", kWhat);
    const Field& steps = require(top, "steps", kWhat);

    // The top-level profile and switches are the run's; without them (a schedule written by
    // hand), the inline scenario's own `profile:` and `mechanisms:` are.
    cx.scenario = read_scenario(scenario, top);
    if (const Field* profile_entry = top.find("profile")) {
      cx.scenario.profile = text(*profile_entry);
      const auto base = profile(cx.scenario.profile);
      if (!base) {
        fail(*profile_entry, fmt::format("unknown profile '{}'; expected one of: {}",
                                         cx.scenario.profile, join_words(profile_names())));
      }
      cx.scenario.mechanisms = *base;
    }
    if (const Field* mechanisms = top.find("mechanisms"))
      read_mechanisms(*mechanisms, cx);
    if (const Field* digest = top.find("scenario-digest")) {
      cx.recorded_digest = hex64(*digest, "a digest");
      cx.digest_line = digest->value.Mark().line + 1;
      cx.digest_column = digest->value.Mark().column + 1;
    }
    read_steps(steps, cx);
    read_loop(top, cx);
    return cx;
  }

  // `loop: N` marks a lasso: a liveness property's counterexample, whose steps after step N
  // repeat forever.
  void read_loop(const Fields& top, Counterexample& cx) const {
    const Field* loop = top.find("loop");
    const bool liveness = spec::is_liveness_property(cx.property);
    if (loop == nullptr) {
      if (liveness) {
        const Field* p = top.find("property");
        fail(p->value.IsNull() ? p->key_node : p->value,
             fmt::format("'{}' is a liveness property: its counterexample is a lasso and needs "
                         "'loop: N', the step after which the loop starts",
                         cx.property));
      }
      return;
    }
    if (cx.property.empty()) {
      fail(loop->key_node, fmt::format("'loop' marks a lasso, the counterexample of a liveness "
                                       "property: expected 'property:' naming it ({}) beside "
                                       "'loop'",
                                       liveness_property_names()));
    }
    if (!liveness) {
      fail(loop->key_node, fmt::format("'loop' marks a lasso, the counterexample of a liveness "
                                       "property ({}); '{}' is a safety property",
                                       liveness_property_names(), cx.property));
    }
    const std::uint64_t value =
        unsigned_integer(*loop, static_cast<std::uint64_t>(limits::kMaxSteps));
    if (value > cx.steps.size()) {
      fail(*loop, fmt::format("expected 'loop' to be a step number from 0 to {} (the steps "
                              "after it repeat forever), got {}",
                              cx.steps.size(), value));
    }
    cx.loop = static_cast<std::size_t>(value);
    cx.loop_line = loop->value.Mark().line + 1;
    cx.loop_column = loop->value.Mark().column + 1;
  }

  void read_mechanisms(const Field& mechanisms, Counterexample& cx) const {
    if (!mechanisms.value.IsMap()) {
      fail(mechanisms, fmt::format("expected a mapping of switches for 'mechanisms', got {}",
                                   describe(mechanisms.value)));
    }
    for (const Field& m : entries(mechanisms.value).entries) {
      if (mechanism_values(m.key).empty()) {
        fail(m.key_node, fmt::format("unknown mechanism '{}'; expected one of: {}", m.key,
                                     join_words(mechanism_names())));
      }
      if (!is_string(m.value)) {
        fail(m, fmt::format("expected a value for mechanism '{}': one of {}", m.key,
                            join_words(mechanism_values(m.key))));
      }
      if (auto error = set_mechanism(cx.scenario.mechanisms, m.key, m.value.Scalar())) {
        fail(m.value, *error);
      }
    }
  }

  void read_also(const Field& also, Counterexample& cx) const {
    if (!also.value.IsSequence()) {
      fail(also, fmt::format("expected a sequence for 'also', got {}", describe(also.value)));
    }
    for (auto it = also.value.begin(); it != also.value.end(); ++it) {
      const YAML::Node e = *it;
      if (!e.IsMap()) {
        fail(e, fmt::format("expected {{property: NAME, message: TEXT}} in 'also', got {}",
                            describe(e)));
      }
      const Fields fields = mapping(e, "an 'also' entry", kAlsoKeys);
      const Field& p = require(fields, "property", "an 'also' entry");
      spec::PropertyMessage m;
      m.name = safety_property(p.value.IsNull() ? p.key_node : p.value, text(p));
      m.message = text(require(fields, "message", "an 'also' entry"));
      cx.also.push_back(std::move(m));
    }
  }

  void read_found_by(const Field& entry, FoundBy& out) const {
    const Fields fields = mapping(as_map(entry), "'found-by'", kFoundByKeys);
    out.method = text(require(fields, "method", "'found-by'"));
    if (const Field* e = fields.find("shortest"))
      out.shortest = boolean(*e);
    constexpr auto kMax64 = std::numeric_limits<std::uint64_t>::max();
    if (const Field* e = fields.find("states"))
      out.states = unsigned_integer(*e, kMax64);
    if (const Field* e = fields.find("depth")) {
      out.depth = static_cast<std::uint32_t>(
          unsigned_integer(*e, static_cast<std::uint64_t>(limits::kMaxSteps)));
    }
    if (const Field* e = fields.find("seed"))
      out.seed = unsigned_integer(*e, kMax64);
    if (const Field* e = fields.find("shrunk"))
      out.shrunk = text(*e);
    if (const Field* e = fields.find("properties")) {
      if (!e->value.IsSequence()) {
        fail(*e, fmt::format("expected a sequence of property names for 'properties', got {}",
                             describe(e->value)));
      }
      for (auto it = e->value.begin(); it != e->value.end(); ++it) {
        const YAML::Node p = *it;
        if (!is_string(p))
          fail(p, fmt::format("expected a property name, got {}", describe(p)));
        out.properties.push_back(safety_property(p, p.Scalar()));
      }
    }
  }

  // The inline scenario goes through the scenario loader itself. It reads a copy of this
  // file in which every line outside the scenario's value is blank (lines before it) or
  // dropped (lines after it), and the text before the value on its first line is spaces:
  // the loader's lines and columns are then this file's.
  Scenario read_scenario(const Field& entry, const Fields& top) const {
    if (!entry.value.IsMap()) {
      fail(entry, fmt::format("expected a mapping (the scenario) for 'scenario', got {}",
                              describe(entry.value)));
    }
    const YAML::Mark start = entry.value.Mark();
    int end = -1;  // the first line after the scenario: the next top-level key's
    for (const Field& e : top.entries) {
      const int line = e.key_node.Mark().line;
      if (line > start.line && (end < 0 || line < end))
        end = line;
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
        const auto prefix =
            std::min<std::size_t>(static_cast<std::size_t>(start.column), line.size());
        line.replace(0, prefix, prefix, ' ');
      }
      sub += line;
      sub += '\n';
    }
    return load_scenario_text(sub, file());
  }

  void read_steps(const Field& entry, Counterexample& cx) const {
    if (!entry.value.IsSequence()) {
      fail(entry,
           fmt::format("expected a sequence of steps for 'steps', got {}", describe(entry.value)));
    }
    const Cluster cluster(cx.scenario);
    std::string pods;
    for (const PodSpec& p : cx.scenario.pods) {
      pods += fmt::format("{}{}", pods.empty() ? "" : ", ", p.name);
    }
    int index = 0;
    for (auto it = entry.value.begin(); it != entry.value.end(); ++it) {
      ++index;
      const YAML::Node node = *it;
      if (index > limits::kMaxSteps) {
        fail(node, fmt::format("too many steps: at most {} are supported", limits::kMaxSteps));
      }
      CounterexampleStep step;
      YAML::Node action_node;
      if (node.IsScalar()) {
        if (!is_string(node))
          fail(node, fmt::format("expected step {} as an action, got {} tagged {}", index,
                                 describe(node), tag_name(node.Tag())));
        action_node = node;
      } else if (node.IsMap()) {
        const std::string what = fmt::format("step {}", index);
        const Fields fields = mapping(node, what, kStepKeys);
        const Field& action = require(fields, "action", what);
        text(action);
        action_node = action.value;
        if (const Field* f = fields.find("fingerprint"))
          step.fingerprint = hex64(*f, "a fingerprint");
      } else {
        fail(node, fmt::format("expected step {} as {{action: \"ACTION\", fingerprint: "
                               "\"0x…\"}} or as an action, got {}",
                               index, describe(node)));
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
};

}  // namespace

bool Counterexample::digest_matches() const {
  return recorded_digest && *recorded_digest == scenario_digest(scenario);
}

bool Counterexample::every_step_fingerprinted() const {
  return std::all_of(steps.begin(), steps.end(),
                     [](const CounterexampleStep& s) { return s.fingerprint.has_value(); });
}

Counterexample load_counterexample_text(std::string_view text, std::string_view file_name) {
  return Reader(text, file_name).read();
}

Counterexample load_counterexample_file(const std::string& path) {
  return load_counterexample_text(read_file(path), path);
}

}  // namespace preemptcheck
