// Command-line parsing.
#include "cli/args.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>

#include "impl/mechanisms.h"

namespace preemptcheck::cli {

// Splits "--name=value" or takes the value from the next word.
bool take_value(const std::vector<std::string>& args, size_t& i, std::string_view flag,
                std::string& value) {
  const std::string& a = args[i];
  if (a.size() > flag.size() && a.compare(0, flag.size(), flag) == 0 && a[flag.size()] == '=') {
    value = a.substr(flag.size() + 1);
    return true;
  }
  if (a == flag && i + 1 < args.size()) {
    value = args[++i];
    return true;
  }
  return false;
}

bool take_mechanism(const std::vector<std::string>& args, size_t& i, MechanismChoice& choice,
                    std::string& error) {
  const std::string& a = args[i];
  std::string value;
  if (take_value(args, i, "--profile", value)) {
    choice.profile = value;
    choice.switches.clear();  // a profile resets the switches given before it
    return true;
  }
  if (a.size() <= 2 || a.compare(0, 2, "--") != 0) return false;
  const auto eq = a.find('=');
  const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
  if (mechanism_values(name).empty()) return false;
  if (eq == std::string::npos) {
    error = fmt::format("--{} expects a value, as in --{}={}", name, name,
                        mechanism_values(name).front());
    return true;
  }
  Mechanisms probe;
  if (auto e = set_mechanism(probe, name, a.substr(eq + 1))) {
    error = *e;
    return true;
  }
  choice.switches.emplace_back(name, a.substr(eq + 1));
  return true;
}

namespace {

template <class T>
bool parse_number(const std::string& text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

bool parse_seconds(const std::string& text, double& out) {
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && out >= 0;
}

}  // namespace

namespace {

constexpr const char* kUsage = R"(usage:
  preemptcheck check [SCENARIO.yaml] [--profile P] [--MECHANISM=VALUE]...
                     [--max-states N (default 20000000)] [--max-depth D] [--time-limit S]
                     [--property NAME]... [--json] [--out DIR]

Explores every interleaving of the scenario (the embedded default when none is given)
and checks every property. A switch given after a profile overrides it. With --out, the
shortest counterexample is written to DIR as a YAML file named after the property, the
scenario and the switches, and the line that replays it is printed.

  preemptcheck replay FILE [--full] [--profile P] [--MECHANISM=VALUE]...

Re-runs a counterexample file's steps: prints the first state in full, then what each step
changed (--full: the whole state), and each property's verdict at the step where it breaks.
Every fingerprint is compared ("diverged at step k" when one differs) unless a profile or
switch overrides the file's mechanisms. Exits 1 when the violation reproduces, 0 when every
step ran and every property held, 2 for a malformed file or a step that is not enabled
(under an override: the schedule is impossible, and the switch that blocks it is named).

  preemptcheck graph [SCENARIO.yaml] --dot FILE [--svg FILE] [--max-states N (default 20000)]
                     [--profile P] [--MECHANISM=VALUE]...

Writes the whole state graph as Graphviz DOT (--dot - for standard output): states labelled
with the queues, the pods on each node and the jobs, steps by action, violating states
filled, the shortest counterexample bold; above 500 states with dot's quickest layout
settings (the default scenario renders in seconds). --svg renders it with Graphviz's dot.
Refuses (exit 3) a scenario with more than N states.

