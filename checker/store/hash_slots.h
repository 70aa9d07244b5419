// The arithmetic the open-addressing tables of the stores share — the level search's and the
// ranks' visited set (checker/store/fingerprint_set.h) and a level's claims
// (checker/store/level_table.h): where a fingerprint's probe begins, how a table grows, the
// state id that means "none", and how a table's bulk work is split over the search's threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace preemptcheck::checker {

/// The id that marks "no state"; real ids are smaller, so it is also the most states a
/// search numbers.
inline constexpr std::uint32_t kNoId = std::numeric_limits<std::uint32_t>::max();

/// splitmix64's finaliser: spreads a fingerprint's bits so that weak fingerprints (small
/// packed integers) still probe well.
inline std::uint64_t spread_bits(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The home slot of a fingerprint in a table of `slots` slots, any count (not only powers
/// of two, so that a table need not hold up to twice the room it needs): the spread
/// fingerprint's high word scaled to the slot count.
__extension__ typedef unsigned __int128 Product128;  // GCC's and Clang's 128-bit integer
inline std::size_t home_slot(std::uint64_t fingerprint, std::size_t slots) {
  return static_cast<std::size_t>((static_cast<Product128>(spread_bits(fingerprint)) * slots) >>
                                  64);
}

/// The slots an open-addressing table of `capacity` slots (0: none yet) needs for `want`
/// entries: it grows by half while it would be over 3/4 full, from 4,096.
inline std::size_t grown_slots(std::size_t capacity, std::size_t want) {
  std::size_t slots = capacity == 0 ? std::size_t{1} << 12 : capacity;
  while (want * 4 > slots * 3) {
    slots += slots / 2;
  }
  return slots;
}

/// How a table runs its bulk work (clearing its slots, moving them into a grown table): a
/// callable `on_parts` that calls g(part, parts) once for every part in [0, parts), on as many
/// threads as it likes — the searches pass their threads (checker/threads.h), so that the
/// pages of a new table fault in, and its slots are cleared, on every thread and not on one.
/// This one runs the whole work as one part, here.
struct OnePart {
  template <class G>
  void operator()(const G& g) const {
    g(std::size_t{0}, std::size_t{1});
  }
};

/// The part `part` of `parts` of [0, n): its first index (its end is the next part's first).
inline std::size_t part_begin(std::size_t n, std::size_t part, std::size_t parts) {
  return static_cast<std::size_t>(static_cast<Product128>(n) * part / parts);
}

}  // namespace preemptcheck::checker
