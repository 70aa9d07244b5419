// Explore path: step words in a URL, the askable steps and a search from a reached state
// (explore_path.h).
#include "properties/explore_path.h"

#include <fmt/format.h>

#include <memory>
#include <random>

#include "checker/explore_types.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck {

std::string format_path(const std::vector<Action>& actions, const Cluster& cluster) {
  std::string out;
  for (const Action& a : actions)
    out += (out.empty() ? "" : ",") + format_action(a, cluster);
  return out;
}

std::optional<std::vector<Action>> parse_path(std::string_view text, const Cluster& cluster,
                                              std::string& error) {
  std::vector<Action> out;
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && blank(text.front()))
    text.remove_prefix(1);
  if (text.empty())
    return out;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos)
      end = text.size();
    if (out.size() == kMaxExplorePathSteps) {
      error = fmt::format("a path of at most {} steps", kMaxExplorePathSteps);
      return std::nullopt;
    }
    std::string why;
    const std::optional<Action> a = parse_action(text.substr(start, end - start), cluster, &why);
    if (!a) {
      error = fmt::format("step {} '{}': {}", out.size() + 1, text.substr(start, end - start), why);
      return std::nullopt;
    }
    out.push_back(*a);
    start = end + 1;
  }
  return out;
}

std::vector<Action> askable_actions(const Cluster& cluster) {
  std::vector<Action> out;
  const int pods = cluster.pod_count();
  const auto pod = [](int p) { return static_cast<PodId>(p); };
  for (int k = 0; k <= static_cast<int>(ActionKind::kBindingPreempted); ++k) {
    const auto kind = static_cast<ActionKind>(k);
    switch (kind) {
      case ActionKind::kObserve:
      case ActionKind::kFlush:
      case ActionKind::kRestart:
        out.push_back(Action{kind, kNoPod, kNoPod, kNoNode});
        break;
      case ActionKind::kEvict:
      case ActionKind::kEvictFails:
        for (int p = 0; p < pods; ++p) {
          for (int v = 0; v < pods; ++v) {
            if (cluster.priority(pod(v)) < cluster.priority(pod(p)))
              out.push_back(Action{kind, pod(p), pod(v), kNoNode});
          }
        }
        break;
      case ActionKind::kCreateNode:
        for (int n = 0; n < cluster.node_count(); ++n)
          out.push_back(Action{kind, kNoPod, kNoPod, static_cast<NodeId>(n)});
        break;
      case ActionKind::kExternalBind:
        for (int p = 0; p < pods; ++p) {
          for (int n = 0; n < cluster.node_count(); ++n)
            out.push_back(Action{kind, pod(p), kNoPod, static_cast<NodeId>(n)});
        }
        break;
      case ActionKind::kPdbSync:
        for (std::size_t b = 0; b < cluster.scenario().pdbs.size(); ++b)
          out.push_back(Action{kind, kNoPod, kNoPod, static_cast<NodeId>(b)});
        break;
      case ActionKind::kSchedule:
      case ActionKind::kBind:
      case ActionKind::kBindFails:
      case ActionKind::kClearNominations:
      case ActionKind::kFinish:
      case ActionKind::kTerminate:
      case ActionKind::kCreate:
      case ActionKind::kDelete:
      case ActionKind::kCycleEnd:
      case ActionKind::kBackoffExpires:
      case ActionKind::kLateBind:
      case ActionKind::kLateEvict:
      case ActionKind::kStatusPatch:
      case ActionKind::kRecreate:
      case ActionKind::kBindingPreempted:
        for (int p = 0; p < pods; ++p)
          out.push_back(Action{kind, pod(p), kNoPod, kNoNode});
        break;
    }
  }
  return out;
}

std::optional<std::size_t> first_break(const Schedule& schedule, std::string_view name) {
  for (std::size_t k = 0; k <= schedule.steps.size(); ++k) {
    for (const spec::PropertyMessage& m : schedule.violated_at(k)) {
      if (m.name == name)
        return k;
    }
  }
  return std::nullopt;
}

RandomWalk random_walk_from(const Schedule& schedule, std::uint64_t seed, std::uint32_t depth) {
  const WorldModel model(schedule.cluster);
  const std::size_t k = schedule.steps.size();
  WorldState s{schedule.world_at(k), schedule.ledger_at(k)};
  std::mt19937_64 random(seed);  // its sequence is fixed by the standard, on every machine
  std::vector<Action> enabled;
  RandomWalk walk;
  for (std::uint32_t i = 0; i < depth; ++i) {
    enabled.clear();
    model.enabled_actions(s, enabled);
    if (enabled.empty()) {
      walk.stopped = "no step is enabled";
      return walk;
    }
    const Action a = enabled[static_cast<std::size_t>(random() % enabled.size())];
    checker::Observation obs;
    s = model.next_state(s, a, obs);
    walk.steps.push_back(a);
    if (!obs.violated.empty()) {
      const auto& [property, message] = obs.violated.front();
      walk.stopped = fmt::format("{} broke: {}", model.properties()[property].name, message);
      return walk;
    }
  }
  walk.stopped = fmt::format("{} steps taken", depth);
  return walk;
}

ViolationSearch shortest_violation_from(
    const Schedule& schedule, spec::Property property, std::uint64_t max_states,
    const std::atomic<int>* interrupt,
    const std::function<void(std::uint64_t states, std::uint32_t depth)>& progress) {
  std::bitset<spec::kPropertyCount> checked;
  checked.set(static_cast<std::size_t>(property));
  WorldModel model(schedule.cluster, checked);
  const std::size_t k = schedule.steps.size();
  model.start_from(WorldState{schedule.world_at(k), schedule.ledger_at(k)});
  checker::Limits limits;
  limits.max_states = max_states;
  limits.interrupt = interrupt;
  checker::ExploreOptions<Action> opts;
  if (progress) {
    opts.progress = [&progress](const checker::Stats& s) { progress(s.states, s.depth); };
    opts.progress_interval_seconds = 0.5;
  }
  const checker::Result<Action> r = explore_world(model, limits, opts);
  ViolationSearch out;
  out.states = r.stats.states;
  out.depth = r.stats.depth;
  out.limit = r.limit;
  if (r.violation) {
    out.found = true;
    out.steps = r.violation->path;
    out.message = r.violation->message;
  }
  return out;
}

}  // namespace preemptcheck
