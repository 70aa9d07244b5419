// Fingerprint: the digest behind World::fingerprint, for anything that extends a World's
// identity with state of its own (the spec's ledger does).
#pragma once

#include <cstdint>

namespace preemptcheck {

/// A stable 64-bit digest of a sequence of 64-bit words: each word is mixed in FNV-1a
/// fashion (xor, multiply, shift) and a final splitmix64 avalanche spreads the result. The
/// World packs its fields into words explicitly, so the digest does not depend on memory
/// layout, padding or the build.
class Digest {
 public:
  void word(std::uint64_t w) {
    h_ ^= w;
    h_ *= 0x100000001b3ULL;
    h_ ^= h_ >> 29;
  }
  std::uint64_t value() const {
    std::uint64_t z = h_ + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

}  // namespace preemptcheck
