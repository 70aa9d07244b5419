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
#include "files/kubectl_import.h"
#include "files/scenario_yaml.h"

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
  return std::nullopt;
}

std::optional<std::string> counterexample_round_trip(std::string_view bytes) {
  Counterexample first;
  try {
    first = load_counterexample_text(bytes, "input");
  } catch (const FileError&) {
    return std::nullopt;
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
