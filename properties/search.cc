// Search: each generated cluster is explored once (a cache keyed on the cluster's text serves
// the repeats that shrinking produces), and RapidCheck keeps the smallest failing one.
#include "properties/search.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <unordered_map>

#include "properties/rapidcheck_run.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

using Clock = std::chrono::steady_clock;

struct Explored {
  checker::Result<Action> result;  ///< without the per-state and per-property tables
  bool counted = false;            ///< counted among the distinct clusters explored
};

class Search {
 public:
  explicit Search(const SearchOptions& options) : o_(options), start_(Clock::now()) {}

  SearchResult run() {
    const auto gen = gen_scenario(o_.bounds, "generated", o_.profile, o_.mechanisms);
    Scenario baseline_of;  // only its profile and mechanisms are used
    if (o_.baseline) {
      baseline_of.profile = o_.baseline_profile;
      baseline_of.mechanisms = *o_.baseline;
    }
    RapidCheckRun run;
    run.seed = o_.seed;
    run.max_success = o_.runs;
    run.max_discard_ratio = o_.max_discard_ratio;
    run.on_case = [this] { report(); };
    run.on_shrink = [this](bool accepted) {
      ++r_.shrinks_tried;
      if (accepted) ++r_.shrinks_accepted;
      report();
    };
    const RapidCheckOutcome outcome = run_rapidcheck(
        [&] {
          const Scenario scenario = *gen;
          Explored& explored = explore(scenario, false);
          const auto& result = explored.result;
          if (result.outcome == checker::Outcome::kLimitReached) {
            if (!r_.found) ++r_.cut;
            RC_DISCARD("the per-cluster state limit cut the search");
          }
          if (result.outcome == checker::Outcome::kViolated) {
            std::optional<checker::Stats> baseline;
            if (o_.baseline) {
              Scenario other = scenario;
              other.profile = baseline_of.profile;
              other.mechanisms = baseline_of.mechanisms;
              const auto& base = explore(other, true).result;
              if (base.outcome == checker::Outcome::kLimitReached) {
                if (!r_.found) ++r_.cut;
                RC_DISCARD("the per-cluster state limit cut the baseline's search");
              }
              if (base.outcome == checker::Outcome::kViolated) {
                // Both violate: the cluster does not tell them apart, and passes.
                if (!r_.found) {
                  ++r_.baseline_violated;
                  count(explored);
                }
                return;
              }
              baseline = base.stats;
            }
            FailingCluster failing{scenario, result, baseline};
            if (!r_.found) r_.found = failing;
            r_.shrunk = std::move(failing);
            RC_FAIL(fmt::format("{}: {}", result.violation->name, result.violation->message));
          }
          if (!r_.found) count(explored);
        },
        run);
    switch (outcome.kind) {
      case RapidCheckOutcome::Kind::kSuccess:
        r_.outcome = SearchResult::Outcome::kHolds;
        break;
      case RapidCheckOutcome::Kind::kFailure:
        r_.outcome = r_.shrunk ? SearchResult::Outcome::kViolated : SearchResult::Outcome::kError;
        break;
      case RapidCheckOutcome::Kind::kGaveUp:
        r_.outcome = SearchResult::Outcome::kGaveUp;
        break;
      case RapidCheckOutcome::Kind::kError:
        r_.outcome = SearchResult::Outcome::kError;
        break;
    }
    if (r_.outcome != SearchResult::Outcome::kViolated) {
      r_.found.reset();
      r_.shrunk.reset();
    }
    r_.message = outcome.message;
    r_.seconds = elapsed();
    return std::move(r_);
  }

 private:
  double elapsed() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

  Explored& explore(const Scenario& scenario, bool baseline) {
    std::string key = (baseline ? "baseline\n" : "") + cluster_text(scenario);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    WorldModel model(std::make_shared<const Cluster>(scenario), o_.checked);
    checker::ExploreOptions<Action> explore_options;
    explore_options.threads = o_.threads;
    Explored e{checker::explore(model, checker::Limits{o_.max_states, std::nullopt, std::nullopt},
                                explore_options)};
    e.result.violating_states.clear();
    e.result.level_starts.clear();
    e.result.properties.clear();
    e.result.reached.clear();
    return cache_.emplace(std::move(key), std::move(e)).first->second;
  }

  void count(Explored& e) {
    ++r_.clusters;
    if (e.counted) return;
    e.counted = true;
    ++r_.distinct;
    r_.states += e.result.stats.states;
    r_.transitions += e.result.stats.transitions;
  }

  void report() {
    if (!o_.progress) return;
    SearchProgress p;
    p.clusters = r_.clusters;
    p.cut = r_.cut;
    p.shrinking = r_.found.has_value();
    p.shrinks_tried = r_.shrinks_tried;
    p.shrinks_accepted = r_.shrinks_accepted;
    p.states = r_.states;
    p.transitions = r_.transitions;
    p.seconds = elapsed();
    o_.progress(p);
  }

  const SearchOptions& o_;
  const Clock::time_point start_;
  SearchResult r_;
  std::unordered_map<std::string, Explored> cache_;
};

}  // namespace

SearchResult run_search(const SearchOptions& options) { return Search(options).run(); }

std::string checked_names(const std::bitset<spec::kPropertyCount>& checked) {
  std::string out;
  bool all = true;
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness) continue;
    if (checked.test(static_cast<std::size_t>(d.id))) {
      out += fmt::format("{}{}", out.empty() ? "" : ", ", d.name);
    } else {
      all = false;
    }
  }
  return all ? "all" : out;
}

}  // namespace preemptcheck
