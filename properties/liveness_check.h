// Liveness check: no-starvation (spec/liveness.h) on the whole state graph of a scenario, its
// lasso as a counterexample file with the loop marked, and the judgement of a replayed lasso.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/liveness.h"
#include "checker/model.h"
#include "files/counterexample_yaml.h"
#include "impl/cluster.h"
#include "impl/scenario.h"
#include "impl/world.h"
#include "properties/schedule.h"

namespace preemptcheck {

/// The World alone as a checker::Model: liveness needs no safety monitor's memory, so two
/// paths to the same World are one state and a loop of the World is a cycle of the graph.
class WorldLivenessModel {
 public:
  using State = World;
  using Action = preemptcheck::Action;

  explicit WorldLivenessModel(const Cluster& cluster) : cluster_(&cluster) {}

  World initial_state() const { return World(*cluster_); }
  void enabled_actions(const World& w, std::vector<Action>& out) const { w.enabled_actions(out); }
  World next_state(const World& w, const Action& a, checker::Observation&) const;
  void check_initial(const World&, checker::Observation&) const {}
  std::uint64_t fingerprint(const World& w) const { return w.fingerprint(); }
  const std::vector<checker::PropertyInfo>& properties() const { return properties_; }

 private:
  const Cluster* cluster_;
  std::vector<checker::PropertyInfo> properties_;
};

static_assert(checker::Model<WorldLivenessModel>);

/// found-by methods of a lasso file: searched under weak fairness of spec::fair_class, or with
/// no fairness at all (every loop counts, even one that neglects the scheduler's own steps).
inline constexpr std::string_view kLivenessMethod = "liveness";
inline constexpr std::string_view kLivenessUnfairMethod = "liveness-unfair";

/// no-starvation over `cluster`'s pods (one obligation per pod, in pod order), in its
/// recurring form, under the weak fairness of spec::fair_class or none. `cluster` must
/// outlive the property.
checker::LivenessProperty<WorldLivenessModel> no_starvation(const Cluster& cluster,
                                                            bool fairness = true);

/// What check_no_starvation() found.
struct LivenessRun {
  checker::LivenessStatus status = checker::LivenessStatus::kHolds;
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  /// When violated: the lasso as a file's value, its loop marked (Counterexample::loop).
  std::optional<Counterexample> counterexample;
  std::string detail;  ///< for kModelCapacity, what is full
};

/// The lasso `found` (a no-starvation violation over `scenario`, after `states` states) as a
/// file's value: its steps, its loop marked, `command` in the header.
Counterexample starvation_counterexample(const Scenario& scenario, const Cluster& cluster,
                                         const checker::Lasso<Action>& lasso, std::uint64_t states,
                                         std::string command, bool fairness);

/// Builds the state graph of `scenario` (at most `max_states` states) and searches it for a
/// lasso on which a pod starves, fair unless `fairness` is off. `command` goes into the
/// file's header.
LivenessRun check_no_starvation(const Scenario& scenario, std::uint64_t max_states,
                                std::string command, bool fairness = true);

/// What a replayed lasso shows.
struct LassoVerdict {
  /// The state after the last step is the state after step `loop` (an empty cycle: the
  /// state has no enabled action).
  bool returns = false;
  /// The first pod (in pod order) that starves on the loop, with no-starvation's message;
  /// empty when none does.
  std::string message;
  /// Why no pod starves, when none does: the loop discharges or never triggers every
  /// obligation, or it neglects a fair step (named).
  std::string why_not;
};

/// Judges `schedule` (every step replayed) as a lasso whose loop starts after step `loop`,
/// under weak fairness or none.
LassoVerdict judge_lasso(const Schedule& schedule, std::size_t loop, bool fairness = true);

}  // namespace preemptcheck
