// RankIds tests: the global ids a rank owns, found by their index whether they are still in
// memory or already in the temporary file, and an id the rank does not own reported as kNoId.
#include "checker/store/rank_ids.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "checker/store/hash_slots.h"

namespace preemptcheck::checker {
namespace {

TEST(RankIdsTest, FindsEachIdItOwnsInMemoryAndInTheFile) {
  RankIds ids;
  EXPECT_EQ(ids.find(0), kNoId);
  // Every third id from 1: past kTail ids, so that most are in the file.
  const std::size_t count = 3 * RankIds::kTail + 5;
  for (std::size_t i = 0; i < count; ++i) {
    ids.push_back(static_cast<std::uint32_t>(1 + 3 * i));
  }
  ASSERT_EQ(ids.size(), count);
  EXPECT_LE(ids.bytes(), RankIds::kTail * sizeof(std::uint32_t));
  for (std::size_t i = 0; i < count; i += 997) {
    const auto id = static_cast<std::uint32_t>(1 + 3 * i);
    EXPECT_EQ(ids[i], id);
    EXPECT_EQ(ids.find(id), i);
    EXPECT_EQ(ids.find(id + 1), kNoId);
  }
  EXPECT_EQ(ids.find(static_cast<std::uint32_t>(1 + 3 * (count - 1))), count - 1);
  EXPECT_EQ(ids.find(0), kNoId);
  EXPECT_EQ(ids.find(static_cast<std::uint32_t>(1 + 3 * count)), kNoId);
}

}  // namespace
}  // namespace preemptcheck::checker
