// Stateful: one command type, a step of the World, generated among the actions enabled in
// the model state; the model is the World itself, and running a command checks its step.
#include "properties/stateful.h"

#include <fmt/format.h>
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <memory>
#include <ostream>

#include "impl/world.h"
#include "properties/rapidcheck_run.h"
#include "properties/schedule.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"
#include "spec/monitor.h"

namespace preemptcheck {
namespace {

using Clock = std::chrono::steady_clock;

// What a run records: the steps taken so far, and where failing runs go.
struct Recorder {
  std::optional<BrokenSchedule> first;
  std::optional<BrokenSchedule> last;

  void fail(BrokenSchedule b) {
    if (!first)
      first = b;
    last = std::move(b);
  }
};

struct Runner {
  const Scenario* scenario = nullptr;
  const CheckedProperties* checked = nullptr;
  Recorder* recorder = nullptr;
  std::vector<Action> steps;
  spec::Ledger ledger;  ///< the monitors' memory of `steps`
};

using Command = rc::state::Command<World, Runner>;

// One step: an action enabled in the model state, or nothing when no action is enabled.
class Step final : public Command {
 public:
  Step(std::optional<Action> action, std::string text) : action_(action), text_(std::move(text)) {}

  void checkPreconditions(const World& s0) const override {
    if (action_) {
      RC_PRE(s0.is_enabled(*action_));
    } else {
      std::vector<Action> enabled;
      s0.enabled_actions(enabled);
      RC_PRE(enabled.empty());
    }
  }

  void apply(World& s0) const override {
    if (action_)
      s0.apply(*action_);
  }

  void run(const World& s0, Runner& runner) const override {
    if (!action_)
      return;
    World after = s0;
    const StepReport report = after.apply(*action_);
    runner.steps.push_back(*action_);
    spec::Findings v;
    spec::check_step(s0, report, after, runner.ledger, v);
    bool broke = false;
    for (const auto& [property, message] : v.violated) {
      broke = broke || runner.checked->test(static_cast<std::size_t>(property));
    }
    if (!broke)
      return;
    // What is recorded is the schedule's replay of the run, not this step's own findings.
    auto b = broken_schedule(
        *runner.scenario,
        replay_schedule(*runner.scenario, runner.steps, *runner.checked, StopAt::kFirstViolation));
    RC_ASSERT(b.has_value());
    const std::string what = fmt::format("{}: {}", b->property, b->message);
    runner.recorder->fail(std::move(*b));
    RC_FAIL(what);
  }

  void show(std::ostream& os) const override { os << text_; }

 private:
  std::optional<Action> action_;
  std::string text_;
};

// A step uniformly among the enabled actions, shrinking toward the earlier ones in the
// exploration order.
rc::Gen<std::shared_ptr<const Command>> gen_step(const World& w) {
  std::vector<Action> enabled;
  w.enabled_actions(enabled);
  if (enabled.empty()) {
    return rc::gen::just(std::shared_ptr<const Command>(
        std::make_shared<const Step>(std::nullopt, "(nothing is enabled)")));
  }
  const Cluster* cluster = &w.cluster();
  const int n = static_cast<int>(enabled.size());
  return rc::gen::map(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, n)),
                      [enabled = std::move(enabled), cluster](int i) {
                        const Action a = enabled[static_cast<std::size_t>(i)];
                        return std::shared_ptr<const Command>(
                            std::make_shared<const Step>(a, format_action(a, *cluster)));
                      });
}

class Stateful {
 public:
  explicit Stateful(const StatefulOptions& options) : o_(options), start_(Clock::now()) {}

  StatefulResult run() {
    const auto gen =
        rc::gen::noShrink(gen_scenario(o_.bounds, "generated", o_.profile, o_.mechanisms));
    RapidCheckRun run;
    run.seed = o_.seed;
    run.max_success = o_.runs;
    run.on_case = [this] { report(); };
    run.on_shrink = [this](bool accepted) {
      ++r_.shrinks_tried;
      if (accepted)
        ++r_.shrinks_accepted;
      report();
    };
    run.stop = [this] { return o_.interrupt != nullptr && o_.interrupt->load() != 0; };
    const RapidCheckOutcome outcome = run_rapidcheck(
        [&] {
          const Scenario scenario = *gen;
          // RapidCheck shrinks after this call returns, on Worlds that point at the cluster:
          // it lives as long as the search.
          clusters_.push_back(std::make_unique<const Cluster>(scenario));
          const World initial(*clusters_.back());
          if (auto b = broken_schedule(
                  scenario, replay_schedule(scenario, {}, o_.checked, StopAt::kFirstViolation))) {
            recorder_.fail(std::move(*b));
            RC_FAIL("the initial state violates a property");
          }
          const auto commands = *rc::gen::resize(std::max(0, o_.max_steps - 1),
                                                 rc::state::gen::commands(initial, gen_step));
          Runner runner{&scenario, &o_.checked, &recorder_, {}, spec::Ledger(initial.cluster())};
          rc::state::runAll(commands, initial, runner);
          if (!recorder_.first) {
            ++r_.runs;
            r_.steps += runner.steps.size();
          }
        },
        run);
    switch (outcome.kind) {
      case RapidCheckOutcome::Kind::kStopped:
        r_.interrupted = true;
        r_.outcome = recorder_.last ? StatefulResult::Outcome::kViolated
                                    : StatefulResult::Outcome::kInterrupted;
        break;
      case RapidCheckOutcome::Kind::kSuccess:
        r_.outcome = StatefulResult::Outcome::kHolds;
        break;
      case RapidCheckOutcome::Kind::kFailure:
        r_.outcome =
            recorder_.last ? StatefulResult::Outcome::kViolated : StatefulResult::Outcome::kError;
        break;
      case RapidCheckOutcome::Kind::kGaveUp:
        r_.outcome = StatefulResult::Outcome::kGaveUp;
        break;
      case RapidCheckOutcome::Kind::kError:
        r_.outcome = StatefulResult::Outcome::kError;
        break;
    }
    r_.message = outcome.message;
    if (r_.outcome == StatefulResult::Outcome::kViolated) {
      r_.found = recorder_.first;
      r_.shrunk = recorder_.last;
      r_.reduced = reduce_cluster(*r_.shrunk, o_.checked);
    }
    r_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    return std::move(r_);
  }

 private:
  void report() {
    if (!o_.progress)
      return;
    StatefulProgress p;
    p.runs = r_.runs;
    p.steps = r_.steps;
    p.shrinking = recorder_.first.has_value();
    p.shrinks_tried = r_.shrinks_tried;
    p.shrinks_accepted = r_.shrinks_accepted;
    p.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    o_.progress(p);
  }

  const StatefulOptions& o_;
  const Clock::time_point start_;
  StatefulResult r_;
  Recorder recorder_;
  std::deque<std::unique_ptr<const Cluster>> clusters_;  ///< every generated cluster, for shrinking
};

}  // namespace

checker::Result<Action> shortest_on_cluster(const BrokenSchedule& broken,
                                            std::uint64_t max_states) {
  CheckedProperties one;
  one.set(static_cast<std::size_t>(*spec::find_property(broken.property)));
  WorldModel model(std::make_shared<const Cluster>(broken.scenario), one);
  return explore_world(model, checker::Limits{max_states, std::nullopt, std::nullopt});
}

StatefulResult run_stateful(const StatefulOptions& options) { return Stateful(options).run(); }

}  // namespace preemptcheck
