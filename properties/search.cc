// Search: each generated cluster is explored once (a cache keyed on the cluster's text serves
// the repeats that shrinking produces), and RapidCheck keeps the smallest failing one.
//
// Distributed (SearchOptions::distributed, under mpirun with N ranks), and why it is a
// pre-pass. RapidCheck finds the first failing case and shrinks it inside one
// rc::detail::checkProperty call, and which case comes next depends on what the previous ones
// did (a cut cluster is a discard, and discards change the size RapidCheck asks for next), so
// that call cannot be split between processes. Instead, before it, every rank walks the
// sequence of cases the call will generate from the seed — one rc::Random split per case, the
// size from the count of passes and recent discards (size_for below, RapidCheck's rule) — in
// rounds of kCasesPerRank × N cases. Rank r evaluates the cases i ≡ r (mod N) of the round (i
// counts cases from the seed) with the very property the run checks, and every rank receives
// what each case came to (pass, cut, violation) and the figures of every cluster explored.
// The walk stops where the run stops: `runs` passes, the first violation in cluster order, or
// too many cut. Then rank 0 runs the ordinary one-process search, its cache holding every
// cluster any rank explored: the generation phase finds each cluster there, and shrinking —
// clusters explored one after another, each chosen by the last — runs on rank 0 alone; the
// other ranks wait (checker::mpi::from_lead_rank) for its exit status.
//
// So the result is the one-process result by construction: rank 0 executes the one-process
// code, and a cache entry holds what exploring that cluster gives (exploration is
// deterministic). The walk only decides what gets explored early; if it predicted a case
// RapidCheck does not generate (a size after a discard is guessed as if every earlier case of
// the round passed, and corrected in the next round), rank 0 explores the real one itself —
// slower, never different. A violating cluster is shared without its schedule; rank 0
// explores the first one again for it. SearchResult::explored_again counts both.
#include "properties/search.h"

#include <fmt/format.h>
#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <memory>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "checker/explore_failure.h"
#include "checker/mpi/mpi_world.h"
#include "properties/rapidcheck_run.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

using Clock = std::chrono::steady_clock;

struct Explored {
  checker::Result<Action> result;  ///< without the per-state and per-property tables
  bool counted = false;            ///< counted among the distinct clusters explored
  /// Received from another rank: outcome and figures only, no violation schedule.
  bool partial = false;
};

// Cases each rank evaluates per round of the distributed walk.
constexpr int kCasesPerRank = 16;
// RapidCheckRun::max_size, which Search leaves at its default.
const int kMaxSize = RapidCheckRun{}.max_size;

// RapidCheck's size for a case after `passed` passing cases (before discards are added):
// the sizes 0..max_size spread evenly over max_success cases, the largest always used.
int size_for(int max_success, int passed) {
  const int sizes = kMaxSize + 1;
  const int regular = (max_success / sizes) * sizes;
  if (passed < regular)
    return passed % sizes;
  const int rest = max_success - regular;
  return rest == 1 ? 0 : ((passed % sizes) * kMaxSize) / (rest - 1);
}

// What a case came to, as the distributed walk shares it.
enum class CaseKind : std::uint8_t { kPassed, kCut, kViolated, kFailed };

// The bytes the ranks exchange: fixed-size numbers as their bytes (every rank runs the same
// binary), strings with their length in front.
class Writer {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void put_string(std::string_view text) {
    put(static_cast<std::uint64_t>(text.size()));
    bytes_.append(text);
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  bool done() const { return at_ == bytes_.size(); }
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  std::string get_string() {
    const auto length = static_cast<std::size_t>(get<std::uint64_t>());
    std::string text(bytes_.substr(at_, length));
    at_ += length;
    return text;
  }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

class Search {
 public:
  explicit Search(const SearchOptions& options) : o_(options), start_(Clock::now()) {}

