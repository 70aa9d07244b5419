// StateCodec: how states, observations and step records travel between the ranks of the
// distributed search (checker/mpi/distributed_explorer.h) as bytes. A State is sent as model.pack()
// for a PackedModel, as a memcpy image when it is trivially copyable, and otherwise as the action
// indices of its path from the initial state, which the receiving rank replays (correct for every
// deterministic model, slower); a rank keeps its frontier as these encodings too. Holds no MPI
// call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "checker/model.h"

namespace preemptcheck::checker::detail {

/// A model's states as bytes (see the file banner).
template <Model M>
class StateCodec {
 public:
  using State = typename M::State;
  using Action = typename M::Action;

  /// How states travel: packed by the model, as a memcpy image, or else as their path.
  static constexpr bool kPacked = PackedModel<M>;
  static constexpr bool kRaw = !kPacked && std::is_trivially_copyable_v<State>;

  explicit StateCodec(const M& model) : model_(model) {}

  /// Appends the encoding of `state`, reached by `path` (the parent's encoding) and `action`.
  void encode(const State& state, std::span<const std::byte> parent, std::size_t action,
              std::vector<std::byte>& out) const {
    if constexpr (kPacked) {
      model_.pack(state, out);
    } else if constexpr (kRaw) {
      const auto* bytes = reinterpret_cast<const std::byte*>(&state);
      out.insert(out.end(), bytes, bytes + sizeof(State));
    } else {
      out.insert(out.end(), parent.begin(), parent.end());
      const auto index = static_cast<std::uint16_t>(action);
      const auto* bytes = reinterpret_cast<const std::byte*>(&index);
      out.insert(out.end(), bytes, bytes + sizeof(index));
    }
  }

  /// The state `bytes` encode.
  State decode(std::span<const std::byte> bytes) const {
    if constexpr (kPacked) {
      return model_.unpack(bytes);
    } else if constexpr (kRaw) {
      State state;
      std::memcpy(static_cast<void*>(&state), bytes.data(), sizeof(State));
      return state;
    } else {
      State state = model_.initial_state();
      std::vector<Action> actions;
      Observation obs;
      for (std::size_t at = 0; at + sizeof(std::uint16_t) <= bytes.size();
           at += sizeof(std::uint16_t)) {
        std::uint16_t index = 0;
        std::memcpy(&index, bytes.data() + at, sizeof(index));
        actions.clear();
        model_.enabled_actions(state, actions);
        if (index >= actions.size()) {
          throw std::logic_error("model is not deterministic: a recorded action is gone");
        }
        state = model_.next_state(state, actions[index], obs);
        obs.clear();
      }
      return state;
    }
  }

 private:
  const M& model_;
};

/// States as their encodings, seen as a model of their own whose states are byte strings that
/// it packs as themselves: a rank keeps its frontier's encodings in a FrontierStore of this
/// (checker/store/frontier_store.h), which holds them in the chunks of the search's pool and
/// writes them to its temporary file past the memory it may keep, as the level search's
/// frontier does. Only pack and unpack are ever called.
struct EncodedStates {
  using State = std::vector<std::byte>;
  using Action = std::uint16_t;

  State initial_state() const { return {}; }
  void enabled_actions(const State&, std::vector<Action>&) const {}
  State next_state(const State& s, const Action&, Observation&) const { return s; }
  void check_initial(const State&, Observation&) const {}
  std::uint64_t fingerprint(const State&) const { return 0; }
  const std::vector<PropertyInfo>& properties() const { return none_; }
  void pack(const State& s, std::vector<std::byte>& out) const {
    out.insert(out.end(), s.begin(), s.end());
  }
  State unpack(std::span<const std::byte> in) const { return State(in.begin(), in.end()); }

 private:
  std::vector<PropertyInfo> none_;
};

/// Appends the bytes of `x`.
inline void append_u64(std::vector<std::byte>& out, std::uint64_t x) {
  const auto* bytes = reinterpret_cast<const std::byte*>(&x);
  out.insert(out.end(), bytes, bytes + sizeof(x));
}

/// The number whose bytes start at `at`.
inline std::uint64_t read_u64(const std::byte* at) {
  std::uint64_t x = 0;
  std::memcpy(&x, at, sizeof(x));
  return x;
}

/// The violations of `obs` as text, for a broadcast.
inline std::string encode_observation(const Observation& obs) {
  std::string out;
  for (const auto& [property, message] : obs.violated) {
    out += std::to_string(property);
    out += ' ';
    out += std::to_string(message.size());
    out += ' ';
    out += message;
  }
  return out;
}

/// Adds to `obs` the violations encode_observation() wrote into `text`.
inline void decode_observation(const std::string& text, Observation& obs) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t space = text.find(' ', at);
    const std::size_t property = std::stoull(text.substr(at, space - at));
    const std::size_t space2 = text.find(' ', space + 1);
    const std::size_t length = std::stoull(text.substr(space + 1, space2 - space - 1));
    obs.violate(property, text.substr(space2 + 1, length));
    at = space2 + 1 + length;
  }
}

}  // namespace preemptcheck::checker::detail
