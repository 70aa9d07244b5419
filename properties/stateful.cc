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
#include "spec/monitor.h"

namespace preemptcheck {
namespace {

using Clock = std::chrono::steady_clock;
using Checked = std::bitset<spec::kPropertyCount>;

// The checked violations of a verdict, first one first; empty when none.
std::vector<std::pair<std::string, std::string>> checked_violations(const spec::Findings& v,
                                                                    const Checked& checked) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [property, message] : v.violated) {
    if (!checked.test(static_cast<std::size_t>(property))) continue;
    const std::string name(spec::property_def(property).name);
    bool seen = false;
    for (const auto& o : out) seen = seen || o.first == name;
    if (!seen) out.emplace_back(name, message);
  }
  return out;
}

BrokenSchedule broken(const Scenario& scenario, std::vector<Action> steps,
                      std::vector<std::pair<std::string, std::string>> violations) {
  BrokenSchedule b;
  b.scenario = scenario;
  b.steps = std::move(steps);
  b.property = violations.front().first;
  b.message = violations.front().second;
  b.also.assign(violations.begin() + 1, violations.end());
  return b;
}

// What a run records: the steps taken so far, and where failing runs go.
struct Recorder {
  std::optional<BrokenSchedule> first;
  std::optional<BrokenSchedule> last;

  void fail(BrokenSchedule b) {
    if (!first) first = b;
    last = std::move(b);
  }
};

struct Runner {
  const Scenario* scenario = nullptr;
  const Checked* checked = nullptr;
  Recorder* recorder = nullptr;
  std::vector<Action> steps;
  spec::Ledger ledger;  ///< the monitors' memory of `steps`
};

using Command = rc::state::Command<World, Runner>;

