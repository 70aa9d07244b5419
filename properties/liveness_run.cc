// `check --liveness` as a value (liveness_run.h).
#include "properties/liveness_run.h"

#include <chrono>
#include <utility>
#include <vector>

#include "checker/liveness.h"
#include "checker/peak_memory.h"
#include "properties/schedule.h"
#include "spec/liveness.h"

namespace preemptcheck {
namespace {

using Clock = std::chrono::steady_clock;

// Thrown out of the graph build when the deadline has passed.
struct DeadlinePassed {};

// The scheduler's liveness model, counting what the build asks of it and refusing to go on
// past the deadline: the build asks for a state's enabled actions once, when it expands it.
class DeadlineModel {
 public:
  using State = World;
  using Action = preemptcheck::Action;

  DeadlineModel(const WorldLivenessModel& inner, std::optional<Clock::time_point> deadline)
      : inner_(&inner), deadline_(deadline) {}

  World initial_state() const { return inner_->initial_state(); }
  void enabled_actions(const World& w, std::vector<Action>& out) const {
    if (deadline_ && Clock::now() >= *deadline_)
      throw DeadlinePassed{};
    ++expanded_;
    inner_->enabled_actions(w, out);
  }
  World next_state(const World& w, const Action& a, checker::Observation& o) const {
    ++steps_;
    return inner_->next_state(w, a, o);
  }
  void check_initial(const World& w, checker::Observation& o) const { inner_->check_initial(w, o); }
  std::uint64_t fingerprint(const World& w) const { return inner_->fingerprint(w); }
  const std::vector<checker::PropertyInfo>& properties() const { return inner_->properties(); }

  std::uint64_t expanded() const { return expanded_; }
  std::uint64_t steps() const { return steps_; }

 private:
  const WorldLivenessModel* inner_;
  std::optional<Clock::time_point> deadline_;
  mutable std::uint64_t expanded_ = 0;
  mutable std::uint64_t steps_ = 0;
};

static_assert(checker::Model<DeadlineModel>);

}  // namespace

TimedLivenessRun run_no_starvation(const Scenario& scenario, std::uint64_t max_states,
                                   std::optional<double> seconds, std::string command,
                                   bool fairness) {
  const Clock::time_point start = Clock::now();
  std::optional<Clock::time_point> deadline;
  if (seconds) {
    deadline = start +
               std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(*seconds));
  }
  const Cluster cluster(scenario);
  const WorldLivenessModel inner(cluster);
  const DeadlineModel model(inner, deadline);
  const auto world_property = no_starvation(cluster, fairness);
  checker::LivenessProperty<DeadlineModel> property;
  property.obligations = world_property.obligations;
  property.triggered = world_property.triggered;
  property.discharged = world_property.discharged;
  property.fair_class = world_property.fair_class;
  property.fairness = world_property.fairness;
  property.form = world_property.form;

  TimedLivenessRun timed;
  const auto finish = [&] {
    timed.stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    timed.stats.states_per_second =
        timed.stats.seconds > 0 ? static_cast<double>(timed.stats.states) / timed.stats.seconds : 0;
    timed.stats.peak_rss_bytes = checker::peak_rss_bytes();
  };
  checker::LivenessResult<Action> found;
  try {
    found = checker::check_liveness(model, property, max_states);
  } catch (const DeadlinePassed&) {
    timed.limit = std::string(checker::kTimeLimit);
    timed.run.status = checker::LivenessStatus::kTooManyStates;
    timed.stats.states = model.expanded();
    timed.stats.transitions = model.steps();
    finish();
    return timed;
  }
  timed.run =
      LivenessRun{found.status, found.states, found.transitions, std::nullopt, found.detail};
  timed.stats.states = found.states;
  timed.stats.transitions = found.transitions;
  finish();
  if (found.lasso) {
    timed.run.counterexample = starvation_counterexample(
        scenario, cluster, *found.lasso, found.states, std::move(command), fairness);
  }
  return timed;
}

LivenessCheckRun run_liveness_check(const CheckRequest& request, const Scenario& scenario,
                                    const std::string& command) {
  LivenessCheckRun out;
  out.max_states = request.limits.max_states.value_or(kDefaultLivenessStates);
  out.timed = run_no_starvation(scenario, out.max_states, request.limits.time_limit_seconds,
                                command, !request.unfair);
  const LivenessRun& run = out.timed.run;
  out.limit = out.timed.limit;
  if (out.limit.empty() && run.status == checker::LivenessStatus::kTooManyStates)
    out.limit = std::string(checker::kMaxStatesLimit);
  if (run.status == checker::LivenessStatus::kModelCapacity) {
    out.limit = std::string(checker::kModelCapacityLimit);
    out.limit_detail = run.detail;
  }
  out.outcome = !out.limit.empty()   ? checker::Outcome::kLimitReached
                : run.counterexample ? checker::Outcome::kViolated
                                     : checker::Outcome::kHolds;
  out.exit_code = out.outcome == checker::Outcome::kHolds      ? 0
                  : out.outcome == checker::Outcome::kViolated ? 1
                                                               : 3;
  if (request.gated()) {
    out.expectations.push_back(
        liveness_expectation(out.outcome, run.counterexample ? &*run.counterexample : nullptr,
                             !request.expect_violated.empty()));
    out.exit_code = expectations_exit_code(out.expectations);
  }
  return out;
}

}  // namespace preemptcheck
