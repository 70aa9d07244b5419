// Level explorer tests: on random graphs and toy models, every thread count gives exactly
// what a plain sequential breadth-first search (kept here as the reference) gives — states,
// transitions, depth, ids, witnesses, violating states, the shortest counterexample and the
// figures at every limit — and the per-property, memory, out-of-memory and progress paths
// behave as explorer.h documents.
#include <gtest/gtest.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <new>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "checker/explorer.h"
#include "checker/model.h"
#include "checker/peak_memory.h"
#include "checker/store/frontier_store.h"
#include "checker/store/temp_file.h"
#include "checker/store/trace_store.h"

namespace preemptcheck::checker {
namespace {

// How a random graph's states are stored by the explorer.
enum class Storage { kRaw, kPacked, kObject };

struct Graph {
  // edges[n]: the successors of node n, in action order; bad[n][i]: the always property
  // (0..2) that edge i violates, or -1; witness[n]: node n reaches property 3.
  std::vector<std::vector<std::uint32_t>> edges;
  std::vector<std::vector<int>> bad;
  std::vector<bool> witness;
  int bad_start = -1;
};

// A seeded engine with our own range mapping (std:: distributions differ by library).
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(engine_() % n); }

 private:
  std::mt19937_64 engine_;
};

Graph random_graph(Random& random) {
  Graph g;
  const std::uint32_t nodes = 1 + random.below(120);
  const std::uint32_t fanout = 1 + random.below(5);
  const std::uint32_t bad_rate = 5 + random.below(200);
  g.edges.resize(nodes);
  g.bad.resize(nodes);
  g.witness.resize(nodes);
  for (std::uint32_t n = 0; n < nodes; ++n) {
    const std::uint32_t count = random.below(fanout + 1);
    for (std::uint32_t i = 0; i < count; ++i) {
      g.edges[n].push_back(random.below(nodes));
      g.bad[n].push_back(random.below(bad_rate) < 3 ? static_cast<int>(random.below(3)) : -1);
    }
    g.witness[n] = random.below(10) == 0;
  }
  if (random.below(10) == 0) {
    g.bad_start = static_cast<int>(random.below(3));
  }
  return g;
}

template <Storage kStorage>
struct StateOf {
  using type = std::uint32_t;
};
template <>
struct StateOf<Storage::kObject> {
  using type = std::string;  // the node id in decimal: not trivially copyable
};

template <Storage kStorage>
class GraphModel {
 public:
  using State = typename StateOf<kStorage>::type;
  using Action = std::uint32_t;  // the edge's target node

  GraphModel(const Graph& g, std::optional<int> only = std::nullopt) : g_(g), only_(only) {}

  State initial_state() const { return make(0); }
  void enabled_actions(const State& s, std::vector<Action>& out) const {
    const auto& edges = g_.edges[node(s)];
    out.insert(out.end(), edges.begin(), edges.end());
  }
  State next_state(const State& s, const Action& a, Observation& obs) const {
    const std::uint32_t from = node(s);
    for (std::size_t i = 0; i < g_.edges[from].size(); ++i) {
      const int property = g_.bad[from][i];
      if (g_.edges[from][i] == a && property >= 0 && (!only_ || *only_ == property)) {
        obs.violate(static_cast<std::size_t>(property), "edge " + std::to_string(i));
      }
    }
    if (g_.witness[a]) {
      obs.reach(3);
    }
    return make(a);
  }
  void check_initial(const State&, Observation& obs) const {
    if (g_.bad_start >= 0 && (!only_ || *only_ == g_.bad_start)) {
      obs.violate(static_cast<std::size_t>(g_.bad_start), "bad start");
    }
  }
  // Node 0 has fingerprint 0, which the tables treat specially.
  std::uint64_t fingerprint(const State& s) const { return node(s) * 0x9E3779B97F4A7C15ULL; }
  const std::vector<PropertyInfo>& properties() const { return properties_; }

