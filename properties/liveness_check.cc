// Liveness check: the graph search, the lasso's file and the replay's judgement of it.
#include "properties/liveness_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>

#include "spec/liveness.h"

namespace preemptcheck {

World WorldLivenessModel::next_state(const World& w, const Action& a, checker::Observation&) const {
  World next = w;
  next.apply(a);
  return next;
}

checker::LivenessProperty<WorldLivenessModel> no_starvation(const Cluster& cluster, bool fairness) {
  checker::LivenessProperty<WorldLivenessModel> p;
  p.fairness = fairness;
  p.obligations = static_cast<std::size_t>(cluster.pod_count());
  p.triggered = [](const World& w, std::size_t k) {
    return spec::could_progress(w, static_cast<PodId>(k));
  };
  p.discharged = [](const World& w, std::size_t k) {
    return spec::is_placed_or_gone(w, static_cast<PodId>(k));
  };
  p.fair_class = [&cluster](const Action& a) { return spec::fair_class(a, cluster); };
  p.form = checker::LivenessForm::kRecurring;
  return p;
}

Counterexample starvation_counterexample(const Scenario& scenario, const Cluster& cluster,
                                         const checker::Lasso<Action>& lasso, std::uint64_t states,
                                         std::string command, bool fairness) {
  std::vector<Action> actions = lasso.prefix;
  actions.insert(actions.end(), lasso.cycle.begin(), lasso.cycle.end());
  const Schedule schedule = replay_schedule(scenario, actions);
  Counterexample cx;
  cx.property = std::string(spec::kNoStarvation);
  cx.message = spec::starvation_message(cluster, static_cast<PodId>(lasso.obligation));
  cx.found_by.method = std::string(fairness ? kLivenessMethod : kLivenessUnfairMethod);
  cx.found_by.shortest = false;  // the prefix is shortest; the loop is one fair loop
  cx.found_by.states = states;
  cx.found_by.depth = static_cast<std::uint32_t>(actions.size());
  cx.scenario = scenario;
  cx.command = std::move(command);
  cx.steps = counterexample_steps(schedule);
  cx.loop = lasso.prefix.size();
  return cx;
}

LivenessRun check_no_starvation(const Scenario& scenario, std::uint64_t max_states,
                                std::string command, bool fairness) {
  const Cluster cluster(scenario);
  const WorldLivenessModel model(cluster);
  const auto found = checker::check_liveness(model, no_starvation(cluster, fairness), max_states);
  LivenessRun run{found.status, found.states, found.transitions, std::nullopt, found.detail};
  if (found.lasso) {
    run.counterexample = starvation_counterexample(scenario, cluster, *found.lasso, found.states,
                                                   std::move(command), fairness);
  }
  return run;
}

LassoVerdict judge_lasso(const Schedule& schedule, std::size_t loop, bool fairness) {
  LassoVerdict v;
  const std::size_t n = schedule.steps.size();
  const World& start = schedule.world_at(loop);
  const Cluster& cluster = start.cluster();
  std::vector<Action> enabled;
  if (n == loop) {
    start.enabled_actions(enabled);
    v.returns = enabled.empty();
  } else {
    v.returns = schedule.world_at(n).fingerprint() == start.fingerprint();
  }
  if (!v.returns)
    return v;
  // The loop's states: after steps loop .. n-1 (just `loop` for an empty cycle).
  const std::size_t last = std::max(loop, n == loop ? n : n - 1);
  // Fairness: every fair class enabled in all of them is taken on the loop.
  std::set<std::string> always;
  for (std::size_t k = loop; k <= last; ++k) {
    enabled.clear();
    schedule.world_at(k).enabled_actions(enabled);
    std::set<std::string> here;
    for (const Action& a : enabled) {
      if (auto c = spec::fair_class(a, cluster))
        here.insert(std::move(*c));
    }
    if (k == loop) {
      always = std::move(here);
    } else {
      std::erase_if(always, [&](const std::string& c) { return here.count(c) == 0; });
    }
  }
  for (std::size_t k = loop + 1; k <= n; ++k) {
    if (auto c = spec::fair_class(schedule.steps[k - 1].action, cluster))
      always.erase(*c);
  }
  if (fairness && !always.empty()) {
    v.why_not = fmt::format(
        "the loop is not fair: '{}' is enabled in every state of it and "
        "never taken",
        *always.begin());
    return v;
  }
  for (PodId p = 0; p < cluster.pod_count(); ++p) {
    bool starves = true;
    bool triggered = false;
    for (std::size_t k = loop; k <= last; ++k) {
      starves = starves && !spec::is_placed_or_gone(schedule.world_at(k), p);
      triggered = triggered || spec::could_progress(schedule.world_at(k), p);
    }
    if (starves && triggered) {
      v.message = spec::starvation_message(cluster, p);
      return v;
    }
  }
  v.why_not = "on the loop every pod is bound, gone, or never could be bound or preempt";
  return v;
}

}  // namespace preemptcheck
