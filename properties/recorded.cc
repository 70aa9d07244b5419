// Recorded: a replayed schedule against its file's record (recorded.h).
#include "properties/recorded.h"

#include <fmt/format.h>

#include <algorithm>

#include "impl/show.h"

namespace preemptcheck {
namespace {

std::string messages(const std::vector<spec::PropertyMessage>& ms) {
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

std::string refusal(const Counterexample& cx, std::string_view file, bool allow_unverified) {
  if (!cx.recorded_digest) {
    if (allow_unverified)
      return {};
    return fmt::format(
        "{}: no scenario-digest: the file cannot show that its scenario and switches are "
        "those it was written for; a file written by an older version is checked again with "
        "'preemptcheck check --scenario-of {}' (add --out DIR for a new file), and a schedule "
        "written by hand replays, unverified, with --allow-unfingerprinted",
        file, file);
  }
  if (!cx.digest_matches()) {
    return fmt::format(
        "{}:{}:{}: scenario-digest {} does not match the inline scenario and switches (they "
        "digest to {}): the scenario, the profile or a switch was edited; regenerate it with "
        "check --out",
        file, cx.digest_line, cx.digest_column, format_fingerprint(*cx.recorded_digest),
        format_fingerprint(scenario_digest(cx.scenario)));
  }
  if (cx.every_step_fingerprinted() || allow_unverified)
    return {};
  for (std::size_t i = 0; i < cx.steps.size(); ++i) {
    if (cx.steps[i].fingerprint)
      continue;
    return fmt::format(
        "{}:{}:{}: step {} '{}' carries no fingerprint: a file without them cannot show that "
        "it replays as written; regenerate it with check --out, or replay it with "
        "--allow-unfingerprinted",
        file, cx.steps[i].line, cx.steps[i].column, i + 1, cx.steps[i].text);
  }
  return {};
}

bool is_unverified(const Counterexample& cx) {
  return !cx.recorded_digest || !cx.every_step_fingerprinted();
}

std::string fingerprint_divergence(const Counterexample& cx, const Schedule& schedule,
                                   std::size_t i, std::string_view file) {
  const CounterexampleStep& s = cx.steps[i];
  const std::uint64_t replayed = schedule.steps[i].fingerprint;
  if (!s.fingerprint || *s.fingerprint == replayed)
    return {};
  return fmt::format(
      "{}:{}:{}: diverged at step {} ('{}'): the state after it has fingerprint {}, the file "
      "records {}; the model or the file changed since it was written: regenerate it with "
      "check --out",
      file, s.line, s.column, i + 1, s.text, format_fingerprint(replayed),
      format_fingerprint(*s.fingerprint));
}

namespace {

// The first step (0: the initial state) where `property` broke, and its message there.
const spec::PropertyMessage* first_break_of(const Schedule& schedule, std::string_view property,
                                            std::size_t& step) {
  for (step = 0; step <= schedule.steps.size(); ++step) {
    for (const auto& m : schedule.violated_at(step)) {
      if (m.name == property)
        return &m;
    }
  }
  return nullptr;
}

// Whether `m` is one of the file's recorded `also` at its last step.
bool is_recorded_also(const Counterexample& cx, const spec::PropertyMessage& m) {
  return std::find(cx.also.begin(), cx.also.end(), m) != cx.also.end();
}

}  // namespace

std::string divergence(const Counterexample& cx, const Schedule& schedule) {
  const std::size_t n = schedule.steps.size();
  std::size_t step = 0;
  const spec::PropertyMessage* recorded = first_break_of(schedule, cx.property, step);
  if (recorded == nullptr) {
    return fmt::format(
        "the recorded violation of {} does not occur by the last step (step {}): {} held at "
        "every step",
        cx.property, n, cx.property);
  }
  if (step < n) {
    return fmt::format("{} broke {}, before the recorded last step {}: {}", cx.property,
                       at_step(step), n, recorded->message);
  }
  if (recorded->message != cx.message) {
    return fmt::format("{} broke {} with message \"{}\"; the file records \"{}\"", cx.property,
                       at_step(n), recorded->message, cx.message);
  }
  const CheckedProperties checked = checked_by(cx);
  std::vector<spec::PropertyMessage> others;
  for (const auto& m : schedule.violated_at(n)) {
    const auto p = spec::find_property(m.name);
    if (m.name != cx.property && p && checked.test(static_cast<std::size_t>(*p)))
      others.push_back(m);
  }
  if (others != cx.also) {
    return fmt::format("{} also broke {}: {}; the file records also: {}", cx.property, at_step(n),
                       messages(others), messages(cx.also));
  }
  return {};
}

std::vector<std::string> met_on_the_way(const Counterexample& cx, const Schedule& schedule) {
  std::vector<std::string> met;
  std::vector<std::string> seen{cx.property};
  const std::size_t n = schedule.steps.size();
  for (std::size_t k = 0; k <= n; ++k) {
    for (const auto& m : schedule.violated_at(k)) {
      if (std::find(seen.begin(), seen.end(), m.name) != seen.end())
        continue;
      seen.push_back(m.name);
      if (k == n && is_recorded_also(cx, m))
        continue;
      met.push_back(fmt::format("{} broke {}: {}", m.name, at_step(k), m.message));
    }
  }
  return met;
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
