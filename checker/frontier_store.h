// FrontierStore: the states of one breadth-first level waiting to be expanded, in the most
// compact form the model allows — packed bytes (PackedModel), a memcpy image (trivially
// copyable State), or State objects otherwise.
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

  /// The bytes state i takes in this store (offsets excluded).
  std::size_t encoded_bytes(std::size_t i) const {
    if constexpr (kRaw) {
      return sizeof(State);
    } else if constexpr (kPacked) {
      return encoding(i).size();
    } else {
      return sizeof(State);
    }
  }

  /// Makes room for `count` more states of `bytes` bytes in all, so that a store filled by
  /// take() holds no more than it needs; may throw std::bad_alloc.
  void reserve(std::size_t count, std::size_t bytes) {
    if constexpr (kRaw || kPacked) {
      bytes_.reserve(bytes_.size() + bytes);
    }
    if constexpr (kPacked && !kFixed) {
      offsets_.reserve(offsets_.size() + count);
    }
    if constexpr (!kRaw && !kPacked) {
      states_.reserve(states_.size() + count);
    }
  }

  /// Appends state i of `other` (moved out of it when stored as an object); may throw
  /// std::bad_alloc.
  void take(FrontierStore& other, std::size_t i) {
    if constexpr (kRaw) {
      const std::byte* begin = other.bytes_.data() + i * sizeof(State);
      bytes_.insert(bytes_.end(), begin, begin + sizeof(State));
    } else if constexpr (kPacked) {
      const std::span<const std::byte> from = other.encoding(i);
      const std::size_t before = bytes_.size();
      bytes_.insert(bytes_.end(), from.begin(), from.end());
      if constexpr (kFixed) {
        width_ = other.width_;
        ++count_;
      } else {
        try {
          offsets_.push_back(before);
        } catch (...) {
          bytes_.resize(before);
          throw;
        }
      }
    } else {
      states_.push_back(std::move(other.states_[i]));
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

}  // namespace preemptcheck::checker
