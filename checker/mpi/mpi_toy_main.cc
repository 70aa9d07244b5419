// checker_mpi_toy: runs explore_auto() on small toy models and prints every figure of the
// result, so that the distributed tests can compare a run under mpirun with one process.
// Three models that differ only in how their states travel between ranks: "packed" (a
// PackedModel), "raw" (a trivially copyable State) and "replay" (a std::vector State, sent as
// its path). Options: --model NAME, --size N (values per counter), --violate (the corner
// property fails), --violate-more (two more `always` properties fail, at depth 6, some steps
// failing both), --per-property (a verdict and a counterexample per property),
// --continue (explore past the first violation), --max-states N, --max-depth N,
// --fail-rank R (that rank's model throws in its third level), --kill-rank R (that rank kills
// itself in its third level).
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checker/explore_auto.h"
#include "checker/mpi/mpi_world.h"

namespace {

using namespace preemptcheck::checker;

struct Settings {
  int size = 7;
  bool violate = false;
  bool violate_more = false;
  int fail_rank = -1;
  int kill_rank = -1;
};

// Three counters below `size`; steps: increment one, rotate, and clear the third when the
// first two are equal — many paths lead to the same state.
struct Counters {
  std::int32_t a = 0;
  std::int32_t b = 0;
  std::int32_t c = 0;
};

template <class S>
class ToyModel {
 public:
  using State = S;
  using Action = int;

  explicit ToyModel(Settings settings) : settings_(settings), rank_(mpi::rank()) {
    properties_ = {{"no-bad-corner", PropertyKind::kAlways, "never a=size-2, b=3, c=2"},
                   {"top-reached", PropertyKind::kSometimes, "a reaches size-1"},
                   {"never-reached", PropertyKind::kSometimes, "a reaches size"},
                   {"no-two-two-two", PropertyKind::kAlways, "never a=b=c=2"},
                   {"no-six-with-two", PropertyKind::kAlways, "never a+b+c=6 with c=2"}};
  }

  State initial_state() const { return make(0, 0, 0); }
  void enabled_actions(const State& s, std::vector<int>& out) const {
    const Counters v = get(s);
    if (settings_.fail_rank == rank_ && v.a + v.b + v.c == 3) {
      throw std::runtime_error("toy model failure on purpose");
    }
    if (settings_.kill_rank == rank_ && v.a + v.b + v.c == 3) {
      std::raise(SIGKILL);
    }
    if (v.a + 1 < settings_.size)
      out.push_back(0);
    if (v.b + 1 < settings_.size)
      out.push_back(1);
    if (v.c + 1 < settings_.size)
      out.push_back(2);
    out.push_back(3);
    if (v.a == v.b && v.c != 0)
      out.push_back(4);
  }
  State next_state(const State& s, const int& action, Observation& obs) const {
    Counters v = get(s);
    switch (action) {
      case 0:
        ++v.a;
        break;
      case 1:
        ++v.b;
        break;
      case 2:
        ++v.c;
        break;
      case 3:
        v = {v.b, v.c, v.a};
        break;
      default:
        v.c = 0;
        break;
    }
    if (settings_.violate && v.a == settings_.size - 2 && v.b == 3 && v.c == 2) {
      obs.violate(0, fmt::format("corner reached by action {}", action));
    }
    if (settings_.violate_more && v.a == 2 && v.b == 2 && v.c == 2) {
      obs.violate(3, fmt::format("all two by action {}", action));
    }
    if (settings_.violate_more && v.a + v.b + v.c == 6 && v.c == 2) {
      obs.violate(4, fmt::format("six with c=2 by action {}", action));
    }
    if (v.a == settings_.size - 1)
      obs.reach(1);
    return make(v.a, v.b, v.c);
  }
  void check_initial(const State&, Observation&) const {}
  std::uint64_t fingerprint(const State& s) const {
    const Counters v = get(s);
    std::uint64_t x = (static_cast<std::uint64_t>(v.a) << 40) ^
                      (static_cast<std::uint64_t>(v.b) << 20) ^ static_cast<std::uint64_t>(v.c);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }
  const std::vector<PropertyInfo>& properties() const { return properties_; }