  // Variable-length packing (a little-endian varint), only for Storage::kPacked.
  void pack(const State& s, std::vector<std::byte>& out) const
      requires(kStorage == Storage::kPacked) {
    std::uint32_t x = s;
    do {
      out.push_back(static_cast<std::byte>((x & 0x7f) | (x > 0x7f ? 0x80 : 0)));
      x >>= 7;
    } while (x != 0);
  }
  State unpack(std::span<const std::byte> bytes) const requires(kStorage == Storage::kPacked) {
    std::uint32_t x = 0;
    for (std::size_t i = bytes.size(); i-- > 0;) {
      x = (x << 7) | (static_cast<std::uint32_t>(bytes[i]) & 0x7f);
    }
    return x;
  }

 private:
  static State make(std::uint32_t n) {
    if constexpr (kStorage == Storage::kObject) {
      return std::to_string(n);
    } else {
      return n;
    }
  }
  static std::uint32_t node(const State& s) {
    if constexpr (kStorage == Storage::kObject) {
      return static_cast<std::uint32_t>(std::stoul(s));
    } else {
      return s;
    }
  }

  const Graph& g_;
  std::optional<int> only_;
  std::vector<PropertyInfo> properties_ = {
      {"p0", PropertyKind::kAlways, ""},
      {"p1", PropertyKind::kAlways, ""},
      {"p2", PropertyKind::kAlways, ""},
      {"w3", PropertyKind::kSometimes, ""},
  };
};

static_assert(FrontierStore<GraphModel<Storage::kRaw>>::kRaw);
static_assert(FrontierStore<GraphModel<Storage::kPacked>>::kPacked);
static_assert(!FrontierStore<GraphModel<Storage::kPacked>>::kFixed);
static_assert(!FrontierStore<GraphModel<Storage::kObject>>::kRaw &&
              !FrontierStore<GraphModel<Storage::kObject>>::kPacked);

// The reference: the sequential breadth-first search as explorer.h specifies it, with a
// std::map for the visited set and full states in the queue.
template <class M>
Result<typename M::Action> reference(const M& model, const Limits& limits, bool stop) {
  using Action = typename M::Action;
  Result<Action> r;
  r.properties = model.properties();
  r.reached.assign(r.properties.size(), false);
  const std::uint64_t capacity = limits.max_states.value_or(~0ULL);
  std::map<std::uint64_t, std::uint32_t> ids;
  std::vector<std::pair<std::uint32_t, Action>> via;  // via[id - 1]
  std::vector<typename M::State> states;
  std::uint64_t transitions = 0;
  const auto finish = [&] {
    r.outcome = r.violation ? Outcome::kViolated
                            : (r.limit.empty() ? Outcome::kHolds : Outcome::kLimitReached);
    std::sort(r.violating_states.begin(), r.violating_states.end());
    r.violating_states.erase(std::unique(r.violating_states.begin(), r.violating_states.end()),
                             r.violating_states.end());
    r.stats.states = states.size();
    r.stats.transitions = transitions;
    r.stats.depth =
        r.level_starts.empty() ? 0 : static_cast<std::uint32_t>(r.level_starts.size() - 1);
    return r;
  };
  const auto path_to = [&](std::uint32_t id, const Action& last) {
    std::vector<Action> path;
    for (; id != 0; id = via[id - 1].first) {
      path.insert(path.begin(), via[id - 1].second);
    }
    path.push_back(last);
    return path;
  };
  const auto verdict = [&](const Observation& obs) {
    return detail::make_verdict(obs, r.properties);
  };
  if (capacity == 0) {
    r.limit = kMaxStatesLimit;
    return finish();
  }
  states.push_back(model.initial_state());
  ids[model.fingerprint(states[0])] = 0;
  r.level_starts.push_back(0);
  Observation obs;
  model.check_initial(states[0], obs);
  for (auto p : obs.reached)
    r.reached[p] = true;
  if (!obs.violated.empty()) {
    Violation<Action> v;
    static_cast<Verdict&>(v) = verdict(obs);
    r.violation = v;
    r.violating_states.push_back(0);
    if (stop)
      return finish();
  }
  std::vector<Action> actions;
  for (std::uint32_t id = 0; id < states.size(); ++id) {
    const std::uint32_t depth = r.depth_of(id);
    const auto state = states[id];
    actions.clear();
    model.enabled_actions(state, actions);
    if (limits.max_depth && depth >= *limits.max_depth) {
      if (actions.empty())
        continue;
      r.limit = kMaxDepthLimit;
      return finish();
    }
    for (const Action& a : actions) {
      obs.clear();
      auto next = model.next_state(state, a, obs);
      const std::uint64_t fp = model.fingerprint(next);
      auto it = ids.find(fp);
      bool is_new = it == ids.end();
      if (is_new && states.size() >= capacity) {
        r.limit = kMaxStatesLimit;
        return finish();
      }
      const std::uint64_t transition = transitions++;
      std::uint32_t to = 0;
      if (is_new) {
        to = static_cast<std::uint32_t>(states.size());
        ids[fp] = to;
        if (depth + 1 == r.level_starts.size())
          r.level_starts.push_back(to);
        states.push_back(next);
        via.emplace_back(id, a);
      } else {
        to = it->second;
      }
      for (auto p : obs.reached)
        r.reached[p] = true;
      if (!obs.violated.empty()) {
        if (!r.violation) {
          Violation<Action> v;
          static_cast<Verdict&>(v) = verdict(obs);
          v.path = path_to(id, a);
          v.state = to;
          v.transition = transition;
          r.violation = v;
        }
        r.violating_states.push_back(to);
        if (stop)
          return finish();
      }
    }
  }
  return finish();
}

