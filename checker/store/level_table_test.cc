// LevelTable tests: the smallest key wins whichever thread claims first, growth and reuse keep
// (or drop) exactly what they should, and the bulk work split into parts covers every slot.
#include "checker/store/level_table.h"

#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "checker/store/hash_slots.h"

namespace preemptcheck::checker {
namespace {

// Fingerprints that share home slots often, with 0 among them.
std::uint64_t nth(std::size_t i) { return i % 3 == 0 ? i / 3 : i * 0x9e3779b97f4a7c15ULL; }

// An on_parts that runs its parts on threads of their own, the last part first.
struct PartsOnThreads {
  std::size_t parts;
  template <class G>
  void operator()(const G& g) const {
    std::vector<std::jthread> threads;
    for (std::size_t p = parts; p-- > 0;) {
      threads.emplace_back([&g, p, n = parts] { g(p, n); });
    }
  }
};

// Claims fingerprint nth(i) with keys 3i, 3i+1 and 3i+2 from three threads; grows on `full`.
void claim_all(LevelTable& table, std::size_t count) {
  std::vector<std::jthread> threads;
  std::vector<bool> full(3, false);
  for (std::size_t t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < count; ++i) {
        std::size_t slot = 0;
        // Thread t claims with key 3i + (2 - t): the last thread brings the smallest key.
        if (table.claim(nth(i), 3 * i + 2 - t, slot) == LevelTable::Claim::kFull) {
          full[t] = true;
          return;
        }
      }
    });
  }
  threads.clear();
  if (full[0] || full[1] || full[2]) {
    table.grow(PartsOnThreads{3});
    claim_all(table, count);
  }
}

TEST(LevelTableTest, KeepsTheSmallestKeyAcrossGrowthOnSeveralThreads) {
  LevelTable table(1000, PartsOnThreads{2});
  const std::size_t count = 50000;
  claim_all(table, count);
  EXPECT_EQ(table.size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    ASSERT_EQ(table.find_key(nth(i)), 3 * i) << i;
  }
  EXPECT_EQ(table.find_key(0x123456789abcdefULL), LevelTable::kNoKey);
}

// A claim says whether it added the fingerprint, lowered its key, or left a smaller key (the
// search stores the state of a claim that lowered a key when the model merges states).
TEST(LevelTableTest, AClaimSaysWhetherItAddedLoweredOrLeftTheKey) {
  LevelTable table(64);
  for (const std::uint64_t fingerprint : {0ULL, 77ULL}) {
    std::size_t slot = 0;
    EXPECT_EQ(table.claim(fingerprint, 10, slot), LevelTable::Claim::kInserted);
    EXPECT_EQ(table.claim(fingerprint, 5, slot), LevelTable::Claim::kLowered);
    EXPECT_EQ(table.claim(fingerprint, 7, slot), LevelTable::Claim::kPresent);
    EXPECT_EQ(table.claim(fingerprint, 5, slot), LevelTable::Claim::kPresent);
    EXPECT_EQ(table.find_key(fingerprint), 5U);
  }
}

TEST(LevelTableTest, AResetOnPartsForgetsEveryClaimInTheMemoryItReuses) {
  LevelTable table(100000);
  const std::size_t count = 60000;
  claim_all(table, count);
  ASSERT_EQ(table.size(), count);
  const std::size_t bytes = table.bytes();
  table.reset(90000, PartsOnThreads{3});
  EXPECT_EQ(table.bytes(), bytes);  // the same memory
  EXPECT_EQ(table.size(), 0U);
  for (std::size_t i = 0; i < count; ++i) {
    ASSERT_EQ(table.find_key(nth(i)), LevelTable::kNoKey) << i;
  }
  std::size_t slot = 0;
  EXPECT_EQ(table.claim(nth(7), 5, slot), LevelTable::Claim::kInserted);
  EXPECT_EQ(table.find_key(nth(7)), 5U);
}

TEST(HashSlotsTest, PartsCoverEveryIndexOnce) {
  for (const std::size_t n : {0UL, 1UL, 2UL, 7UL, 4096UL, 1000003UL}) {
    for (const std::size_t parts : {1UL, 2UL, 3UL, 8UL}) {
      EXPECT_EQ(part_begin(n, 0, parts), 0U);
      EXPECT_EQ(part_begin(n, parts, parts), n);
      for (std::size_t p = 0; p < parts; ++p) {
        EXPECT_LE(part_begin(n, p, parts), part_begin(n, p + 1, parts));
      }
    }
  }
}

}  // namespace
}  // namespace preemptcheck::checker
