// Simulate: the walks on the WorldModel, in batches on threads, taken in walk order.
#include "properties/simulate.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <utility>

#include "checker/explore_types.h"
#include "checker/threads.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

// SplitMix64's finalizer: the generator's seed of walk `walk` of a run seeded `seed`.
std::uint64_t walk_seed(std::uint64_t seed, std::uint64_t walk) {
  std::uint64_t z = seed + (walk + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// What one walk found.
struct Walk {
  std::uint32_t steps = 0;
  std::vector<bool> reached;
  /// Per property index: the message and the walk up to its first violating state.
  std::vector<std::optional<std::pair<std::string, std::vector<Action>>>> violated;
};

// Records `obs` after the walk's `path`.
void note(const checker::Observation& obs, const std::vector<Action>& path, Walk& w) {
  for (const std::size_t p : obs.reached)
    w.reached[p] = true;
  for (const auto& [p, message] : obs.violated) {
    if (!w.violated[p])
      w.violated[p] = std::make_pair(message, path);
  }
}

Walk run_walk(const WorldModel& model, std::uint64_t seed, std::uint64_t number,
              std::uint32_t depth) {
  const std::size_t n = model.properties().size();
  Walk w;
  w.reached.assign(n, false);
  w.violated.resize(n);
  std::mt19937_64 random(walk_seed(seed, number));
  WorldState state = model.initial_state();
  checker::Observation obs;
  std::vector<Action> path;
  std::vector<Action> actions;
  model.check_initial(state, obs);
  note(obs, path, w);
  for (std::uint32_t d = 0; d < depth; ++d) {
    actions.clear();
    model.enabled_actions(state, actions);
    if (actions.empty())
      break;
    const Action a = actions[static_cast<std::size_t>(random() % actions.size())];
    obs.clear();
    state = model.next_state(state, a, obs);
    path.push_back(a);
    ++w.steps;
    note(obs, path, w);
  }
  return w;
}

}  // namespace

SimulateResult simulate(const Scenario& scenario, const SimulateOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const WorldModel model(std::make_shared<const Cluster>(scenario), o.checked);
  const std::vector<checker::PropertyInfo>& properties = model.properties();
  SimulateResult r;
  r.reached.assign(spec::kPropertyCount, false);
  std::vector<std::optional<SimulatedViolation>> found(properties.size());
  std::size_t to_find = 0;
  for (const checker::PropertyInfo& p : properties)
    to_find += p.kind == checker::PropertyKind::kAlways && p.checked ? 1 : 0;
  const unsigned threads = std::max(1U, o.threads);
  std::vector<Walk> batch;
  for (std::uint64_t first = 0; first < o.walks; first += kSimulateBatch) {
    if (o.interrupt != nullptr && o.interrupt->load() != 0) {
      r.limit = checker::kInterrupted;
      break;
    }
    if (o.time_limit_seconds && seconds() >= *o.time_limit_seconds) {
      r.limit = checker::kTimeLimit;
      break;
    }
    const std::uint64_t count = std::min(kSimulateBatch, o.walks - first);
    batch.assign(count, Walk{});
    std::atomic<std::uint64_t> next{0};
    checker::detail::on_threads(std::min<std::uint64_t>(threads, count), [&](std::size_t) {
      for (std::uint64_t i = next.fetch_add(1); i < count; i = next.fetch_add(1))
        batch[i] = run_walk(model, o.seed, first + i, o.depth);
    });
    // In walk order: the same findings for every thread count.
    for (std::uint64_t i = 0; i < count; ++i) {
      const Walk& w = batch[i];
      ++r.walks;
      r.steps += w.steps;
      r.longest = std::max(r.longest, w.steps);
      for (std::size_t p = 0; p < properties.size(); ++p) {
        const auto id = spec::find_property(properties[p].name);
        if (w.reached[p] && id)
          r.reached[static_cast<std::size_t>(*id)] = true;
        if (w.violated[p] && !found[p]) {
          found[p] = SimulatedViolation{properties[p].name, w.violated[p]->first, first + i + 1,
                                        w.violated[p]->second, std::nullopt};
          --to_find;
        }
      }
    }
    if (to_find == 0)
      break;
  }
  for (auto& v : found) {
    if (!v)
      continue;
    // Replayed with the property alone, the walk breaks it first at its last step; removing
    // steps keeps every removal after which it still does.
    CheckedProperties one;
    one.set(static_cast<std::size_t>(*spec::find_property(v->property)));
    if (auto b = broken_schedule(
            scenario, replay_schedule(scenario, v->prefix, one, StopAt::kFirstViolation))) {
      if (b->property == v->property)
        v->shrunk = reduce_steps(*b, one);
    }
    r.violations.push_back(std::move(*v));
  }
  r.trips = model.peak_round_trips();
  r.seconds = seconds();
  return r;
}

}  // namespace preemptcheck
