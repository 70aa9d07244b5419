// Liveness: fair lassos on an explicit state graph. A property of the form "whenever
// obligation k is triggered, it is eventually discharged" — G(p_k -> F q_k), as in SPIN's
// acceptance cycles or TLC's temporal checking — is violated by an infinite run that reaches
// a state where p_k holds and afterwards never passes a state where q_k holds, and which is
// weakly fair: every fair action class enabled in every state of its loop is taken on it. On a
// finite graph such a run can be taken to be a lasso: a prefix, then a cycle repeated forever.
//
// Why an explicit graph, and how: the spaces a liveness question is asked of are small, so
// the whole reachable graph is built (bounded by max_states: a cut graph is reported as a
// limit, never as "holds"). The deterministic monitor of F(p_k & G !q_k) is a flag set at a
// p_k state and cleared at a q_k state; its run is accepting when the flag stays set, so a
// violation is a reachable cycle of flagged states. The flagged part of the product is cut
// into strongly connected components (Boost.Graph's strong_components); a nontrivial one is
// weakly fair unless some fair class is enabled in all of its states and taken on none of its
// inner steps — then no cycle inside it is fair (every cycle in it has that class enabled
// throughout), and with weak fairness no finer search is needed. A state with no enabled
// action stutters forever: with the flag set it is a lasso whose cycle is empty. The recurring
// form (GF triggered_k -> F discharged_k) flags every undischarged state and asks a component
// to hold a triggered state, which its cycle then passes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "checker/model.h"

