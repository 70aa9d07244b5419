// Schedule: the one loop that walks a path (schedule.h).
#include "properties/schedule.h"

#include <fmt/format.h>

#include <stdexcept>

#include "impl/show.h"

namespace preemptcheck {
namespace {

// The checked violations of a verdict, each property once with its first message.
std::vector<spec::PropertyMessage> checked_violations(const spec::Findings& v,
                                                      const CheckedProperties& checked) {
  std::vector<spec::PropertyMessage> out;
  for (const auto& [property, message] : v.violated) {
    if (!checked.test(static_cast<std::size_t>(property)))
      continue;
    const std::string name(spec::property_def(property).name);
    bool seen = false;
    for (const auto& o : out)
      seen = seen || o.name == name;
    if (!seen)
      out.push_back({name, message});
  }
  return out;
}

std::string enabled_here(const World& w) {
  std::vector<Action> actions;
  w.enabled_actions(actions);
  std::string out;
  for (const Action& a : actions) {
    out += fmt::format("{}{}", out.empty() ? "" : ", ", format_action(a, w.cluster()));
  }
  return or_none(out, "nothing");
}

}  // namespace

const std::vector<spec::PropertyMessage>& Schedule::violated_at(std::size_t k) const {
  return k == 0 ? initial_violated : steps.at(k - 1).violated;
}

const World& Schedule::world_at(std::size_t k) const {
  return k == 0 ? initial : steps.at(k - 1).after;
}

const spec::Ledger& Schedule::ledger_at(std::size_t k) const {
  return k == 0 ? initial_ledger : steps.at(k - 1).ledger;
}

std::optional<std::size_t> Schedule::first_violation() const {
  for (std::size_t k = 0; k <= steps.size(); ++k) {
    if (!violated_at(k).empty())
      return k;
  }
  return std::nullopt;
}

Schedule replay_schedule(const Scenario& scenario, const std::vector<Action>& actions,
                         const CheckedProperties& checked, StopAt stop) {
  auto cluster = std::make_shared<const Cluster>(scenario);
  Schedule s{cluster, checked, World(*cluster), spec::Ledger(*cluster), {}, {}, {}, std::nullopt};
  spec::check_state(s.initial, s.initial_findings);
  s.initial_violated = checked_violations(s.initial_findings, checked);
  if (stop == StopAt::kFirstViolation && !s.initial_violated.empty())
    return s;
  for (const Action& a : actions) {
    const World& before = s.world_at(s.steps.size());
    if (!before.is_enabled(a)) {
      s.blocked = BlockedStep{s.steps.size() + 1, a, format_action(a, *cluster),
                              before.why_not_enabled(a), enabled_here(before)};
      return s;
    }
    World after = before;
    spec::Ledger ledger = s.ledger_at(s.steps.size());
    const StepReport report = after.apply(a);
    spec::Findings findings;
    spec::check_step(before, report, after, ledger, findings);
    std::string comment = describe_step(before, report, after);
    const std::uint64_t fingerprint = after.fingerprint();
    auto violated = checked_violations(findings, checked);
    s.steps.push_back(ScheduleStep{a, format_action(a, *cluster), std::move(comment), fingerprint,
                                   report, std::move(after), std::move(ledger), std::move(findings),
                                   std::move(violated)});
    if (stop == StopAt::kFirstViolation && !s.steps.back().violated.empty())
      return s;
  }
  return s;
}

Counterexample to_counterexample(const Schedule& schedule, const Scenario& scenario,
                                 std::string_view property, FoundBy found_by, std::string command) {
  if (schedule.blocked) {
    throw std::logic_error(
        fmt::format("to_counterexample: step {} is not enabled", schedule.blocked->number));
  }
  Counterexample cx;
  cx.property = std::string(property);
  bool found = false;
  for (const spec::PropertyMessage& m : schedule.violated_at(schedule.steps.size())) {
    if (m.name == property && !found) {
      cx.message = m.message;
      found = true;
    } else {
      cx.also.push_back(m);
    }
  }
  if (!found) {
    throw std::logic_error(
        fmt::format("to_counterexample: the last step does not break {}", property));
  }
  cx.found_by = std::move(found_by);
  cx.found_by.depth = static_cast<std::uint32_t>(schedule.steps.size());
  cx.found_by.properties.clear();
  if (!schedule.checked.all()) {
    for (const spec::PropertyDef& d : spec::property_table()) {
      if (!d.is_witness && schedule.checked.test(static_cast<std::size_t>(d.id))) {
        cx.found_by.properties.emplace_back(d.name);
      }
    }
  }
  cx.scenario = scenario;
  cx.command = std::move(command);
  cx.steps = counterexample_steps(schedule);
  return cx;
}

std::vector<CounterexampleStep> counterexample_steps(const Schedule& schedule) {
  std::vector<CounterexampleStep> steps;
  for (const ScheduleStep& s : schedule.steps) {
    CounterexampleStep step;
    step.action = s.action;
    step.text = s.text;
    step.fingerprint = s.fingerprint;
    step.comment = s.comment;
    steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace preemptcheck
