// Reduce: the stateful search's reducer (reduce.h), each attempt one replay_schedule.
#include "properties/reduce.h"

#include <fmt/format.h>

#include <map>

namespace preemptcheck {
namespace {

// `actions` replayed on `scenario` up to the first checked violation, when one breaks.
std::optional<BrokenSchedule> broken(const Scenario& scenario, const std::vector<Action>& actions,
                                     const CheckedProperties& checked) {
  return broken_schedule(scenario,
                         replay_schedule(scenario, actions, checked, StopAt::kFirstViolation));
}

// The steps of `from`, by pod name, as actions of `to`; nothing when a pod is missing.
std::optional<std::vector<Action>> translate(const std::vector<Action>& steps, const Cluster& from,
                                             const Cluster& to) {
  std::vector<Action> out;
  for (const Action& a : steps) {
    auto b = parse_action(format_action(a, from), to);
    if (!b)
      return std::nullopt;
    out.push_back(*b);
  }
  return out;
}

// The same scenario with pods renamed v1…, p1… and nodes n1… in their order.
Scenario renamed(Scenario s) {
  std::map<std::string, std::string> node_names;
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    node_names[s.nodes[i].name] = fmt::format("n{}", i + 1);
    s.nodes[i].name = fmt::format("n{}", i + 1);
  }
  int running = 0;
  int pending = 0;
  for (PodSpec& p : s.pods) {
    if (p.node.empty()) {
      p.name = fmt::format("p{}", ++pending);
    } else {
      p.name = fmt::format("v{}", ++running);
      p.node = node_names[p.node];
    }
  }
  return s;
}

// Removes runs of steps from `best` while it still breaks its property; returns whether any
// went.
bool remove_steps(BrokenSchedule& best, const CheckedProperties& checked) {
  bool removed = false;
  // Runs of steps, halving their length, from the last: the schedule must still run and
  // break.
  for (std::size_t chunk = std::max<std::size_t>(1, best.steps.size() / 2); chunk > 0; chunk /= 2) {
    for (std::size_t end = best.steps.size(); end >= chunk && end > 0; --end) {
      if (end > best.steps.size())
        continue;
      std::vector<Action> steps = best.steps;
      steps.erase(steps.begin() + static_cast<long>(end - chunk),
                  steps.begin() + static_cast<long>(end));
      auto b = broken(best.scenario, steps, checked);
      if (b && b->property == best.property) {
        best = std::move(*b);
        removed = true;
      }
    }
  }
  return removed;
}

}  // namespace

BrokenSchedule reduce_steps(const BrokenSchedule& start, const CheckedProperties& checked) {
  BrokenSchedule best = start;
  while (remove_steps(best, checked)) {
  }
  return best;
}

std::optional<BrokenSchedule> broken_schedule(const Scenario& scenario, const Schedule& schedule) {
  if (schedule.blocked)
    return std::nullopt;
  const auto at = schedule.first_violation();
  if (!at)
    return std::nullopt;
  const auto& violated = schedule.violated_at(*at);
  BrokenSchedule b;
  b.scenario = scenario;
  for (std::size_t i = 0; i < *at; ++i)
    b.steps.push_back(schedule.steps[i].action);
  b.property = violated.front().name;
  b.message = violated.front().message;
  b.also.assign(violated.begin() + 1, violated.end());
  return b;
}

BrokenSchedule reduce_cluster(const BrokenSchedule& start, const CheckedProperties& checked) {
  BrokenSchedule best = start;
  // Tries `candidate` under best's schedule; keeps it when the same property still breaks.
  auto attempt = [&](const Scenario& candidate) {
    const Cluster from(best.scenario);
    const Cluster to(candidate);
    const auto steps = translate(best.steps, from, to);
    if (!steps)
      return false;
    auto b = broken(candidate, *steps, checked);
    if (!b || b->property != best.property)
      return false;
    best = std::move(*b);
    return true;
  };
  for (bool progress = true; progress;) {
    progress = false;
    if (remove_steps(best, checked))
      progress = true;
    for (std::size_t i = best.scenario.pods.size(); i-- > 0;) {
      Scenario s = best.scenario;
      s.pods.erase(s.pods.begin() + static_cast<long>(i));
      if (attempt(s))
        progress = true;
    }
    for (std::size_t i = best.scenario.nodes.size(); i-- > 0 && best.scenario.nodes.size() > 1;) {
      Scenario s = best.scenario;
      const std::string name = s.nodes[i].name;
      s.nodes.erase(s.nodes.begin() + static_cast<long>(i));
      std::erase_if(s.pods, [&](const PodSpec& p) { return p.node == name; });
      if (attempt(s))
        progress = true;
    }
    if (!best.scenario.pdbs.empty()) {
      Scenario s = best.scenario;
      s.pdbs.clear();
      for (PodSpec& p : s.pods)
        p.labels.clear();
      if (attempt(s))
        progress = true;
    }
    // Fault budgets and the executor's worker limit, each to zero.
    for (int Scenario::*field : {&Scenario::workers}) {
      if (best.scenario.*field == 0)
        continue;
      Scenario s = best.scenario;
      s.*field = 0;
      if (attempt(s))
        progress = true;
    }
    for (int Faults::*field : {&Faults::eviction_failures, &Faults::binding_failures}) {
      if (best.scenario.faults.*field == 0)
        continue;
      Scenario s = best.scenario;
      s.faults.*field = 0;
      if (attempt(s))
        progress = true;
    }
  }
  // Renaming keeps every pod's position, so the steps stay as they are; the messages name
  // the new names.
  auto b = broken(renamed(best.scenario), best.steps, checked);
  if (b && b->property == best.property)
    best = std::move(*b);
  return best;
}

}  // namespace preemptcheck