  SearchResult run() {
    const auto gen = gen_scenario(o_.bounds, "generated", o_.profile, o_.mechanisms);
    if (o_.distributed && checker::mpi::init_if_launched() > 1) {
      walk_distributed(gen);
      if (!checker::mpi::is_lead_rank()) {
        SearchResult other;
        other.lead = false;
        other.ranks = r_.ranks;
        other.shared_cases = r_.shared_cases;
        return other;
      }
    }
    RapidCheckRun run;
    run.seed = o_.seed;
    run.max_success = o_.runs;
    run.max_discard_ratio = o_.max_discard_ratio;
    run.on_case = [this] { report(); };
    run.on_shrink = [this](bool accepted) {
      ++r_.shrinks_tried;
      if (accepted)
        ++r_.shrinks_accepted;
      report();
    };
    run.stop = [this] { return stopped(); };
    const RapidCheckOutcome outcome = run_rapidcheck([&] { check_case(gen); }, run);
    switch (outcome.kind) {
      case RapidCheckOutcome::Kind::kStopped:
        r_.interrupted = true;
        r_.outcome =
            r_.shrunk ? SearchResult::Outcome::kViolated : SearchResult::Outcome::kInterrupted;
        break;
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
  // The property RapidCheck checks, one generated cluster: cut clusters are discarded, a
  // violating one fails (differential: only when the baseline holds on it).
  void check_case(const rc::Gen<Scenario>& gen) {
    const Scenario scenario = *gen;
    Explored* explored = &explore(scenario, false);
    case_states_ = explored->result.stats.states;
    if (explored->result.outcome == checker::Outcome::kLimitReached && stopped()) {
      // A signal cut the cluster's search: neither counted nor cut; the run stops after it.
      RC_DISCARD("interrupted");
    }
    if (explored->result.outcome == checker::Outcome::kLimitReached) {
      if (!r_.found)
        ++r_.cut;
      RC_DISCARD("the per-cluster state limit cut the search");
    }
    if (explored->result.outcome == checker::Outcome::kViolated) {
      std::optional<checker::Stats> baseline;
      if (o_.baseline) {
        Scenario other = scenario;
        other.profile = o_.baseline_profile;
        other.mechanisms = *o_.baseline;
        const auto& base = explore(other, true).result;
        if (base.outcome == checker::Outcome::kLimitReached) {
          if (!r_.found)
            ++r_.cut;
          RC_DISCARD("the per-cluster state limit cut the baseline's search");
        }
        if (base.outcome == checker::Outcome::kViolated) {
          // Both violate: the cluster does not tell them apart, and passes.
          if (!r_.found) {
            ++r_.baseline_violated;
            count(*explored);
          }
          return;
        }
        baseline = base.stats;
      }
      if (explored->partial)
        explored = &explore(scenario, false, true);
      const auto& result = explored->result;
      FailingCluster failing{scenario, result, baseline};
      if (!r_.found)
        r_.found = failing;
      r_.shrunk = std::move(failing);
      violated_ = true;
      RC_FAIL(fmt::format("{}: {}", result.violation->name, result.violation->message));
    }
    if (!r_.found)
      count(*explored);
  }

  // The distributed walk before rank 0's run (see the top of this file). Leaves every
  // cluster any rank explored in this rank's cache, uncounted, and r_ empty but for the
  // ranks and shared cases.
  void walk_distributed(const rc::Gen<Scenario>& gen) {
    const int ranks = checker::mpi::size();
    const int rank = checker::mpi::rank();
    const rc::detail::Property property = rc::detail::toProperty([&] { check_case(gen); });
    rc::Random seeded(o_.seed);
    std::deque<rc::Random> unsettled;  // split, not yet settled (a size guessed wrong)
    std::uint64_t first = 0;           // the index of the round's first case
    int passed = 0;
    int discarded = 0;
    int recent_discards = 0;
    int shared = 0;
    std::uint64_t passed_states = 0;  // for the progress line: repeated clusters count again
    const int max_discard = o_.max_discard_ratio * o_.runs;
    bool done = passed >= o_.runs;
    walking_ = true;
    while (!done) {
      const int cases = std::min(kCasesPerRank * ranks, o_.runs - passed);
      std::vector<rc::Random> randoms;
      std::vector<int> sizes;
      for (int j = 0; j < cases; ++j) {
        if (unsettled.empty()) {
          randoms.push_back(seeded.split());
        } else {
          randoms.push_back(unsettled.front());
          unsettled.pop_front();
        }
        // Guessed as if every earlier case of the round passes.
        sizes.push_back(size_for(o_.runs, passed + j) + (j == 0 ? recent_discards / 10 : 0));
      }
      Writer mine;
      for (int j = 0; j < cases; ++j) {
        if ((first + static_cast<std::uint64_t>(j)) % static_cast<std::uint64_t>(ranks) !=
            static_cast<std::uint64_t>(rank)) {
          continue;
        }
        fresh_.clear();
        violated_ = false;
        const rc::detail::CaseDescription d =
            property(randoms[static_cast<std::size_t>(j)], sizes[static_cast<std::size_t>(j)])
                .value();
        CaseKind kind = CaseKind::kPassed;
        switch (d.result.type) {
          case rc::detail::CaseResult::Type::Success:
            break;
          case rc::detail::CaseResult::Type::Discard:
            kind = CaseKind::kCut;
            break;
          case rc::detail::CaseResult::Type::Failure:
            kind = violated_ ? CaseKind::kViolated : CaseKind::kFailed;
            break;
        }
        mine.put(static_cast<std::int32_t>(j));
        mine.put(kind);
        mine.put(case_states_);
        mine.put_string(kind == CaseKind::kFailed ? d.result.description : std::string());
        mine.put(static_cast<std::uint64_t>(fresh_.size()));
        for (const std::string& key : fresh_) {
          const Explored& e = cache_.at(key);
          mine.put_string(key);
          mine.put(e.result.outcome);
          mine.put(e.result.stats);
        }
      }
      fresh_.clear();
      // Every rank's cases; the clusters they explored go into every rank's cache.
      std::vector<CaseKind> kinds(static_cast<std::size_t>(cases), CaseKind::kPassed);
      std::vector<std::string> failures(static_cast<std::size_t>(cases));
      std::vector<std::uint64_t> states(static_cast<std::size_t>(cases), 0);
      const std::vector<std::string> all = checker::mpi::all_gather(mine.bytes());
      for (std::size_t from = 0; from < all.size(); ++from) {
        Reader in(all[from]);
        while (!in.done()) {
          const auto j = static_cast<std::size_t>(in.get<std::int32_t>());
          kinds[j] = in.get<CaseKind>();
          states[j] = in.get<std::uint64_t>();
          const std::string description = in.get_string();
          if (kinds[j] == CaseKind::kFailed) {
            failures[j] = fmt::format("rank {} of {} failed: {}", from, ranks, description);
          }
          const auto entries = in.get<std::uint64_t>();
          for (std::uint64_t k = 0; k < entries; ++k) {
            std::string key = in.get_string();
            Explored e;
            e.result.outcome = in.get<checker::Outcome>();
            e.result.stats = in.get<checker::Stats>();
            e.partial = e.result.outcome == checker::Outcome::kViolated;
            cache_.try_emplace(std::move(key), std::move(e));
          }
        }
      }
      // Settle the round's cases in order, as RapidCheck's run will meet them.
      int settled = 0;
      for (int j = 0; j < cases && !done; ++j) {
        const int size = size_for(o_.runs, passed) + recent_discards / 10;
        if (size != sizes[static_cast<std::size_t>(j)])
          break;  // guessed wrong: next round
        ++settled;
        switch (kinds[static_cast<std::size_t>(j)]) {
          case CaseKind::kPassed:
            ++passed;
            passed_states += states[static_cast<std::size_t>(j)];
            recent_discards = 0;
            done = passed >= o_.runs;
            break;
          case CaseKind::kCut:
            ++discarded;
            ++recent_discards;
            done = discarded > max_discard;
            break;
          case CaseKind::kViolated:
            done = true;
            break;
          case CaseKind::kFailed:
            // Where one process would report RapidCheck's error; every rank throws alike.
            throw checker::RankFailure(failures[static_cast<std::size_t>(j)]);
        }
      }
      for (int j = cases - 1; j >= settled; --j) {
        unsettled.push_front(randoms[static_cast<std::size_t>(j)]);
      }
      first += static_cast<std::uint64_t>(settled);
      shared += settled;
      if (o_.progress) {
        SearchProgress p;
        p.clusters = passed;
        p.cut = discarded;
        p.states = passed_states;
        p.seconds = elapsed();
        o_.progress(p);
      }
    }
    walking_ = false;
    for (auto& [key, e] : cache_)
      e.counted = false;
    r_ = SearchResult();
    r_.ranks = ranks;
    r_.shared_cases = shared;
    walked_ = true;
  }

  // Whether a signal asked the search to stop (never during the distributed walk).
  bool stopped() const { return !walking_ && o_.interrupt != nullptr && o_.interrupt->load() != 0; }

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  // The cluster's search, from the cache when it was explored already (`fully`: not from a
  // partial entry another rank sent).
  Explored& explore(const Scenario& scenario, bool baseline, bool fully = false) {
    std::string key = (baseline ? "baseline\n" : "") + cluster_text(scenario);
    auto it = cache_.find(key);
    if (it != cache_.end() && !(fully && it->second.partial))
      return it->second;
    if (walked_ && !r_.found)
      ++r_.explored_again;
    WorldModel model(std::make_shared<const Cluster>(scenario), o_.checked);
    checker::ExploreOptions<Action> explore_options;
    explore_options.threads = o_.threads;
    checker::Limits limits{o_.max_states, std::nullopt, std::nullopt};
    if (!walking_)
      limits.interrupt = o_.interrupt;
    Explored e{explore_world(model, limits, explore_options)};
    e.result.violating_states.clear();
    e.result.level_starts.clear();
    e.result.properties.clear();
    e.result.reached.clear();
    if (it != cache_.end()) {
      e.counted = it->second.counted;
      it->second = std::move(e);
      return it->second;
    }
    if (walking_)
      fresh_.push_back(key);
    return cache_.emplace(std::move(key), std::move(e)).first->second;
  }

  void count(Explored& e) {
    ++r_.clusters;
    if (e.counted)
      return;
    e.counted = true;
    ++r_.distinct;
    r_.states += e.result.stats.states;
    r_.transitions += e.result.stats.transitions;
  }

  void report() {
    if (!o_.progress)
      return;
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
  std::vector<std::string> fresh_;  ///< keys explored (not found in the cache) this case
  std::uint64_t case_states_ = 0;   ///< the states of the last case's cluster
  bool violated_ = false;           ///< the last case failed on a violation (not an error)
  bool walking_ = false;            ///< the distributed walk is running
  bool walked_ = false;             ///< the distributed walk ran before this run
};

}  // namespace

SearchResult run_search(const SearchOptions& options) { return Search(options).run(); }

std::string checked_names(const std::bitset<spec::kPropertyCount>& checked) {
  std::string out;
  bool all = true;
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness)
      continue;
    if (checked.test(static_cast<std::size_t>(d.id))) {
      out += fmt::format("{}{}", out.empty() ? "" : ", ", d.name);
    } else {
      all = false;
    }
  }
  return all ? "all" : out;
}

}  // namespace preemptcheck