namespace preemptcheck::checker {

/// What a violation of obligation k is.
enum class LivenessForm {
  /// G(triggered_k -> F discharged_k): a run that passes a triggered state and is never
  /// discharged after it.
  kLeadsTo,
  /// GF triggered_k -> F discharged_k: a run never discharged from some point on that passes
  /// triggered states infinitely often (its cycle passes one). An obligation that arises
  /// once and then goes away for good is not violated.
  kRecurring,
};

/// A liveness property G(triggered_k -> F discharged_k) (or its recurring form) for
/// obligations k in [0, obligations) on the states of M, and the fairness it is checked under.
template <Model M>
struct LivenessProperty {
  using State = typename M::State;
  using Action = typename M::Action;
  std::size_t obligations = 0;
  /// Obligation k arises in this state (e.g. a pod is pending and a cycle would bind it).
  std::function<bool(const State&, std::size_t)> triggered;
  /// Obligation k is met in this state (e.g. the pod is bound, or given up).
  std::function<bool(const State&, std::size_t)> discharged;
  /// The weak-fairness class of an action, or none for an action the run may neglect
  /// forever (a fault, a change of the cluster). Actions of one class are one fair step: the
  /// class is enabled when any of them is, taken when any of them is.
  std::function<std::optional<std::string>(const Action&)> fair_class;
  /// Off: every run counts, fair or not (a lasso is then any flagged cycle).
  bool fairness = true;
  LivenessForm form = LivenessForm::kLeadsTo;
};

/// How a liveness check ended.
enum class LivenessStatus {
  kHolds,          ///< the whole reachable graph was built and has no fair lasso
  kViolated,       ///< a fair lasso was found
  kTooManyStates,  ///< the graph has more than max_states states: nothing is proven
  /// The model's own bounded storage is full (next_state() threw std::length_error, as for
  /// kModelCapacityLimit in checker/explore_types.h): nothing is proven.
  kModelCapacity,
};

/// A run that violates obligation `obligation`: `prefix` from the initial state, then `cycle`
/// repeated forever; the cycle leaves the state the prefix reaches and returns to it. An
/// empty cycle is a state without enabled actions, where the run stops for good.
template <class Action>
struct Lasso {
  std::size_t obligation = 0;
  std::vector<Action> prefix;
  std::vector<Action> cycle;
};

/// What check_liveness() returns.
template <class Action>
struct LivenessResult {
  LivenessStatus status = LivenessStatus::kHolds;
  std::uint64_t states = 0;  ///< states built (max_states + 1 when cut)
  /// Steps of the graph built (when cut: the steps generated before the cut).
  std::uint64_t transitions = 0;
  std::optional<Lasso<Action>> lasso;
  std::string detail;  ///< for kModelCapacity, what is full
};

namespace detail {

/// The graph check_liveness() searches: states in breadth-first order (0 is the initial
/// state), steps in enabled_actions() order, each step's action index (into the state's
/// enabled actions) and its fair class (-1: unfair), and per state the fair classes enabled.
struct LivenessGraph {
  struct Step {
    std::uint32_t to = 0;
    std::uint32_t action = 0;
    int fair_class = -1;
  };
  std::vector<std::vector<Step>> steps;
  std::vector<std::vector<int>> enabled_classes;  ///< ascending, distinct
  std::size_t fair_classes = 0;
};

/// The prefix and cycle of a violation of one obligation, as state and step indices: the
/// path's steps are (state, index into steps[state]). Empty when the obligation holds.
struct LassoSteps {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> prefix;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> cycle;
};

/// Searches one obligation: triggered[s], discharged[s] per state.
std::optional<LassoSteps> find_lasso(const LivenessGraph& graph, const std::vector<bool>& triggered,
                                     const std::vector<bool>& discharged, bool fairness,
                                     LivenessForm form);

}  // namespace detail

/// Builds the reachable graph of `model` (refusing one of more than `max_states` states) and
/// searches it for a fair lasso violating `property`. Obligations are searched in order; the
/// first one violated gives the lasso, whose prefix is a shortest path (breadth-first, ties
/// to the state found first and the action enabled first) to a state of the first fair
/// component the monitor reaches, and whose cycle is built deterministically inside it.
/// Deterministic: the same model and property give the same lasso.
template <Model M>
LivenessResult<typename M::Action> check_liveness(const M& model,
                                                  const LivenessProperty<M>& property,
                                                  std::uint64_t max_states) {
  using Action = typename M::Action;
  using State = typename M::State;
  LivenessResult<Action> result;
  // States are kept only until they are expanded: what the search needs of each is its
  // steps and, per obligation, whether it is triggered or discharged there.
  std::deque<State> frontier;
  std::uint64_t discovered = 0;
  std::vector<std::vector<Action>> actions;  // per state, enabled_actions() in order
  std::unordered_map<std::uint64_t, std::uint32_t> id_of;
  std::map<std::string, int> class_ids;  // by name, then numbered in order of first sight
  std::vector<bool> triggered_at;        // [state * obligations + k]
  std::vector<bool> discharged_at;
  detail::LivenessGraph graph;

  auto add = [&](State s) -> std::optional<std::uint32_t> {
    const auto [it, inserted] =
        id_of.emplace(model.fingerprint(s), static_cast<std::uint32_t>(discovered));
    if (inserted) {
      if (discovered >= max_states) {
        return std::nullopt;
      }
      ++discovered;
      frontier.push_back(std::move(s));
    }
    return it->second;
  };
  add(model.initial_state());
  Observation scratch;
  while (!frontier.empty()) {
    const State current = std::move(frontier.front());
    frontier.pop_front();
    for (std::size_t k = 0; k < property.obligations; ++k) {
      const bool discharged = property.discharged(current, k);
      discharged_at.push_back(discharged);
      triggered_at.push_back(!discharged && property.triggered(current, k));
    }
    std::vector<Action> enabled;
    model.enabled_actions(current, enabled);
    std::vector<detail::LivenessGraph::Step> steps;
    std::vector<int> classes;
    for (std::size_t i = 0; i < enabled.size(); ++i) {
      scratch.clear();
      std::optional<State> next;
      try {
        next = model.next_state(current, enabled[i], scratch);
      } catch (const std::length_error& e) {
        result.status = LivenessStatus::kModelCapacity;
        result.detail = e.what();
        return result;
      }
      const auto to = add(std::move(*next));
      if (!to) {
        result.status = LivenessStatus::kTooManyStates;
        result.states = max_states + 1;
        return result;
      }
      int fair = -1;
      if (const auto name = property.fair_class(enabled[i])) {
        fair = class_ids.emplace(*name, static_cast<int>(class_ids.size())).first->second;
        classes.push_back(fair);
      }
      steps.push_back({*to, static_cast<std::uint32_t>(i), fair});
      ++result.transitions;
    }
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
    graph.steps.push_back(std::move(steps));
    graph.enabled_classes.push_back(std::move(classes));
    actions.push_back(std::move(enabled));
  }
  graph.fair_classes = class_ids.size();
  result.states = discovered;
  const std::size_t n = graph.steps.size();

  for (std::size_t k = 0; k < property.obligations; ++k) {
    std::vector<bool> triggered(n);
    std::vector<bool> discharged(n);
    for (std::size_t s = 0; s < n; ++s) {
      discharged[s] = discharged_at[s * property.obligations + k];
      triggered[s] = triggered_at[s * property.obligations + k];
    }
    const auto found =
        detail::find_lasso(graph, triggered, discharged, property.fairness, property.form);
    if (!found) {
      continue;
    }
    Lasso<Action> lasso;
    lasso.obligation = k;
    for (const auto& [s, step] : found->prefix) {
      lasso.prefix.push_back(actions[s][graph.steps[s][step].action]);
    }
    for (const auto& [s, step] : found->cycle) {
      lasso.cycle.push_back(actions[s][graph.steps[s][step].action]);
    }
    result.status = LivenessStatus::kViolated;
    result.lasso = std::move(lasso);
    return result;
  }
  return result;
}

}  // namespace preemptcheck::checker