// One step: an action enabled in the model state, or nothing when no action is enabled.
class Step final : public Command {
 public:
  Step(std::optional<Action> action, std::string text)
      : action_(action), text_(std::move(text)) {}

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
    if (action_) s0.apply(*action_);
  }

  void run(const World& s0, Runner& runner) const override {
    if (!action_) return;
    World after = s0;
    const StepReport report = after.apply(*action_);
    runner.steps.push_back(*action_);
    spec::Findings v;
    spec::check_step(s0, report, after, runner.ledger, v);
    auto violations = checked_violations(v, *runner.checked);
    if (violations.empty()) return;
    const std::string what = fmt::format("{}: {}", violations.front().first,
                                         violations.front().second);
    runner.recorder->fail(broken(*runner.scenario, runner.steps, std::move(violations)));
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
    const auto gen = rc::gen::noShrink(
        gen_scenario(o_.bounds, "generated", o_.profile, o_.mechanisms));
    RapidCheckRun run;
    run.seed = o_.seed;
    run.max_success = o_.runs;
    run.on_case = [this] { report(); };
    run.on_shrink = [this](bool accepted) {
      ++r_.shrinks_tried;
      if (accepted) ++r_.shrinks_accepted;
      report();
    };
    const RapidCheckOutcome outcome = run_rapidcheck(
        [&] {
          const Scenario scenario = *gen;
          // RapidCheck shrinks after this call returns, on Worlds that point at the cluster:
          // it lives as long as the search.
          clusters_.push_back(std::make_unique<const Cluster>(scenario));
          const World initial(*clusters_.back());
          spec::Findings v;
          spec::check_state(initial, v);
          auto violations = checked_violations(v, o_.checked);
          if (!violations.empty()) {
            recorder_.fail(broken(scenario, {}, std::move(violations)));
            RC_FAIL("the initial state violates a property");
          }
          const auto commands =
              *rc::gen::resize(std::max(0, o_.max_steps - 1),
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
      case RapidCheckOutcome::Kind::kSuccess:
        r_.outcome = StatefulResult::Outcome::kHolds;
        break;
      case RapidCheckOutcome::Kind::kFailure:
        r_.outcome = recorder_.last ? StatefulResult::Outcome::kViolated
                                    : StatefulResult::Outcome::kError;
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
    if (!o_.progress) return;
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

// The steps of `from`, by pod name, as actions of `to`; nothing when a pod is missing.
std::optional<std::vector<Action>> translate(const std::vector<Action>& steps, const Cluster& from,
                                             const Cluster& to) {
  std::vector<Action> out;
  for (const Action& a : steps) {
    auto b = parse_action(format_action(a, from), to);
    if (!b) return std::nullopt;
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

}  // namespace

ScheduleReplay replay_schedule(const Scenario& scenario, const std::vector<Action>& steps,
                               const Checked& checked) {
  ScheduleReplay out;
  const Cluster cluster(scenario);
  World w(cluster);
  spec::Ledger ledger(w.cluster());
  spec::Findings initial;
  spec::check_state(w, initial);
  auto violations = checked_violations(initial, checked);
  if (!violations.empty()) {
    out.broken = broken(scenario, {}, std::move(violations));
    return out;
  }
  for (const Action& a : steps) {
    if (!w.is_enabled(a)) {
      out.enabled = false;
      return out;
    }
    const World before = w;
    const StepReport report = w.apply(a);
    ++out.steps;
    spec::Findings v;
    spec::check_step(before, report, w, ledger, v);
    violations = checked_violations(v, checked);
    if (!violations.empty()) {
      out.broken = broken(scenario, std::vector<Action>(steps.begin(),
                                                        steps.begin() + static_cast<long>(out.steps)),
                          std::move(violations));
      return out;
    }
  }
  return out;
}

BrokenSchedule reduce_cluster(const BrokenSchedule& start, const Checked& checked) {
  BrokenSchedule best = start;
  // Tries `candidate` under best's schedule; keeps it when the same property still breaks.
  auto attempt = [&](const Scenario& candidate) {
    const Cluster from(best.scenario);
    const Cluster to(candidate);
    const auto steps = translate(best.steps, from, to);
    if (!steps) return false;
    ScheduleReplay r = replay_schedule(candidate, *steps, checked);
    if (!r.enabled || !r.broken || r.broken->property != best.property) return false;
    best = std::move(*r.broken);
    return true;
  };
  for (bool progress = true; progress;) {
    progress = false;
    // Runs of steps, halving their length, from the last: the schedule must still run and
    // break.
    for (std::size_t chunk = std::max<std::size_t>(1, best.steps.size() / 2); chunk > 0;
         chunk /= 2) {
      for (std::size_t end = best.steps.size(); end >= chunk && end > 0; --end) {
        if (end > best.steps.size()) continue;
        std::vector<Action> steps = best.steps;
        steps.erase(steps.begin() + static_cast<long>(end - chunk),
                    steps.begin() + static_cast<long>(end));
        ScheduleReplay r = replay_schedule(best.scenario, steps, checked);
        if (r.enabled && r.broken && r.broken->property == best.property) {
          best = std::move(*r.broken);
          progress = true;
        }
      }
    }
    for (std::size_t i = best.scenario.pods.size(); i-- > 0;) {
      Scenario s = best.scenario;
      s.pods.erase(s.pods.begin() + static_cast<long>(i));
      if (attempt(s)) progress = true;
    }
    for (std::size_t i = best.scenario.nodes.size(); i-- > 0 && best.scenario.nodes.size() > 1;) {
      Scenario s = best.scenario;
      const std::string name = s.nodes[i].name;
      s.nodes.erase(s.nodes.begin() + static_cast<long>(i));
      std::erase_if(s.pods, [&](const PodSpec& p) { return p.node == name; });
      if (attempt(s)) progress = true;
    }
    if (!best.scenario.pdbs.empty()) {
      Scenario s = best.scenario;
      s.pdbs.clear();
      for (PodSpec& p : s.pods) p.labels.clear();
      if (attempt(s)) progress = true;
    }
    // Fault budgets and the executor's worker limit, each to zero.
    for (int Scenario::*field : {&Scenario::workers}) {
      if (best.scenario.*field == 0) continue;
      Scenario s = best.scenario;
      s.*field = 0;
      if (attempt(s)) progress = true;
    }
    for (int Faults::*field : {&Faults::eviction_failures, &Faults::binding_failures}) {
      if (best.scenario.faults.*field == 0) continue;
      Scenario s = best.scenario;
      s.faults.*field = 0;
      if (attempt(s)) progress = true;
    }
  }
  // Renaming keeps every pod's position, so the steps stay as they are; the messages name
  // the new names.
  ScheduleReplay r = replay_schedule(renamed(best.scenario), best.steps, checked);
  if (r.enabled && r.broken && r.broken->property == best.property) best = std::move(*r.broken);
  return best;
}

StatefulResult run_stateful(const StatefulOptions& options) { return Stateful(options).run(); }

}  // namespace preemptcheck