template <class Action>
void expect_same(const Result<Action>& want, const Result<Action>& got, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(got.outcome, want.outcome);
  EXPECT_EQ(got.limit, want.limit);
  EXPECT_EQ(got.stats.states, want.stats.states);
  EXPECT_EQ(got.stats.transitions, want.stats.transitions);
  EXPECT_EQ(got.stats.depth, want.stats.depth);
  EXPECT_EQ(got.level_starts, want.level_starts);
  EXPECT_EQ(got.reached, want.reached);
  EXPECT_EQ(got.violating_states, want.violating_states);
  ASSERT_EQ(got.violation.has_value(), want.violation.has_value());
  if (want.violation) {
    EXPECT_EQ(got.violation->path, want.violation->path);
    EXPECT_EQ(got.violation->property, want.violation->property);
    EXPECT_EQ(got.violation->message, want.violation->message);
    EXPECT_EQ(got.violation->also_violated, want.violation->also_violated);
    EXPECT_EQ(got.violation->state, want.violation->state);
    EXPECT_EQ(got.violation->transition, want.violation->transition);
  }
}

template <Storage kStorage>
void compare_on_random_graphs(std::uint64_t seed, int runs) {
  Random random(seed);
  for (int run = 0; run < runs; ++run) {
    const Graph g = random_graph(random);
    const GraphModel<kStorage> model(g);
    Limits limits;
    if (random.below(3) == 0)
      limits.max_states = random.below(60);
    if (random.below(3) == 0)
      limits.max_depth = random.below(8);
    const bool stop = random.below(2) == 0;
    const auto want = reference(model, limits, stop);
    for (unsigned threads = 1; threads <= 4; ++threads) {
      ExploreOptions<std::uint32_t> opts;
      opts.stop_at_violation = stop;
      opts.threads = threads;
      expect_same(want, explore(model, limits, opts),
                  "seed " + std::to_string(seed) + " run " + std::to_string(run) + " threads " +
                      std::to_string(threads));
      if (::testing::Test::HasFailure())
        return;
    }
    // The graph mode (sequential, with the id map) agrees too.
    std::uint64_t edges = 0;
    ExploreOptions<std::uint32_t> graph_opts;
    graph_opts.stop_at_violation = stop;
    graph_opts.on_edge = [&](std::uint32_t, std::uint32_t, const std::uint32_t&, bool) { ++edges; };
    expect_same(want, explore(model, limits, graph_opts), "graph mode run " + std::to_string(run));
  }
}

TEST(checkerLevelExplorer, RandomGraphsMatchTheReferenceRaw) {
  compare_on_random_graphs<Storage::kRaw>(1, 400);
}
TEST(checkerLevelExplorer, RandomGraphsMatchTheReferencePacked) {
  compare_on_random_graphs<Storage::kPacked>(2, 300);
}
TEST(checkerLevelExplorer, RandomGraphsMatchTheReferenceObjects) {
  compare_on_random_graphs<Storage::kObject>(3, 200);
}

