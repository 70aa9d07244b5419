// Recorded: a replayed schedule against its file's record (recorded.h).
#include "properties/recorded.h"

#include <fmt/format.h>

#include "impl/show.h"

namespace preemptcheck {
namespace {

std::string messages(const std::vector<checker::PropertyMessage>& ms) {
  std::string out;
  for (const auto& m : ms)
    out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", m.name, m.message);
  return or_none(out);
}

// Whether the first k steps of the file are all enabled under `scenario`.
bool runs_through(const Scenario& scenario, const std::vector<Action>& actions, std::size_t k) {
  const std::vector<Action> prefix(actions.begin(), actions.begin() + static_cast<long>(k));
  return !replay_schedule(scenario, prefix).blocked;
}

}  // namespace

CheckedProperties checked_by(const Counterexample& cx) {
  if (cx.found_by.properties.empty())
    return CheckedProperties().set();
  CheckedProperties checked;
  for (const std::string& name : cx.found_by.properties) {
    if (const auto p = spec::find_property(name))
      checked.set(static_cast<std::size_t>(*p));
  }
  return checked;
}

std::string at_step(std::size_t step) {
  return step == 0 ? std::string("in the initial state") : fmt::format("at step {}", step);
}

std::string divergence(const Counterexample& cx, const Schedule& schedule) {
  const std::size_t n = schedule.steps.size();
  const auto first = schedule.first_violation();
  if (!first) {
    return fmt::format(
        "the recorded violation of {} does not occur by the last step (step {}): "
        "every checked property held",
        cx.property, n);
  }
  if (*first < n) {
    return fmt::format("{} broke {}, before the recorded last step {}: {}",
                       schedule.violated_at(*first).front().name, at_step(*first), n,
                       messages(schedule.violated_at(*first)));
  }
  std::vector<checker::PropertyMessage> others;
  const checker::PropertyMessage* recorded = nullptr;
  for (const auto& m : schedule.violated_at(n)) {
    if (m.name == cx.property && recorded == nullptr) {
      recorded = &m;
    } else {
      others.push_back(m);
    }
  }
  if (recorded == nullptr) {
    return fmt::format("the file records {} at step {}, but {} broke there instead", cx.property, n,
                       messages(schedule.violated_at(n)));
  }
  if (recorded->message != cx.message) {
    return fmt::format("{} broke {} with message \"{}\"; the file records \"{}\"", cx.property,
                       at_step(n), recorded->message, cx.message);
  }
  if (others != cx.also) {
    return fmt::format("{} also broke {}: {}; the file records also: {}", cx.property, at_step(n),
                       messages(others), messages(cx.also));
  }
  return {};
}

std::string blocking_switches(const Scenario& run, const Mechanisms& recorded_switches,
                              const std::vector<Action>& actions, std::size_t k) {
  std::vector<std::string> blockers;
  for (std::string_view name : mechanism_names()) {
    const std::string recorded = mechanism_value(recorded_switches, name);
    const std::string now = mechanism_value(run.mechanisms, name);
    if (recorded == now)
      continue;
    Scenario probe = run;
    set_mechanism(probe.mechanisms, name, recorded);
    if (runs_through(probe, actions, k)) {
      blockers.push_back(
          fmt::format("{}={} (the file's {}={} enables it)", name, now, name, recorded));
    }
  }
  if (blockers.empty()) {
    std::vector<std::string> diffs = differences(recorded_switches, run.mechanisms);
    std::string all;
    for (const std::string& d : diffs)
      all += fmt::format("{}{}", all.empty() ? "" : " ", d);
    return fmt::format("no single switch blocks it; the file's switches together enable it ({})",
                       all);
  }
  std::string out = "blocked by ";
  for (std::size_t i = 0; i < blockers.size(); ++i) {
    out += fmt::format("{}{}", i == 0 ? "" : ", and by ", blockers[i]);
  }
  return out;
}

}  // namespace preemptcheck
