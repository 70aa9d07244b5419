// FrontierStore, LevelFrontier and TraceStore tests: states read back in the order they were
// stored, across chunks, with chunks kept in memory or written to the temporary file, and
// encodings stored and read as bytes (a rank's frontier); a unit
// resumed part way; the chunks given back to the pool; and a temporary file that cannot be
// created reported as TempFileError, never as a silent loss.
#include <gtest/gtest.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "checker/model.h"
#include "checker/store/chunk_pool.h"
#include "checker/store/frontier_store.h"
#include "checker/store/temp_file.h"
#include "checker/store/trace_store.h"

namespace preemptcheck::checker {
namespace {

// A model whose state is a number packed into a variable number of bytes (1 to 48), so that
// encodings of many lengths fill and cross the chunks.
struct NumberModel {
  using State = std::uint32_t;
  using Action = std::uint32_t;
  State initial_state() const { return 0; }
  void enabled_actions(const State&, std::vector<Action>&) const {}
  State next_state(const State& s, const Action&, Observation&) const { return s; }
  void check_initial(const State&, Observation&) const {}
  std::uint64_t fingerprint(const State& s) const { return s; }
  const std::vector<PropertyInfo>& properties() const { return properties_; }
  void pack(const State& s, std::vector<std::byte>& out) const {
    const std::size_t length = 4 + s % 45;
    for (std::size_t i = 0; i < length; ++i) {
      out.push_back(static_cast<std::byte>(i < 4 ? (s >> (8 * i)) & 0xFF : i));
    }
  }
  State unpack(std::span<const std::byte> in) const {
    EXPECT_EQ(
        in.size(),
        4 + (static_cast<std::uint32_t>(in[0]) | static_cast<std::uint32_t>(in[1]) << 8 |
             static_cast<std::uint32_t>(in[2]) << 16 | static_cast<std::uint32_t>(in[3]) << 24) %
                45);
    State s = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      s |= static_cast<State>(in[i]) << (8 * i);
    }
    return s;
  }
  std::vector<PropertyInfo> properties_;
};
static_assert(PackedModel<NumberModel>);

constexpr std::uint32_t kCount = 100'000;  // about 2.6 MiB of encodings: three chunks

// Every state of `store`, read unit by unit.
std::vector<std::uint32_t> read_all(const NumberModel& model, const FrontierStore<NumberModel>& s) {
  std::vector<FrontierUnit> units;
  s.units(0, units);
  std::vector<std::uint32_t> out;
  std::uint32_t expected_index = 0;
  for (const FrontierUnit& unit : units) {
    EXPECT_EQ(unit.first, expected_index);
    EXPECT_LE(unit.end - unit.first, FrontierStore<NumberModel>::kUnit);
    s.read(model, unit, unit.first, [&](std::uint32_t index, const std::uint32_t& state) {
      EXPECT_EQ(index, expected_index++);
      out.push_back(state);
      return true;
    });
  }
  return out;
}

class FrontierStoreTest : public ::testing::TestWithParam<std::size_t> {};

TEST_P(FrontierStoreTest, ReadsBackInStoredOrderAcrossChunks) {
  const NumberModel model;
  ChunkPool pool;
  std::vector<std::uint32_t> expected;
  {
    FrontierStore<NumberModel> store(pool, GetParam());
    for (std::uint32_t i = 0; i < kCount; ++i) {
      const std::uint32_t state = i * 2654435761U;
      expected.push_back(state);
      store.push(model, std::uint32_t{state});
    }
    ASSERT_EQ(store.size(), kCount);
    EXPECT_EQ(read_all(model, store), expected);
    if (GetParam() == 0) {
      // Every chunk but the last went to the file and back to the pool.
      EXPECT_EQ(pool.used_bytes(), ChunkPool::kChunkBytes);
    } else {
      EXPECT_GE(pool.used_bytes(), 3 * ChunkPool::kChunkBytes);
    }
    // A unit resumed part way reads from there.
    std::vector<FrontierUnit> units;
    store.units(0, units);
    const FrontierUnit& unit = units[units.size() / 2];
    std::vector<std::uint32_t> tail;
    store.read(model, unit, unit.first + 7, [&](std::uint32_t, const std::uint32_t& state) {
      tail.push_back(state);
      return tail.size() < 3;
    });
    ASSERT_EQ(tail.size(), 3U);
    EXPECT_EQ(tail[0], expected[unit.first + 7]);
    EXPECT_EQ(tail[2], expected[unit.first + 9]);
    // A moved store keeps its states and its file.
    FrontierStore<NumberModel> moved(std::move(store));
    EXPECT_EQ(read_all(model, moved), expected);
  }
  EXPECT_EQ(pool.used_bytes(), 0U);
}

// A rank's frontier: encodings stored as they came (push_encoded) are read back as the same
// bytes (read_encoded) and as the states push() would have stored, across chunks, in memory
// or in the file.
TEST_P(FrontierStoreTest, KeepsEncodingsAsGiven) {
  const NumberModel model;
  ChunkPool pool;
  std::vector<std::uint32_t> expected;
  FrontierStore<NumberModel> store(pool, GetParam());
  std::vector<std::byte> bytes;
  for (std::uint32_t i = 0; i < kCount; ++i) {
    const std::uint32_t state = i * 2654435761U;
    expected.push_back(state);
    bytes.clear();
    model.pack(state, bytes);
    store.push_encoded(bytes);
  }
  ASSERT_EQ(store.size(), kCount);
  EXPECT_EQ(read_all(model, store), expected);
  std::vector<FrontierUnit> units;
  store.units(0, units);
  std::uint32_t count = 0;
  for (const FrontierUnit& unit : units) {
    store.read_encoded(unit, unit.first, [&](std::uint32_t index, std::span<const std::byte> e) {
      bytes.clear();
      model.pack(expected[index], bytes);
      EXPECT_TRUE(std::equal(e.begin(), e.end(), bytes.begin(), bytes.end())) << index;
      ++count;
      return true;
    });
  }
  EXPECT_EQ(count, kCount);
  if (GetParam() == 0) {
    EXPECT_EQ(pool.used_bytes(), ChunkPool::kChunkBytes);
  }
}

INSTANTIATE_TEST_SUITE_P(SpillThreshold, FrontierStoreTest,
                         ::testing::Values(std::size_t{0}, SIZE_MAX));

TEST(LevelFrontierTest, GivesEachStateItsId) {
  const NumberModel model;
  ChunkPool pool;
  std::vector<FrontierStore<NumberModel>> parts;
  std::vector<PooledArray<std::uint32_t>> ids;
  for (std::uint32_t p = 0; p < 2; ++p) {
    parts.emplace_back(pool, 0);
    ids.emplace_back(pool);
    for (std::uint32_t i = 0; i < 1000; ++i) {
      parts.back().push(model, i * 2 + p);
      ids.back().push_back(i * 2 + p + 5);  // the state's value plus 5
    }
  }
  const LevelFrontier<NumberModel> level(std::move(parts), std::move(ids));
  EXPECT_EQ(level.size(), 2000U);
  std::size_t seen = 0;
  for (const FrontierUnit& unit : level.units()) {
    level.read(model, unit, unit.first,
               [&](std::uint32_t id, std::uint32_t, const std::uint32_t& state) {
                 EXPECT_EQ(id, state + 5);
                 ++seen;
                 return true;
               });
  }
  EXPECT_EQ(seen, 2000U);
}

TEST(TraceStoreTest, ReadsRecordsFromMemoryAndFile) {
  TraceStore trace;
  const std::size_t count = 3 * TraceStore::kTail + 17;
  const auto fingerprint = [](std::size_t i) { return i * 0x9e3779b97f4a7c15ULL + 1; };
  for (std::size_t i = 0; i < count; ++i) {
    trace.push_back(fingerprint(i), static_cast<std::uint32_t>(i * 7),
                    static_cast<std::uint16_t>(i % 65521));
  }
  EXPECT_EQ(trace.size(), count);
  EXPECT_EQ(trace.file_bytes(), 3 * TraceStore::kTail * 16);
  for (const std::size_t i : {std::size_t{0}, TraceStore::kTail - 1, TraceStore::kTail,
                              2 * TraceStore::kTail + 5, count - 1}) {
    EXPECT_EQ(trace.fingerprint(i), fingerprint(i));
    EXPECT_EQ(trace.parent(i), i * 7);
    EXPECT_EQ(trace.action(i), i % 65521);
  }
  std::size_t next = 0;
  trace.for_each_fingerprint([&](std::size_t id, std::uint64_t f) {
    EXPECT_EQ(id, next);
    EXPECT_EQ(f, fingerprint(id));
    ++next;
  });
  EXPECT_EQ(next, count);
  // A range across the file's end and the records in memory.
  next = 2 * TraceStore::kTail + 3;
  trace.for_each_fingerprint(next, count - 2, [&](std::size_t id, std::uint64_t f) {
    EXPECT_EQ(id, next);
    EXPECT_EQ(f, fingerprint(id));
    ++next;
  });
  EXPECT_EQ(next, count - 2);
}

// Sets TMPDIR for the test's scope.
class ScopedTmpdir {
 public:
  explicit ScopedTmpdir(const char* dir) {
    if (const char* old = std::getenv("TMPDIR")) {
      old_ = old;
    }
    setenv("TMPDIR", dir, 1);
  }
  ~ScopedTmpdir() {
    if (old_) {
      setenv("TMPDIR", old_->c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
  }

 private:
  std::optional<std::string> old_;
};

TEST(TempFileTest, AFileThatCannotBeCreatedIsAnError) {
  const ScopedTmpdir tmpdir("/nonexistent-directory-of-preemptcheck");
  TempFile file;
  const char data[4] = {1, 2, 3, 4};
  try {
    file.append(data, sizeof data);
    FAIL() << "no error";
  } catch (const TempFileError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-directory-of-preemptcheck"),
              std::string::npos)
        << e.what();
  }
  const NumberModel model;
  ChunkPool pool;
  FrontierStore<NumberModel> store(pool, 0);
  EXPECT_THROW(
      {
        for (std::uint32_t i = 0; i < kCount; ++i) {
          store.push(model, std::uint32_t{i});
        }
      },
      TempFileError);
}

TEST(TempFileTest, AFileOnATmpfsIsCountedAsMemoryUntilClosed) {
  struct statfs info {};
  if (::statfs("/dev/shm", &info) != 0 || static_cast<std::uint64_t>(info.f_type) != 0x01021994 ||
      ::access("/dev/shm", W_OK) != 0) {
    GTEST_SKIP() << "needs a writable tmpfs at /dev/shm";
  }
  const ScopedTmpdir tmpdir("/dev/shm");
  const std::uint64_t before = TempFile::bytes_in_memory();
  const std::vector<char> data(1 << 20, 'x');
  {
    TempFile file;
    file.append(data.data(), data.size());
    file.append(data.data(), 100);
    EXPECT_TRUE(file.is_in_memory());
    EXPECT_EQ(TempFile::bytes_in_memory(), before + data.size() + 100);
    TempFile moved = std::move(file);
    EXPECT_EQ(TempFile::bytes_in_memory(), before + data.size() + 100);
    moved = TempFile();
    EXPECT_EQ(TempFile::bytes_in_memory(), before);
  }
  EXPECT_EQ(TempFile::bytes_in_memory(), before);
}

}  // namespace
}  // namespace preemptcheck::checker