  preemptcheck search [--runs N (default 100)] [--seed S] [--max-nodes K (default 3)]
                      [--max-pods M (default 9)] [--max-faults F (default 1)]
                      [--max-states N (default 100000)]
                      [--profile P] [--MECHANISM=VALUE]... [--property NAME]... [--out DIR]
                      [--differential] [--stateful [--max-steps N (default 150)]]

Generates N small clusters with RapidCheck (seed S, or a fresh one that is printed) and
explores every interleaving of each. A failing cluster is shrunk; its breadth-first shortest
schedule is printed, and written to DIR as a counterexample file. A cluster whose search
reaches --max-states (per cluster) is cut: counted apart, never as passing.
--differential counts a cluster as failing only when the profile alone, without the
switches, holds on it: what the switches break. --stateful takes N random walks of at most
--max-steps steps on larger clusters (3-4 nodes, 9-12 pods) instead, checking every step,
and shrinks the failing walk.

@SWITCHES@
properties:  no-double-victim, no-double-claim, no-overcommit, no-over-preemption,
             no-lost-wakeup, expected-outcome (--property restricts the check to the named ones)

exit codes:  0 every property holds   1 a property is violated
             2 bad input or usage     3 a limit stopped the search; nothing is proven
)";

// The profiles and mechanisms lines, from the tables in impl/, so that they cannot go stale.
std::string switches_text() {
  std::string profiles;
  for (std::string_view p : profile_names()) {
    profiles += fmt::format("{}{}{}", profiles.empty() ? "" : ", ", p,
                            p == "reference" ? " (default)" : "");
  }
  std::string out = fmt::format("profiles:    {}\nmechanisms:", profiles);
  std::vector<std::string> words;
  for (std::string_view name : mechanism_names()) {
    std::string values;
    for (std::string_view v : mechanism_values(name)) {
      values += fmt::format("{}{}", values.empty() ? "" : "|", v);
    }
    words.push_back(fmt::format("--{}={}", name, values));
  }
  // Two per line, in a column, as the rest of the text is laid out.
  for (size_t i = 0; i < words.size(); i += 2) {
    out += i == 0 ? "  " : "\n             ";
    out += i + 1 < words.size() ? fmt::format("{:<39}{}", words[i], words[i + 1]) : words[i];
  }
  return out;
}

}  // namespace

const char* usage_text() {
  static const std::string text = [] {
    std::string t = kUsage;
    const std::string marker = "@SWITCHES@";
    t.replace(t.find(marker), marker.size(), switches_text());
    return t;
  }();
  return text.c_str();
}

std::optional<CheckOptions> parse_check_args(const std::vector<std::string>& args,
                                             std::string& error) {
  CheckOptions o;
  bool properties_named = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string value;
    if (a == "--json") {
      o.json = true;
    } else if (take_value(args, i, "--out", value)) {
      o.out_dir = value;
    } else if (take_value(args, i, "--max-states", value)) {
      std::uint64_t n = 0;
      if (!parse_number(value, n)) {
        error = fmt::format("--max-states expects a whole number, got '{}'", value);
        return std::nullopt;
      }
      o.limits.max_states = n;
    } else if (take_value(args, i, "--max-depth", value)) {
      std::uint32_t n = 0;
      if (!parse_number(value, n)) {
        error = fmt::format("--max-depth expects a whole number, got '{}'", value);
        return std::nullopt;
      }
      o.limits.max_depth = n;
    } else if (take_value(args, i, "--time-limit", value)) {
      double s = 0;
      if (!parse_seconds(value, s)) {
        error = fmt::format("--time-limit expects seconds, got '{}'", value);
        return std::nullopt;
      }
      o.limits.time_limit_seconds = s;
    } else if (take_value(args, i, "--property", value)) {
      auto p = spec::find_property(value);
      if (!p || spec::property_def(*p).is_witness) {
        error = fmt::format("unknown property '{}'", value);
        return std::nullopt;
      }
      if (!properties_named) o.checked.reset();
      properties_named = true;
      o.checked.set(static_cast<size_t>(*p));
    } else if (take_mechanism(args, i, o.mechanisms, error)) {
      if (!error.empty()) return std::nullopt;
    } else if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
      error = fmt::format("unknown option '{}'", a);
      return std::nullopt;
    } else if (!a.empty() && a[0] != '-' && o.scenario_path.empty()) {
      o.scenario_path = a;
    } else {
      error = fmt::format("unexpected argument '{}'", a);
      return std::nullopt;
    }
  }
  return o;
}

}  // namespace preemptcheck::cli