// A grid big enough that levels span many chunks and the level table grows mid-level.
class Grid {
 public:
  using State = std::uint32_t;  // x << 16 | y
  using Action = int;
  explicit Grid(std::uint32_t n) : n_(n) {}
  State initial_state() const { return 0; }
  void enabled_actions(const State& s, std::vector<Action>& out) const {
    if ((s >> 16) < n_)
      out.push_back(0);
    if ((s & 0xffff) < n_)
      out.push_back(1);
    if ((s >> 16) < n_ && (s & 0xffff) < n_)
      out.push_back(2);
  }
  State next_state(const State& s, const Action& a, Observation& obs) const {
    const State next = s + (a == 0 ? 1U << 16 : a == 1 ? 1U : (1U << 16) + 1U);
    if ((next >> 16) == bad_ && (next & 0xffff) == bad_ / 2)
      obs.violate(0, "bad corner");
    if ((next >> 16) == n_)
      obs.reach(1);
    return next;
  }
  void check_initial(const State&, Observation&) const {}
  std::uint64_t fingerprint(const State& s) const { return s; }
  const std::vector<PropertyInfo>& properties() const { return properties_; }
  std::uint32_t bad_ = 1U << 20;

 private:
  std::uint32_t n_;
  std::vector<PropertyInfo> properties_ = {{"corner", PropertyKind::kAlways, ""},
                                           {"edge", PropertyKind::kSometimes, ""}};
};

