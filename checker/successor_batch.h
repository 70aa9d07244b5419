// SuccessorBatch: room for a few successor states, built in place and looked up together — a
// level explorer worker's successors waiting for their visited-set lookups
// (checker/level_explorer.h, LevelExplorer::Worker).
#pragma once

#include <array>
#include <cstddef>
#include <new>

namespace preemptcheck::checker::detail {

/// Room for a few successor states, built in place (no copy of a returned state) and looked
/// up together, so that their visited-set lookups wait for memory at the same time.
template <class State, std::size_t N>
class SuccessorBatch {
 public:
  static constexpr std::size_t kSize = N;

  SuccessorBatch() = default;
  SuccessorBatch(const SuccessorBatch&) = delete;
  SuccessorBatch& operator=(const SuccessorBatch&) = delete;
  ~SuccessorBatch() {
    for (std::size_t k = 0; k < N; ++k) {
      destroy(k);
    }
  }

  /// Makes slot k the state `make()` returns.
  template <class F>
  State& make(std::size_t k, F&& make) {
    destroy(k);
    State* state = ::new (static_cast<void*>(storage_[k].data())) State(make());
    live_[k] = true;
    return *state;
  }

  State& operator[](std::size_t k) {
    return *std::launder(reinterpret_cast<State*>(storage_[k].data()));
  }

 private:
  void destroy(std::size_t k) {
    if (live_[k]) {
      (*this)[k].~State();
      live_[k] = false;
    }
  }

  struct alignas(State) Storage : std::array<std::byte, sizeof(State)> {};
  std::array<Storage, N> storage_;
  std::array<bool, N> live_{};
};

}  // namespace preemptcheck::checker::detail
