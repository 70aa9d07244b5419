// Round-trip oracles: each compares two loads of the same value field by field and names the
// first field that differs, so a finding says what the writer or the reader lost.
#include "fuzz/round_trip.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <vector>

#include "files/counterexample_yaml.h"
#include "files/kube_names.h"
#include "files/kubectl_import.h"
#include "files/scenario_yaml.h"
#include "files/yaml_text.h"

namespace preemptcheck::fuzz {
namespace {

std::string labels_text(const std::map<std::string, std::string>& m) {
  return fmt::format("{}", m);
}

// The first field in which `a` and `b` differ, or nullopt.
std::optional<std::string> scenario_difference(const Scenario& a, const Scenario& b) {
  auto differs = [](std::string_view field, const auto& x, const auto& y) {
    return std::optional<std::string>(fmt::format("{}: '{}' became '{}'", field, x, y));
  };
  if (a.name != b.name)
    return differs("name", a.name, b.name);
  if (a.description != b.description)
    return differs("description", a.description, b.description);
  if (a.nodes.size() != b.nodes.size())
    return differs("node count", a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const NodeSpec& x = a.nodes[i];
    const NodeSpec& y = b.nodes[i];
    const std::string at = fmt::format("nodes[{}]", i);
    if (x.name != y.name)
      return differs(at + ".name", x.name, y.name);
    if (x.cpu != y.cpu)
      return differs(at + ".cpu", x.cpu, y.cpu);
    if (x.memory != y.memory)
      return differs(at + ".memory", x.memory, y.memory);
  }
  if (a.pods.size() != b.pods.size())
    return differs("pod count", a.pods.size(), b.pods.size());
  for (std::size_t i = 0; i < a.pods.size(); ++i) {
    const PodSpec& x = a.pods[i];
    const PodSpec& y = b.pods[i];
    const std::string at = fmt::format("pods[{}]", i);
    if (x.name != y.name)
      return differs(at + ".name", x.name, y.name);
    if (x.priority != y.priority)
      return differs(at + ".priority", x.priority, y.priority);
    if (x.cpu != y.cpu)
      return differs(at + ".cpu", x.cpu, y.cpu);
    if (x.memory != y.memory)
      return differs(at + ".memory", x.memory, y.memory);
    if (x.node != y.node)
      return differs(at + ".node", x.node, y.node);
    if (x.arrives_later != y.arrives_later) {
      return differs(at + ".arrives", x.arrives_later, y.arrives_later);
    }
    if (x.preempt_never != y.preempt_never) {
      return differs(at + ".preemption-policy", x.preempt_never, y.preempt_never);
    }
    if (x.labels != y.labels)
      return differs(at + ".labels", labels_text(x.labels), labels_text(y.labels));
  }
  if (a.pdbs.size() != b.pdbs.size())
    return differs("pdb count", a.pdbs.size(), b.pdbs.size());
  for (std::size_t i = 0; i < a.pdbs.size(); ++i) {
    const PdbSpec& x = a.pdbs[i];
    const PdbSpec& y = b.pdbs[i];
    const std::string at = fmt::format("pdbs[{}]", i);
    if (x.name != y.name)
      return differs(at + ".name", x.name, y.name);
    if (x.selector != y.selector) {
      return differs(at + ".selector", labels_text(x.selector), labels_text(y.selector));
    }
    if (x.min_available != y.min_available) {
      return differs(at + ".min-available", x.min_available, y.min_available);
    }
  }
  if (a.faults.eviction_failures != b.faults.eviction_failures) {
    return differs("faults.eviction-failures", a.faults.eviction_failures,
                   b.faults.eviction_failures);
  }
  if (a.faults.binding_failures != b.faults.binding_failures) {
    return differs("faults.binding-failures", a.faults.binding_failures, b.faults.binding_failures);
  }
  if (a.faults.restarts != b.faults.restarts) {
    return differs("faults.restarts", a.faults.restarts, b.faults.restarts);
  }
  if (a.faults.deletions != b.faults.deletions) {
    return differs("faults.deletions", a.faults.deletions, b.faults.deletions);
  }
  if (a.faults.external_bindings != b.faults.external_bindings) {
    return differs("faults.external-bindings", a.faults.external_bindings,
                   b.faults.external_bindings);
  }
  if (a.workers != b.workers)
    return differs("executor.workers", a.workers, b.workers);
  if (a.profile != b.profile)
    return differs("profile", a.profile, b.profile);
  if (!(a.mechanisms == b.mechanisms)) {
    return std::optional<std::string>("mechanisms: the switches changed");
  }
  if (a.expect_bound != b.expect_bound) {
    return differs("expect.bound", fmt::format("{}", a.expect_bound),
                   fmt::format("{}", b.expect_bound));
  }
  if (a.expect_not_bound != b.expect_not_bound) {
    return differs("expect.not-bound", fmt::format("{}", a.expect_not_bound),
                   fmt::format("{}", b.expect_not_bound));
  }
  if (a.arrival_order != b.arrival_order) {
    return differs("arrival-order", fmt::format("{}", a.arrival_order),
                   fmt::format("{}", b.arrival_order));
  }
  if (a.allow_overcommitted_start != b.allow_overcommitted_start) {
    return differs("allow-overcommitted-start", a.allow_overcommitted_start,
                   b.allow_overcommitted_start);
  }
  return std::nullopt;
}

// What a loaded scenario never holds: a control character the bytes rule refuses (C0 but tab,
// newline and carriage return; DEL; C1) in any string, written raw or as an escape; or a name
// that is not a DNS-1123 subdomain (the scenario's, its nodes', pods' and PDBs').
std::optional<std::string> scenario_rule_broken(const Scenario& s) {
  std::vector<std::pair<std::string, std::string_view>> strings = {
      {"name", s.name}, {"description", s.description}, {"profile", s.profile}};
  std::vector<std::pair<std::string, std::string_view>> names = {{"name", s.name}};
  for (const NodeSpec& n : s.nodes)
    names.emplace_back("node name", n.name);
  for (const PodSpec& p : s.pods) {
    names.emplace_back("pod name", p.name);
    strings.emplace_back("pod node", p.node);
    for (const auto& [k, v] : p.labels) {
      strings.emplace_back("label key", k);
      strings.emplace_back("label value", v);
    }
  }
  for (const PdbSpec& p : s.pdbs) {
    names.emplace_back("PDB name", p.name);
    for (const auto& [k, v] : p.selector) {
      strings.emplace_back("selector key", k);
      strings.emplace_back("selector value", v);
    }
  }
  for (const auto& [what, text] : names) {
    if (std::string problem = dns1123_subdomain_problem(text); !problem.empty())
      return fmt::format("a {} was accepted that is not a DNS-1123 subdomain: {}", what, problem);
    strings.emplace_back(what, text);
  }
  for (const auto& [what, text] : strings) {
    if (const unsigned c = control_character(text))
      return fmt::format("the {} holds control character U+{:04X}", what, c);
  }
  return std::nullopt;
}

// `written` (canonical scenario text) with `edit` applied to each node and pod line's value of
// `key` (a flow entry "key: value"); the lines of other keys are left alone.
template <class Edit>
std::string edit_entries(const std::string& written, std::string_view key, Edit edit) {
  std::string out;
  std::size_t from = 0;
  while (from < written.size()) {
    const std::size_t end = std::min(written.find('\n', from), written.size());
    std::string line = written.substr(from, end - from);
    if (line.starts_with("  - {name: ")) {
      const std::string entry = fmt::format(", {}: ", key);
      if (const auto at = line.find(entry); at != std::string::npos) {
        const std::size_t value = at + entry.size();
        const std::size_t stop = line.find_first_of(",}", value);
        line.replace(value, stop - value, edit(line.substr(value, stop - value)));
      }
    }
    out += line + "\n";
    from = end + 1;
  }
  return out;
}

// The value rules that keep no trace in a Scenario, checked on a canonical text: a quantity
// quoted or tagged !!str is the same quantity (the API holds quantities as strings); a quoted
// priority is refused at its position (integers stay integers); a PDB written as
// max-unavailable = the pods it selects − min-available loads back to the same min-available.
std::optional<std::string> value_rules_broken(const Scenario& s, const std::string& written) {
  for (const char* form : {"\"{}\"", "!!str {}"}) {
    std::string text = written;
    for (std::string_view key : {"cpu", "memory"}) {
      text = edit_entries(text, key,
                          [&](const std::string& v) { return fmt::format(fmt::runtime(form), v); });
    }
    try {
      if (auto d = scenario_difference(s, load_scenario_text(text, "quoted")))
        return fmt::format("quoted quantities read otherwise: {}\n--- quoted ---\n{}", *d, text);
    } catch (const FileError& e) {
      return fmt::format("quoted quantities are refused: {}\n--- quoted ---\n{}", e.what(), text);
    }
  }
  if (!s.pods.empty()) {
    const std::string text =
        edit_entries(written, "priority", [](const std::string& v) { return "\"" + v + "\""; });
    try {
      load_scenario_text(text, "quoted");
      return fmt::format("a quoted priority was accepted\n--- quoted ---\n{}", text);
    } catch (const FileError& e) {
      if (e.line == 0 ||
          e.message.find("for 'priority', got the quoted string") == std::string::npos)
        return fmt::format("a quoted priority is refused otherwise: {}", e.what());
    }
  }
  std::string text = written;
  for (const PdbSpec& p : s.pdbs) {
    const auto selected = std::count_if(s.pods.begin(), s.pods.end(), [&](const PodSpec& pod) {
      return std::all_of(p.selector.begin(), p.selector.end(), [&](const auto& kv) {
        const auto it = pod.labels.find(kv.first);
        return it != pod.labels.end() && it->second == kv.second;
      });
    });
    if (p.min_available > selected)
      continue;  // max-unavailable cannot say it
    const std::string from = fmt::format("min-available: {}}}", p.min_available);
    const std::string line = fmt::format("  - {{name: {}, ", yaml_scalar(p.name));
    const auto at = text.find(from, text.find(line + "selector: "));
    text.replace(at, from.size(), fmt::format("max-unavailable: {}}}", selected - p.min_available));
  }
  try {
    if (auto d = scenario_difference(s, load_scenario_text(text, "max-unavailable")))
      return fmt::format("max-unavailable reads otherwise: {}\n--- text ---\n{}", *d, text);
  } catch (const FileError& e) {
    return fmt::format("max-unavailable is refused: {}\n--- text ---\n{}", e.what(), text);
  }
  return std::nullopt;
}

std::optional<std::string> counterexample_difference(const Counterexample& a,
                                                     const Counterexample& b) {
  auto differs = [](std::string_view field, const auto& x, const auto& y) {
    return std::optional<std::string>(fmt::format("{}: '{}' became '{}'", field, x, y));
  };
  if (a.property != b.property)
    return differs("property", a.property, b.property);
  if (a.message != b.message)
    return differs("message", a.message, b.message);
  if (a.also.size() != b.also.size())
    return differs("also count", a.also.size(), b.also.size());
  for (std::size_t i = 0; i < a.also.size(); ++i) {
    if (a.also[i].name != b.also[i].name) {
      return differs(fmt::format("also[{}].property", i), a.also[i].name, b.also[i].name);
    }
    if (a.also[i].message != b.also[i].message) {
      return differs(fmt::format("also[{}].message", i), a.also[i].message, b.also[i].message);
    }
  }
  const FoundBy& f = a.found_by;
  const FoundBy& g = b.found_by;
  if (f.method != g.method)
    return differs("found-by.method", f.method, g.method);
  if (f.shortest != g.shortest)
    return differs("found-by.shortest", f.shortest, g.shortest);
  if (f.states != g.states)
    return differs("found-by.states", f.states, g.states);
  if (f.depth != g.depth)
    return differs("found-by.depth", f.depth, g.depth);
  if (f.properties != g.properties) {
    return differs("found-by.properties", fmt::format("{}", f.properties),
                   fmt::format("{}", g.properties));
  }
  if (f.seed != g.seed) {
    return differs("found-by.seed", f.seed ? fmt::format("{}", *f.seed) : "none",
                   g.seed ? fmt::format("{}", *g.seed) : "none");
  }
  if (f.shrunk != g.shrunk)
    return differs("found-by.shrunk", f.shrunk, g.shrunk);
  if (auto d = scenario_difference(a.scenario, b.scenario))
    return "scenario." + *d;
  if (a.steps.size() != b.steps.size()) {
    return differs("step count", a.steps.size(), b.steps.size());
  }
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    const CounterexampleStep& x = a.steps[i];
    const CounterexampleStep& y = b.steps[i];
    const std::string at = fmt::format("steps[{}]", i);
    if (!(x.action == y.action))
      return differs(at + ".action", x.text, y.text);
    if (x.text != y.text)
      return differs(at + ".text", x.text, y.text);
    if (x.fingerprint != y.fingerprint) {
      return differs(at + ".fingerprint",
                     x.fingerprint ? format_fingerprint(*x.fingerprint) : "none",
                     y.fingerprint ? format_fingerprint(*y.fingerprint) : "none");
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> scenario_round_trip(std::string_view bytes) {
  Scenario first;
  try {
    first = load_scenario_text(bytes, "input");
  } catch (const FileError&) {
    return std::nullopt;  // refused input is the reader doing its job
  }
  if (auto broken = scenario_rule_broken(first))
    return *broken;
  const std::string written = scenario_to_yaml(first);
  Scenario second;
  try {
    second = load_scenario_text(written, "written");
  } catch (const FileError& e) {
    return fmt::format("the written scenario is refused: {}\n--- written ---\n{}", e.what(),
                       written);
  }
  if (auto d = scenario_difference(first, second)) {
    return fmt::format("{}\n--- written ---\n{}", *d, written);
  }
  const std::string rewritten = scenario_to_yaml(second);
  if (rewritten != written) {
    return fmt::format("writing is not stable\n--- first ---\n{}\n--- second ---\n{}", written,
                       rewritten);
  }
  return value_rules_broken(first, written);
}

std::optional<std::string> counterexample_round_trip(std::string_view bytes) {
  Counterexample first;
  try {
    first = load_counterexample_text(bytes, "input");
  } catch (const FileError&) {
    return std::nullopt;
  }
  if (auto broken = scenario_rule_broken(first.scenario))
    return "scenario: " + *broken;
  for (const std::string_view text :
       {std::string_view(first.property), std::string_view(first.message)}) {
    if (const unsigned c = control_character(text))
      return fmt::format("the property or message holds control character U+{:04X}", c);
  }
  const std::string written = counterexample_to_yaml(first, "input.yaml");
  Counterexample second;
  try {
    second = load_counterexample_text(written, "written");
  } catch (const FileError& e) {
    return fmt::format("the written counterexample is refused: {}\n--- written ---\n{}", e.what(),
                       written);
  }
  if (auto d = counterexample_difference(first, second)) {
    return fmt::format("{}\n--- written ---\n{}", *d, written);
  }
  // A file about a property gets a digest that matches; a schedule about none gets none.
  if (second.property.empty() ? second.recorded_digest.has_value() : !second.digest_matches()) {
    return fmt::format(
        "the written file's scenario-digest does not match its scenario (or a schedule about no "
        "property has one)\n--- written ---\n{}",
        written);
  }
  const std::string rewritten = counterexample_to_yaml(second, "input.yaml");
  if (rewritten != written) {
    return fmt::format("writing is not stable\n--- first ---\n{}\n--- second ---\n{}", written,
                       rewritten);
  }
  return std::nullopt;
}

std::optional<std::string> kubectl_import_round_trip(std::string_view bytes) {
  KubectlImport imported;
  try {
    imported = import_kubectl({KubectlInput{"input.yaml", std::string(bytes)}}, {});
  } catch (const FileError&) {
    return std::nullopt;
  } catch (const std::invalid_argument& e) {
    const std::string_view what = e.what();
    if (what.starts_with("the imported scenario is not valid") &&
        what.find("is overfilled at the start") == std::string_view::npos) {
      return fmt::format("the importer built a scenario the loader refuses: {}", what);
    }
    return std::nullopt;
  }
  const std::string written = scenario_to_yaml(imported.scenario);
  Scenario loaded;
  try {
    loaded = load_scenario_text(written, "imported");
  } catch (const FileError& e) {
    return fmt::format("the imported scenario is refused: {}\n--- written ---\n{}", e.what(),
                       written);
  }
  if (auto d = scenario_difference(imported.scenario, loaded)) {
    return fmt::format("{}\n--- written ---\n{}", *d, written);
  }
  const auto pending = std::count_if(imported.scenario.pods.begin(), imported.scenario.pods.end(),
                                     [](const PodSpec& p) { return p.node.empty(); });
  if (pending != imported.pending) {
    return fmt::format("pending is {} but {} pods have no node", imported.pending, pending);
  }
  // The user is told that nothing is expected, and when nothing is pending; beside those, one
  // note per node that starts overcommitted.
  const bool says_idle = std::any_of(imported.notes.begin(), imported.notes.end(),
                                     [](auto& n) { return n.starts_with("no pod is pending"); });
  const auto overcommitted =
      std::count_if(imported.notes.begin(), imported.notes.end(),
                    [](auto& n) { return n.find(" starts overcommitted: ") != std::string::npos; });
  if (says_idle != (pending == 0) ||
      imported.notes.size() != static_cast<std::size_t>(overcommitted) + (pending == 0 ? 2u : 1u) ||
      (overcommitted > 0) != imported.scenario.allow_overcommitted_start) {
    return fmt::format("the notes do not match {} pending pods: {}", pending, imported.notes);
  }
  return scenario_round_trip(written);
}

void run_or_abort(std::string_view target, std::string_view bytes) {
  const std::optional<std::string> difference = target == "scenario" ? scenario_round_trip(bytes)
                                                : target == "counterexample"
                                                    ? counterexample_round_trip(bytes)
                                                    : kubectl_import_round_trip(bytes);
  if (difference) {
    std::fprintf(stderr, "round trip of a %.*s file failed: %s\n", static_cast<int>(target.size()),
                 target.data(), difference->c_str());
    std::abort();
  }
}

}  // namespace preemptcheck::fuzz