TEST(checkerLevelExplorer, LargeLevelsMatchTheReference) {
  Grid grid(300);
  for (const std::uint32_t bad : {1U << 20, 150U}) {
    grid.bad_ = bad;
    for (const std::optional<std::uint64_t> cap :
         {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(45'000)}) {
      Limits limits;
      limits.max_states = cap;
      const auto want = reference(grid, limits, true);
      for (unsigned threads = 1; threads <= 4; ++threads) {
        ExploreOptions<int> opts;
        opts.threads = threads;
        expect_same(want, explore(grid, limits, opts), "threads " + std::to_string(threads));
      }
    }
  }
}

TEST(checkerLevelExplorer, PerPropertyFindsEachShortestCounterexample) {
  Random random(4);
  for (int run = 0; run < 200; ++run) {
    const Graph g = random_graph(random);
    const GraphModel<Storage::kRaw> model(g);
    for (unsigned threads = 1; threads <= 3; ++threads) {
      ExploreOptions<std::uint32_t> opts;
      opts.per_property = true;
      opts.threads = threads;
      const auto all = explore(model, Limits{}, opts);
      ASSERT_EQ(all.property_results.size(), 4U);
      EXPECT_EQ(all.property_results[3].status, PropertyStatus::kWitness);
      for (int p = 0; p < 3; ++p) {
        // The property alone, searched to its first violation.
        const auto alone = reference(GraphModel<Storage::kRaw>(g, p), Limits{}, true);
        const auto& got = all.property_results[static_cast<std::size_t>(p)];
        SCOPED_TRACE("run " + std::to_string(run) + " property " + std::to_string(p));
        ASSERT_EQ(got.status == PropertyStatus::kViolated, alone.violation.has_value());
        if (alone.violation) {
          EXPECT_EQ(got.violation->path, alone.violation->path);
          EXPECT_EQ(got.violation->property, static_cast<std::size_t>(p));
          EXPECT_EQ(got.violation->message, alone.violation->message);
        } else {
          EXPECT_EQ(got.status, PropertyStatus::kHolds);
        }
      }
      // The first of them is the shallowest violation overall.
      const auto first = reference(model, Limits{}, true);
      ASSERT_EQ(all.violation.has_value(), first.violation.has_value());
      if (first.violation) {
        EXPECT_EQ(all.violation->path, first.violation->path);
      }
    }
  }
}

TEST(checkerLevelExplorer, PerPropertyMarksUndecidedPropertiesIncomplete) {
  Grid grid(50);
  ExploreOptions<int> opts;
  opts.per_property = true;
  Limits limits;
  limits.max_depth = 3;
  const auto result = explore(grid, limits, opts);
  EXPECT_EQ(result.limit, kMaxDepthLimit);
  EXPECT_EQ(result.property_results[0].status, PropertyStatus::kIncomplete);
  EXPECT_EQ(property_status_name(PropertyStatus::kIncomplete), "incomplete");
}

TEST(checkerLevelExplorer, MemoryLimitStopsWithPartialFigures) {
  for (unsigned threads = 1; threads <= 2; ++threads) {
    // The bound counts the whole process: give the search 16 MiB over what it holds now.
    Limits limits;
    limits.max_memory_bytes = current_rss_bytes() + (16U << 20);
    ExploreOptions<int> opts;
    opts.threads = threads;
    const auto result = explore(Grid(2000), limits, opts);
    EXPECT_EQ(result.outcome, Outcome::kLimitReached);
    EXPECT_EQ(result.limit, kMemoryLimit);
    EXPECT_GT(result.stats.states, 1U);
    EXPECT_LT(result.stats.states, 2001U * 2001U);
    EXPECT_LE(result.stats.memory_bytes, *limits.max_memory_bytes);
  }
}

// Throws std::bad_alloc from its step function after a number of steps.
class Starving : public Grid {
 public:
  Starving() : Grid(400) {}
  State next_state(const State& s, const Action& a, Observation& obs) const {
    if (++calls_ > 20'000)
      throw std::bad_alloc();
    return Grid::next_state(s, a, obs);
  }
  mutable std::atomic<int> calls_{0};
};

TEST(checkerLevelExplorer, OutOfMemoryStopsCleanly) {
  for (unsigned threads = 1; threads <= 2; ++threads) {
    Starving model;
    ExploreOptions<int> opts;
    opts.threads = threads;
    const auto result = explore(model, Limits{}, opts);
    EXPECT_EQ(result.outcome, Outcome::kLimitReached);
    EXPECT_EQ(result.limit, kOutOfMemory);
    EXPECT_GT(result.stats.states, 1U);
    // The figures are those at the start of a level: the level_starts are whole levels.
    EXPECT_EQ(result.stats.depth + 1, result.level_starts.size());
  }
}

// A model whose bounded storage fills past a line of the grid.
class Overflowing : public Grid {
 public:
  Overflowing() : Grid(50) {}
  State next_state(const State& s, const Action& a, Observation& obs) const {
    const State next = Grid::next_state(s, a, obs);
    if ((next >> 16) + (next & 0xffff) > 30)
      throw std::length_error("a bounded queue of the toy is full");
    return next;
  }
};

TEST(checkerLevelExplorer, AFullModelQueueIsALimitNotAVerdict) {
  for (unsigned threads = 1; threads <= 3; ++threads) {
    ExploreOptions<int> opts;
    opts.threads = threads;
    const auto result = explore(Overflowing(), Limits{}, opts);
    EXPECT_EQ(result.outcome, Outcome::kLimitReached);
    EXPECT_EQ(result.limit, kModelCapacityLimit);
    EXPECT_EQ(result.limit_detail, "a bounded queue of the toy is full");
    // The figures are those at the start of the level that overflowed: the diagonals 0..30.
    EXPECT_EQ(result.stats.depth, 15U);
  }
}

TEST(checkerLevelExplorer, ProgressReportsCounters) {
  std::vector<Stats> seen;
  ExploreOptions<int> opts;
  opts.progress_interval_seconds = 0;
  opts.progress = [&](const Stats& stats) { seen.push_back(stats); };
  const auto result = explore(Grid(100), Limits{}, opts);
  ASSERT_FALSE(seen.empty());
  EXPECT_GT(seen.back().memory_bytes, 0U);
  EXPECT_LE(seen.back().states, result.stats.states);
}

TEST(checkerLevelExplorer, ReportsCollisionProbabilities) {
  const auto result = explore(Grid(100), Limits{});
  const double n = static_cast<double>(result.stats.states);
  const double m = static_cast<double>(result.stats.transitions) + 1;
  EXPECT_DOUBLE_EQ(result.stats.collision_probability, n * (n - 1) / 0x1p65);
  EXPECT_DOUBLE_EQ(result.stats.collision_probability_optimistic, n * (m - n) / 0x1p64);
  EXPECT_GT(result.stats.collision_probability, 0);
}

// --- Interrupts (Limits::interrupt) --------------------------------------------------------

TEST(checkerLevelExplorer, AnInterruptStopsWithPartialFigures) {
  for (unsigned threads = 1; threads <= 2; ++threads) {
    std::atomic<int> flag{0};
    Limits limits;
    limits.interrupt = &flag;
    ExploreOptions<int> opts;
    opts.threads = threads;
    opts.progress_interval_seconds = 0;
    int calls = 0;
    // The flag is raised where a signal handler would raise it: in the middle of the search.
    opts.progress = [&](const Stats&) {
      if (++calls == 5)
        flag.store(2);
    };
    const auto result = explore(Grid(2000), limits, opts);
    EXPECT_EQ(result.outcome, Outcome::kLimitReached);
    EXPECT_EQ(result.limit, kInterrupted);
    EXPECT_GT(result.stats.states, 1U);
    EXPECT_LT(result.stats.states, 2001U * 2001U);
    EXPECT_EQ(result.stats.depth + 1, result.level_starts.size());
  }
}

TEST(checkerLevelExplorer, AnInterruptBeforeTheSearchStopsAtTheInitialState) {
  const std::atomic<int> flag{15};
  Limits limits;
  limits.interrupt = &flag;
  const auto result = explore(Grid(100), limits);
  EXPECT_EQ(result.limit, kInterrupted);
  EXPECT_EQ(result.stats.states, 1U);
}

TEST(checkerLevelExplorer, AViolationFoundBeforeAnInterruptStands) {
  Grid grid(2000);
  grid.bad_ = 20;
  std::atomic<int> flag{0};
  Limits limits;
  limits.interrupt = &flag;
  ExploreOptions<int> opts;
  opts.stop_at_violation = false;  // the search goes on past the violation
  opts.progress_interval_seconds = 0;
  opts.progress = [&](const Stats& stats) {
    if (stats.depth > 40)
      flag.store(2);
  };
  const auto result = explore(grid, limits, opts);
  EXPECT_EQ(result.outcome, Outcome::kViolated);
  EXPECT_EQ(result.limit, kInterrupted);
  ASSERT_TRUE(result.violation.has_value());
  EXPECT_EQ(result.violation->path.size(), 20U);
  EXPECT_LT(result.stats.depth, 200U);
}

TEST(checkerSequentialExplorer, AnInterruptStopsTheEdgeSearch) {
  std::atomic<int> flag{0};
  Limits limits;
  limits.interrupt = &flag;
  ExploreOptions<int> opts;
  std::uint64_t edges = 0;
  opts.on_edge = [&](std::uint32_t, std::uint32_t, const int&, bool) {
    if (++edges == 5000)
      flag.store(2);
  };
  const auto result = explore(Grid(300), limits, opts);
  EXPECT_EQ(result.outcome, Outcome::kLimitReached);
  EXPECT_EQ(result.limit, kInterrupted);
  EXPECT_GT(result.stats.states, 1U);
  EXPECT_LT(result.stats.states, 301U * 301U);
}

// --- Temporary files in memory (tmpfs) count against the memory bound ------------------------

// Sets TMPDIR for the test's scope.
class ScopedTmpdir {
 public:
  explicit ScopedTmpdir(const std::string& dir) {
    if (const char* old = std::getenv("TMPDIR"))
      old_ = old;
    setenv("TMPDIR", dir.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (old_)
      setenv("TMPDIR", old_->c_str(), 1);
    else
      unsetenv("TMPDIR");
  }
  ScopedTmpdir(const ScopedTmpdir&) = delete;
  ScopedTmpdir& operator=(const ScopedTmpdir&) = delete;

 private:
  std::optional<std::string> old_;
};

// Whether `dir` is a writable directory on a tmpfs (`want_tmpfs`) or on anything else.
bool is_usable(const std::string& dir, bool want_tmpfs) {
  struct statfs info {};
  return ::statfs(dir.c_str(), &info) == 0 && ::access(dir.c_str(), W_OK) == 0 &&
         (static_cast<std::uint64_t>(info.f_type) == 0x01021994) == want_tmpfs;
}

TEST(checkerLevelExplorer, TemporaryFilesOnATmpfsCountAsMemory) {
  const std::string tmpfs = "/dev/shm";
  const std::string disk = std::filesystem::current_path().string();
  if (!is_usable(tmpfs, true) || !is_usable(disk, false))
    GTEST_SKIP() << "needs a writable tmpfs at /dev/shm and a writable disk directory";
  const Grid grid(1500);
  const auto on = [&](const std::string& dir, const Limits& limits) {
    const ScopedTmpdir tmpdir(dir);
    return explore(grid, limits);
  };
  const auto on_disk = on(disk, Limits{});
  const auto in_memory = on(tmpfs, Limits{});
  ASSERT_EQ(on_disk.outcome, Outcome::kHolds);
  ASSERT_EQ(in_memory.outcome, Outcome::kHolds);
  // Every state's trace record lives in the file once a level has been committed: 16 bytes
  // each.
  const std::uint64_t file_bytes = on_disk.stats.states * sizeof(TraceRecord);
  ASSERT_GT(file_bytes, 16U << 20);
  EXPECT_EQ(in_memory.stats.memory_bytes, on_disk.stats.memory_bytes + file_bytes);
  EXPECT_EQ(TempFile::bytes_in_memory(), 0U);  // every file closed
  // A bound that the search on disk keeps, with room for half the file: on a tmpfs the file
  // takes the search past it.
  Limits limits;
  limits.max_memory_bytes = std::max(peak_rss_bytes(), on_disk.stats.memory_bytes) + file_bytes / 2;
  EXPECT_EQ(on(disk, limits).outcome, Outcome::kHolds);
  const auto bounded = on(tmpfs, limits);
  EXPECT_EQ(bounded.outcome, Outcome::kLimitReached);
  EXPECT_EQ(bounded.limit, kMemoryLimit);
}

}  // namespace
}  // namespace preemptcheck::checker

// --- The time limit within a level (Limits::clock) ------------------------------------------

namespace preemptcheck::checker {
namespace {

// A model whose first level is wide: the initial state has kWidth successors, each with one
// successor of its own. It counts the successors it makes, the clock below reads the count.
class Wide {
 public:
  static constexpr std::uint32_t kWidth = 60'000;
  using State = std::uint32_t;
  using Action = int;
  explicit Wide(std::atomic<std::uint64_t>& made) : made_(&made) {}
  State initial_state() const { return 0; }
  void enabled_actions(const State& s, std::vector<Action>& out) const {
    if (s == 0) {
      for (std::uint32_t a = 0; a < kWidth; ++a)
        out.push_back(static_cast<int>(a));
    } else if (s <= kWidth) {
      out.push_back(0);
    }
  }
  State next_state(const State& s, const Action& a, Observation&) const {
    made_->fetch_add(1, std::memory_order_relaxed);
    return s == 0 ? static_cast<State>(a) + 1 : s + kWidth;
  }
  void check_initial(const State&, Observation&) const {}
  std::uint64_t fingerprint(const State& s) const { return s; }
  const std::vector<PropertyInfo>& properties() const { return properties_; }

 private:
  std::atomic<std::uint64_t>* made_;
  std::vector<PropertyInfo> properties_ = {{"never", PropertyKind::kAlways, ""}};
};

// A limit that passes in the middle of a level's expansion stops the search there, a few
// thousand states later at most — not at the level's end, which on a level of millions of
// states is minutes later — and the level is not counted.
TEST(checkerLevelExplorer, ATimeLimitStopsWithinALevel) {
  for (unsigned threads = 1; threads <= 2; ++threads) {
    std::atomic<std::uint64_t> made{0};
    const std::uint64_t passes = Wide::kWidth + 10'000;  // in the second level's expansion
    Limits limits;
    limits.time_limit_seconds = 300;
    limits.clock = [&made, passes] { return made.load() >= passes ? 301.0 : 0.0; };
    ExploreOptions<int> opts;
    opts.threads = threads;
    const auto result = explore(Wide(made), limits, opts);
    EXPECT_EQ(result.outcome, Outcome::kLimitReached);
    EXPECT_EQ(result.limit, kTimeLimit);
    EXPECT_EQ(result.stats.states, Wide::kWidth + 1U) << "threads " << threads;
    EXPECT_LT(made.load(), passes + 4'096) << "threads " << threads;
    EXPECT_DOUBLE_EQ(result.stats.seconds, 301.0);
  }
}

}  // namespace
}  // namespace preemptcheck::checker
