// Model: what the breadth-first explorer needs from a system under check. The engine knows
// nothing of scheduling; a model supplies states, actions and property verdicts.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace preemptcheck::checker {

/// `always` properties must hold in every reachable state or step; `sometimes` properties
/// are witnesses that must be reached at least once, proving the search is not vacuous.
enum class PropertyKind { kAlways, kSometimes };

/// A named property and its plain-English statement.
struct PropertyInfo {
  std::string name;
  PropertyKind kind = PropertyKind::kAlways;
  std::string statement;
  /// An `always` property the model does not check this run (it never reports it violated):
  /// a search that waits for every property's verdict does not wait for it.
  bool checked = true;
};

/// What a model reports while the engine generates a state: the `always` properties it
/// violates (index into properties(), message) and the `sometimes` properties it reaches.
struct Observation {
  std::vector<std::pair<std::size_t, std::string>> violated;
  std::vector<std::size_t> reached;

  void violate(std::size_t property, std::string message) {
    violated.emplace_back(property, std::move(message));
  }
  void reach(std::size_t property) { reached.push_back(property); }
  void clear() {
    violated.clear();
    reached.clear();
  }
};

/// A model of a finite transition system.
///  - initial_state(): the one start state.
///  - enabled_actions(s, out): appends every action enabled in s, in a deterministic order
///    (the order fixes which shortest counterexample is found).
///  - next_state(s, a, obs): the successor; records in obs the decision-time checks of this
///    step and the state invariants of the successor, and any witnesses reached.
///  - check_initial(s, obs): the state invariants of the initial state.
///  - fingerprint(s): a stable 64-bit digest, equal for equal states, the same on every
///    build and run.
///  - properties(): every property, indexed as in Observation.
template <class M>
concept Model = std::copyable<typename M::State> && std::copyable<typename M::Action> &&
    requires(const M& m, const typename M::State& s, const typename M::Action& a,
             std::vector<typename M::Action>& out, Observation& obs) {
  { m.initial_state() } -> std::same_as<typename M::State>;
  { m.enabled_actions(s, out) } -> std::same_as<void>;
  { m.next_state(s, a, obs) } -> std::same_as<typename M::State>;
  { m.check_initial(s, obs) } -> std::same_as<void>;
  { m.fingerprint(s) } -> std::same_as<std::uint64_t>;
  { m.properties() } -> std::convertible_to<const std::vector<PropertyInfo>&>;
};

/// A model that also packs its states, so the breadth-first frontier holds bytes instead of
/// State objects:
///  - pack(s, out): appends an encoding of s to out;
///  - unpack(bytes): the state whose encoding is exactly `bytes`.
/// A model without it still works: a trivially copyable State is stored by memcpy, any other
/// State as an object.
template <class M>
concept PackedModel = Model<M> &&
    requires(const M& m, const typename M::State& s, std::vector<std::byte>& out,
             std::span<const std::byte> in) {
  { m.pack(s, out) } -> std::same_as<void>;
  { m.unpack(in) } -> std::same_as<typename M::State>;
};

/// A packed model whose encodings all have the same length, packed_size() bytes; the
/// frontier then needs no per-state offsets.
template <class M>
concept FixedPackedModel = PackedModel<M> && requires(const M& m) {
  { m.packed_size() } -> std::convertible_to<std::size_t>;
};

/// Whether `m` may give two different states one fingerprint — a model under a symmetry
/// reduction fingerprints a state by its class (its member merges_states() says so; a model
/// without that member never does). The search then stores, of the states that one level
/// reaches with one fingerprint, the state of the smallest step, whatever the thread and rank
/// count: the one the sequential search stores, and the one the recorded parent and action
/// lead to.
template <class M>
bool merges_states(const M& m) {
  if constexpr (requires {
                  { m.merges_states() } -> std::convertible_to<bool>;
                }) {
    return m.merges_states();
  } else {
    return false;
  }
}

}  // namespace preemptcheck::checker
