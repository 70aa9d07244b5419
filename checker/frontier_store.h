// FrontierStore: states waiting to be expanded, in the most compact form the model allows —
// packed bytes (PackedModel), a memcpy image (trivially copyable State), or State objects
// otherwise. LevelFrontier: one breadth-first level, made of the stores its states were
// found in and the order in which the search reads them, so that a level is never copied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "checker/model.h"

namespace preemptcheck::checker {

template <Model M>
class FrontierStore {
 public:
  using State = typename M::State;

  static constexpr bool kPacked = PackedModel<M>;
  static constexpr bool kFixed = FixedPackedModel<M>;
  static constexpr bool kRaw = !kPacked && std::is_trivially_copyable_v<State>;

  std::size_t size() const {
    if constexpr (kRaw) {
      return bytes_.size() / sizeof(State);
    } else if constexpr (kFixed) {
      return width_ == 0 ? count_ : bytes_.size() / width_;
    } else if constexpr (kPacked) {
      return offsets_.size();
    } else {
      return states_.size();
    }
  }

  /// Stores a state; may throw std::bad_alloc, leaving the store as it was.
  void push(const M& model, State&& state) {
    if constexpr (kRaw) {
      const auto* bytes = reinterpret_cast<const std::byte*>(&state);
      bytes_.insert(bytes_.end(), bytes, bytes + sizeof(State));
    } else if constexpr (kPacked) {
      const std::size_t before = bytes_.size();
      try {
        model.pack(state, bytes_);
        if constexpr (kFixed) {
          width_ = model.packed_size();
          ++count_;
        } else {
          offsets_.push_back(before);
        }
      } catch (...) {
        bytes_.resize(before);
        throw;
      }
    } else {
      states_.push_back(std::move(state));
    }
  }

  /// Calls f(const State&) with state i.
  template <class F>
  void visit(const M& model, std::size_t i, F&& f) const {
    if constexpr (kRaw) {
      State state;
      std::memcpy(static_cast<void*>(&state), bytes_.data() + i * sizeof(State), sizeof(State));
      f(static_cast<const State&>(state));
    } else if constexpr (kPacked) {
      f(static_cast<const State&>(model.unpack(encoding(i))));
    } else {
      f(states_[i]);
    }
  }

  /// Bytes held, reserved room included.
  std::size_t bytes() const {
    return bytes_.capacity() + offsets_.capacity() * sizeof(std::size_t) +
           states_.capacity() * sizeof(State);
  }

 private:
  std::span<const std::byte> encoding(std::size_t i) const {
    if constexpr (kFixed) {
      return {bytes_.data() + i * width_, width_};
    } else {
      const std::size_t begin = offsets_[i];
      const std::size_t end = i + 1 < offsets_.size() ? offsets_[i + 1] : bytes_.size();
      return {bytes_.data() + begin, end - begin};
    }
  }

  std::vector<std::byte> bytes_;
  std::vector<std::size_t> offsets_;
  std::vector<State> states_;
  std::size_t width_ = 0;
  std::size_t count_ = 0;
};

/// The states of one level in the order the search expands them: state i is state
/// `order[i] & kIndexMask` of part `order[i] >> kPartShift`.
template <Model M>
class LevelFrontier {
 public:
  using State = typename M::State;
  static constexpr unsigned kPartShift = 40;
  static constexpr std::uint64_t kIndexMask = (std::uint64_t{1} << kPartShift) - 1;

  /// A level of one state.
  static LevelFrontier single(const M& model, State&& state) {
    LevelFrontier level;
    level.parts_.emplace_back();
    level.parts_.back().push(model, std::move(state));
    level.order_.push_back(0);
    return level;
  }

  /// A level made of `parts`, read in `order` (part << kPartShift | index, each naming a
  /// state of a part).
  LevelFrontier(std::vector<FrontierStore<M>> parts, std::vector<std::uint64_t> order)
      : parts_(std::move(parts)), order_(std::move(order)) {}
  LevelFrontier() = default;

  std::size_t size() const { return order_.size(); }

  /// Calls f(const State&) with state i.
  template <class F>
  void visit(const M& model, std::size_t i, F&& f) const {
    const std::uint64_t at = order_[i];
    parts_[at >> kPartShift].visit(model, static_cast<std::size_t>(at & kIndexMask),
                                   std::forward<F>(f));
  }

  /// Bytes held, reserved room included.
  std::size_t bytes() const {
    std::size_t bytes = order_.capacity() * sizeof(std::uint64_t);
    for (const FrontierStore<M>& part : parts_) {
      bytes += part.bytes();
    }
    return bytes;
  }

 private:
  std::vector<FrontierStore<M>> parts_;
  std::vector<std::uint64_t> order_;
};

}  // namespace preemptcheck::checker
