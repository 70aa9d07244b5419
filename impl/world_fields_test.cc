// The list of the World's fields (impl/world_fields.h): it covers the World, and every byte of
// a listed field that can differ between two Worlds of a cluster moves World::fingerprint.
#include "impl/world_fields.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "impl/cluster.h"
#include "impl/test_support.h"

namespace preemptcheck {
namespace {

using test::kHigh;
using test::kLow;
using test::kSmall;
using test::node;
using test::pod;

// A struct of three members whose list leaves out the middle one: the coverage check says so,
// as it does of a World with a member added and not listed (which fails to compile).
struct ThreeMembers {
  std::uint32_t a;
  std::uint32_t b;
  std::uint32_t c;
};
constexpr std::array kAll = {
    FieldInfo{"a", 0, 4, FieldKind::kOther, FieldWhen::kAlways, FieldStorage::kWhole, 4},
    FieldInfo{"b", 4, 4, FieldKind::kOther, FieldWhen::kAlways, FieldStorage::kWhole, 4},
    FieldInfo{"c", 8, 4, FieldKind::kOther, FieldWhen::kAlways, FieldStorage::kWhole, 4}};
constexpr std::array kWithoutB = {kAll[0], kAll[2]};
constexpr std::array kWithoutC = {kAll[0], kAll[1]};
static_assert(fields_cover(kAll, sizeof(ThreeMembers)));
static_assert(!fields_cover(kWithoutB, sizeof(ThreeMembers)), "a gap is caught");
static_assert(!fields_cover(kWithoutC, sizeof(ThreeMembers)), "a missing last member is caught");

const FieldInfo& field(std::string_view name) {
  for (const FieldInfo& f : World::Fields::kTable) {
    if (f.name == name)
      return f;
  }
  throw std::invalid_argument(std::string(name));
}

unsigned char* bytes_of(World& w, std::string_view name) {
  return reinterpret_cast<unsigned char*>(&w) + field(name).offset;
}

template <class T>
void set(World& w, std::string_view name, const T& value, std::size_t at = 0) {
  std::memcpy(bytes_of(w, name) + at, &value, sizeof(T));
}

// A queue's size, the 32 bits at the end of a BoundedVec.
std::uint32_t queue_size(const World& w, const FieldInfo& f) {
  std::uint32_t size = 0;
  std::memcpy(&size, reinterpret_cast<const unsigned char*>(&w) + f.offset + f.size - 4, 4);
  return size;
}

// A World in which every field of the list is digested: the causal watch order, restarts,
// patch-diff=view, pdb-status=lagged, a cycle in flight, patches queued, evictions sent before a
// restart, two pending events and a job. Written as bytes: the digest reads a World's fields and
// nothing else, so the state need not be reachable.
World rich_world() {
  Scenario s = test::scenario(
      {node("n0"), node("n1")},
      {pod("a", kHigh, kSmall), pod("b", kLow, kSmall, "n0"), pod("c", kLow, kSmall, "n1")});
  s.faults.restarts = 1;
  s.mechanisms.patch_diff_view = true;
  s.mechanisms.pdb_status_lagged = true;
  s.mechanisms.dispatched_calls = true;
  static const auto cluster =
      std::make_unique<const Cluster>(Cluster(std::move(s)).with_watch_order(WatchOrder::kCausal));
  World w(*cluster);
  set(w, "in_flight_", PodId{0});
  set(w, "in_flight_nominated_", NodeId{0});  // differs from the lister's (a is pending)
  set(w, "patches_", PodSet{0b111});
  set(w, "late_evictions_", PodSet{0b1});
  const FieldInfo& events = field("events_");
  set(w, "events_", std::uint32_t{2}, events.size - 4);
  const FieldInfo& jobs = field("jobs_");
  set(w, "jobs_", std::uint32_t{1}, jobs.size - 4);
  return w;
}

// The bytes of field f in use in w, as [begin, end) ranges relative to the field; each byte of
// them holds state.
std::vector<std::pair<std::size_t, std::size_t>> live_bytes(const World& w, const FieldInfo& f) {
  const auto n = static_cast<std::size_t>(w.cluster().pod_count());
  switch (f.storage) {
    case FieldStorage::kPerPod:
      return {{0, n * f.element}};
    case FieldStorage::kQueue:
      // The values in use, and the low byte of the size (a higher one would pass capacity).
      return {{0, queue_size(w, f) * f.element}, {f.size - 4, f.size - 3}};
    case FieldStorage::kPerEvent:
      return {{0, w.events().size() * f.element}};
    case FieldStorage::kWhole:
      break;
  }
  return {{0, f.size}};
}

// Bytes that are always zero inside a listed field's values (a struct's `unused`).
bool always_zero(const FieldInfo& f, std::size_t at) {
  if (f.name == "jobs_")
    return at % sizeof(Job) >= offsetof(Job, unused);
  if (f.name == "in_flight_decision_")
    return at == offsetof(CycleDecision, unused);
  return false;
}

TEST(implWorldFields, TheListCoversTheWorld) {
  EXPECT_TRUE(fields_cover(World::Fields::kTable, sizeof(World)));
  EXPECT_EQ(World::Fields::kTable.front().name, "cluster_");
  EXPECT_EQ(World::Fields::kTable.back().name, "unused_");
}

TEST(implWorldFields, TheRichWorldDigestsItsConditionalWords) {
  const World w = rich_world();
  EXPECT_TRUE(w.cluster().is_causal());
  EXPECT_EQ(w.in_flight(), 0);
  EXPECT_EQ(w.events().size(), 2U);
  EXPECT_EQ(w.jobs().size(), 1U);
  EXPECT_NE(w.in_flight_nominated(), w.lister(0).nominated);
}

// Every byte of every listed field that holds state moves the fingerprint: a field added to the
// list and not to World::fingerprint fails here.
TEST(implWorldFields, EveryListedByteIsDigested) {
  const World w = rich_world();
  const std::uint64_t base = w.fingerprint();
  int flipped = 0;
  for (const FieldInfo& f : World::Fields::kTable) {
    if (f.kind == FieldKind::kCluster || f.kind == FieldKind::kUnused)
      continue;
    for (const auto& [begin, end] : live_bytes(w, f)) {
      for (std::size_t at = begin; at < end; ++at) {
        if (always_zero(f, at))
          continue;
        World x = w;
        unsigned char& b = bytes_of(x, f.name)[at];
        b = static_cast<unsigned char>(b ^ 1U);
        EXPECT_NE(x.fingerprint(), base) << f.name << " byte " << at << " is not digested";
        ++flipped;
      }
    }
  }
  EXPECT_GT(flipped, 150);
}

// The changeable blocks, derived from the same list, mark every byte the test above flips.
TEST(implWorldFields, TheChangeableBlocksCoverEveryListedByte) {
  const World w = rich_world();
  const std::uint64_t blocks = w.changeable_blocks();
  for (const FieldInfo& f : World::Fields::kTable) {
    if (f.kind == FieldKind::kCluster || f.kind == FieldKind::kUnused)
      continue;
    for (const auto& [begin, end] : live_bytes(w, f)) {
      for (std::size_t at = begin; at < end; ++at) {
        const std::size_t block = (f.offset + at) / World::kImageBlock;
        EXPECT_TRUE((blocks >> block & 1U) != 0) << f.name << " byte " << at;
      }
    }
  }
}

}  // namespace
}  // namespace preemptcheck