 protected:
  static State make(int a, int b, int c) {
    if constexpr (std::is_same_v<S, Counters>) {
      return Counters{a, b, c};
    } else {
      return S{a, b, c};
    }
  }
  static Counters get(const State& s) {
    if constexpr (std::is_same_v<S, Counters>) {
      return s;
    } else {
      return Counters{s[0], s[1], s[2]};
    }
  }

  Settings settings_;
  int rank_;
  std::vector<PropertyInfo> properties_;
};

// The same model with pack/unpack (a State that is not trivially copyable).
class PackedToy : public ToyModel<std::vector<std::int32_t>> {
 public:
  using ToyModel::ToyModel;
  void pack(const State& s, std::vector<std::byte>& out) const {
    const auto* bytes = reinterpret_cast<const std::byte*>(s.data());
    out.insert(out.end(), bytes, bytes + s.size() * sizeof(std::int32_t));
  }
  State unpack(std::span<const std::byte> in) const {
    State s(in.size() / sizeof(std::int32_t));
    std::memcpy(s.data(), in.data(), in.size());
    return s;
  }
};

using RawToy = ToyModel<Counters>;
using ReplayToy = ToyModel<std::vector<std::int32_t>>;
static_assert(PackedModel<PackedToy>);
static_assert(!PackedModel<RawToy> && std::is_trivially_copyable_v<Counters>);
static_assert(!PackedModel<ReplayToy>);

template <class A>
void print_violation(std::string_view label, const Violation<A>& v) {
  std::vector<std::string> also;
  for (const PropertyMessage& m : v.also_violated) {
    also.push_back(fmt::format("{} '{}'", m.name, m.message));
  }
  fmt::print("{} {} {} '{}' state {} transition {}\npath {}\nalso {}\n", label, v.property, v.name,
             v.message, v.state, v.transition.value_or(0), v.path, also);
}

template <class M>
int run(const M& model, const Limits& limits, const ExploreOptions<typename M::Action>& opts) {
  const auto r = explore_auto(model, limits, opts);
  if (!mpi::is_lead_rank()) {
    return 0;
  }
  fmt::print("outcome {}\nlimit {}\nstates {}\ntransitions {}\ndepth {}\n", outcome_name(r.outcome),
             r.limit, r.stats.states, r.stats.transitions, r.stats.depth);
  fmt::print("level_starts {}\nreached {}\nviolating_states {}\n", r.level_starts, r.reached,
             r.violating_states);
  if (r.violation) {
    print_violation("violation", *r.violation);
  }
  for (std::size_t p = 0; p < r.property_results.size(); ++p) {
    const auto& entry = r.property_results[p];
    fmt::print("property {} {}: {}\n", p, r.properties[p].name, property_status_name(entry.status));
    if (entry.violation) {
      print_violation("  own", *entry.violation);
    }
  }
  return r.outcome == Outcome::kHolds ? 0 : r.outcome == Outcome::kViolated ? 1 : 4;
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  Limits limits;
  ExploreOptions<int> opts;
  std::string model = "packed";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (arg == "--model")
      model = value();
    else if (arg == "--size")
      settings.size = std::stoi(value());
    else if (arg == "--violate")
      settings.violate = true;
    else if (arg == "--violate-more")
      settings.violate_more = true;
    else if (arg == "--per-property")
      opts.per_property = true;
    else if (arg == "--continue")
      opts.stop_at_violation = false;
    else if (arg == "--max-states")
      limits.max_states = std::stoull(value());
    else if (arg == "--max-depth")
      limits.max_depth = static_cast<std::uint32_t>(std::stoul(value()));
    else if (arg == "--threads")
      opts.threads = static_cast<unsigned>(std::stoul(value()));
    else if (arg == "--fail-rank")
      settings.fail_rank = std::stoi(value());
    else if (arg == "--kill-rank")
      settings.kill_rank = std::stoi(value());
    else {
      fmt::print(stderr, "checker_mpi_toy: unknown argument {}\n", arg);
      return 2;
    }
  }
  try {
    if (model == "packed")
      return run(PackedToy(settings), limits, opts);
    if (model == "raw")
      return run(RawToy(settings), limits, opts);
    if (model == "replay")
      return run(ReplayToy(settings), limits, opts);
    fmt::print(stderr, "checker_mpi_toy: unknown model {}\n", model);
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "checker_mpi_toy: {}\n", e.what());
    return 2;
  }
}
