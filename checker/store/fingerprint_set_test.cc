// FingerprintSet tests: membership across growth, the fingerprint 0, and a refill that does
// not give back what was stored.
#include "checker/store/fingerprint_set.h"

#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace preemptcheck::checker {
namespace {

// Fingerprints that share home slots often (small integers spread poorly without the
// table's own mixing), with 0 among them.
std::uint64_t nth(std::size_t i) { return i % 3 == 0 ? i / 3 : i * 0x9e3779b97f4a7c15ULL; }

// A refill that inserts `stored` (which it refers to) again.
auto refill_from(const std::vector<std::uint64_t>& stored) {
  return [&stored](FingerprintSet& set) {
    FingerprintSet::Inserter inserter(set);
    for (const std::uint64_t f : stored) {
      inserter.add(f);
    }
  };
}

TEST(FingerprintSetTest, KeepsEveryFingerprintAcrossGrowth) {
  FingerprintSet set;
  std::vector<std::uint64_t> stored;
  const auto refill = refill_from(stored);
  std::size_t grown = 0;
  for (std::size_t i = 0; i < 100000; ++i) {
    const std::size_t before = set.bytes();
    set.reserve(1, refill);
    grown += set.bytes() != before ? 1 : 0;
    ASSERT_FALSE(set.contains(nth(i))) << i;
    set.insert(nth(i));
    stored.push_back(nth(i));
  }
  EXPECT_GT(grown, 5U);
  EXPECT_EQ(set.size(), stored.size());
  for (const std::uint64_t f : stored) {
    EXPECT_TRUE(set.contains(f)) << f;
  }
  EXPECT_TRUE(set.contains(0));
  EXPECT_FALSE(set.contains(0x123456789abcdefULL));
  // At most 3/4 full.
  EXPECT_GE(set.bytes() / sizeof(std::uint64_t) * 3, set.size() * 4);
}

TEST(FingerprintSetTest, ARefillThatLosesAFingerprintIsAnError) {
  FingerprintSet set;
  std::vector<std::uint64_t> stored;
  const auto refill = refill_from(stored);
  set.reserve(1, refill);
  for (std::uint64_t f = 1; f <= 3072; ++f) {
    set.insert(f);
    stored.push_back(f);
  }
  stored.pop_back();
  EXPECT_THROW(set.reserve(1000, refill), std::logic_error);
}

TEST(FingerprintSetTest, InsertersOnSeveralThreadsKeepEveryFingerprint) {
  FingerprintSet set;
  const std::size_t count = 200000;
  set.reserve(count, [](FingerprintSet&) {});
  {
    std::vector<std::jthread> threads;
    for (std::size_t t = 0; t < 4; ++t) {
      threads.emplace_back([&set, t] {
        FingerprintSet::Inserter inserter(set);
        for (std::size_t i = t; i < count; i += 4) {
          inserter.add(nth(i));
        }
      });
    }
  }
  EXPECT_EQ(set.size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    ASSERT_TRUE(set.contains(nth(i))) << i;
  }
  EXPECT_FALSE(set.contains(0x123456789abcdefULL));
}

}  // namespace
}  // namespace preemptcheck::checker
