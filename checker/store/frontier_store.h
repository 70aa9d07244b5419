// FrontierStore: states waiting to be expanded, in the most compact form the model allows —
// packed bytes (PackedModel), a memcpy image (trivially copyable State), or State objects
// otherwise — appended one after another in chunks of a ChunkPool, and read back in the order
// they were stored, a unit of at most kUnit states at a time. Once the pool has more than its
// spill threshold in use, each chunk that fills is written to the store's temporary file
// (checker/store/temp_file.h) and given back, as TLC keeps its queue on disk: a unit is then read
// back with one read call. LevelFrontier: one breadth-first
// level, made of the stores its states were found in and the id of each state, so that a
// level is neither copied nor sorted: the search reads each store front to back, and the ids
// (given in step-key order when the level was committed) are what make the result independent
// of the order in which the states are read. A rank of the distributed search keeps its frontier in
// one FrontierStore of its states' encodings (push_encoded(), read_encoded()).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "checker/model.h"
#include "checker/store/chunk_pool.h"
#include "checker/store/hash_slots.h"
#include "checker/store/temp_file.h"

namespace preemptcheck::checker {

/// Where a unit of a level's states lies: part, chunk and byte range [offset, end_offset),
/// and its states' indices [first, end) in the part.
struct FrontierUnit {
  std::uint32_t part = 0;
  std::uint32_t chunk = 0;
  std::uint32_t offset = 0;
  std::uint32_t end_offset = 0;
  std::uint32_t first = 0;
  std::uint32_t end = 0;
};

template <Model M>
class FrontierStore {
 public:
  using State = typename M::State;

  static constexpr bool kPacked = PackedModel<M>;
  static constexpr bool kFixed = FixedPackedModel<M>;
  static constexpr bool kRaw = !kPacked && std::is_trivially_copyable_v<State>;
  static constexpr bool kBytes = kPacked || kRaw;
  /// States per unit of work.
  static constexpr std::uint32_t kUnit = 256;

  /// A store taking chunks from `pool`, which writes each chunk that fills to its file while
  /// the pool has more than `spill_bytes` in use.
  explicit FrontierStore(ChunkPool& pool, std::size_t spill_bytes = SIZE_MAX)
      : pool_(&pool), spill_bytes_(spill_bytes) {}
  FrontierStore(FrontierStore&& other) noexcept { *this = std::move(other); }
  FrontierStore& operator=(FrontierStore&& other) noexcept {
    if (this != &other) {
      clear();
      pool_ = other.pool_;
      spill_bytes_ = other.spill_bytes_;
      chunks_ = std::move(other.chunks_);
      chunk_used_ = std::move(other.chunk_used_);
      chunk_at_ = std::move(other.chunk_at_);
      file_ = std::move(other.file_);
      marks_ = std::move(other.marks_);
      states_ = std::move(other.states_);
      used_ = std::exchange(other.used_, ChunkPool::kChunkBytes);
      count_ = std::exchange(other.count_, 0);
      other.chunks_.clear();
      other.chunk_used_.clear();
      other.chunk_at_.clear();
      other.marks_.clear();
      other.states_.clear();
    }
    return *this;
  }
  FrontierStore(const FrontierStore&) = delete;
  FrontierStore& operator=(const FrontierStore&) = delete;
  ~FrontierStore() { clear(); }

  std::size_t size() const { return count_; }

  /// Stores a state; may throw std::bad_alloc, leaving the store as it was.
  void push(const M& model, State&& state) {
    if constexpr (kBytes) {
      const std::byte* bytes = nullptr;
      std::size_t length = 0;
      if constexpr (kPacked) {
        scratch_.clear();
        model.pack(state, scratch_);
        bytes = scratch_.data();
        length = scratch_.size();
      } else {
        bytes = reinterpret_cast<const std::byte*>(&state);
        length = sizeof(State);
      }
      push_encoded({bytes, length});
    } else {
      if (count_ % kUnit == 0) {
        reserve_one_more(marks_);
        marks_.push_back({0, 0, 0, 0, static_cast<std::uint32_t>(count_), 0});
      }
      states_.push_back(std::move(state));
      ++count_;
    }
  }

  /// Stores a state given as its encoding (what push() would store for it: the model's
  /// packing, or the memcpy image of a trivially copyable State); may throw std::bad_alloc,
  /// leaving the store as it was.
  void push_encoded(std::span<const std::byte> encoding) requires kBytes {
    const std::byte* bytes = encoding.data();
    const std::size_t length = encoding.size();
    const std::size_t header = kFixedWidth ? 0 : header_bytes(length);
    if (header + length > ChunkPool::kChunkBytes) {
      throw std::length_error("a state's encoding is longer than a frontier chunk");
    }
    const bool new_chunk = used_ + header + length > ChunkPool::kChunkBytes;
    if (new_chunk) {
      reserve_one_more(chunks_);
      reserve_one_more(chunk_used_);
      reserve_one_more(chunk_at_);
    }
    if (new_chunk || count_ % kUnit == 0) {
      reserve_one_more(marks_);
    }
    if (new_chunk) {
      std::byte* chunk = pool_->acquire();
      if (!chunks_.empty()) {
        chunk_used_.back() = static_cast<std::uint32_t>(used_);
        if (pool_->used_bytes() > spill_bytes_) {
          try {
            spill_last();
          } catch (...) {
            pool_->release(chunk);
            throw;
          }
        }
      }
      chunks_.push_back(chunk);
      chunk_used_.push_back(0);
      chunk_at_.push_back(kInMemory);
      used_ = 0;
    }
    if (new_chunk || count_ % kUnit == 0) {
      marks_.push_back({0, static_cast<std::uint32_t>(chunks_.size() - 1),
                        static_cast<std::uint32_t>(used_), 0, static_cast<std::uint32_t>(count_),
                        0});
    }
    std::byte* to = chunks_.back() + used_;
    if constexpr (!kFixedWidth) {
      to = write_header(to, length);
    }
    std::memcpy(to, bytes, length);
    used_ += header + length;
    chunk_used_.back() = static_cast<std::uint32_t>(used_);
    ++count_;
  }

  /// Calls f(index, encoding) for the states of `unit` from index `from` on, in order, until
  /// f returns false; the encoding is valid during the call only.
  template <class F>
  void read_encoded(const FrontierUnit& unit, std::uint32_t from, F&& f) const
      requires(kBytes && !kRaw && !kFixed) {
    const std::byte* at = unit_bytes(unit);
    for (std::uint32_t i = unit.first; i < unit.end; ++i) {
      std::size_t length = 0;
      at = read_header(at, length);
      if (i >= from && !f(i, std::span<const std::byte>(at, length))) {
        return;
      }
      at += length;
    }
  }

  /// Appends this store's units, as part `part`, to `out`.
  void units(std::uint32_t part, std::vector<FrontierUnit>& out) const {
    for (std::size_t m = 0; m < marks_.size(); ++m) {
      FrontierUnit unit = marks_[m];
      unit.part = part;
      const bool last = m + 1 == marks_.size();
      unit.end = last ? static_cast<std::uint32_t>(count_) : marks_[m + 1].first;
      if constexpr (kBytes) {
        unit.end_offset = !last && marks_[m + 1].chunk == unit.chunk ? marks_[m + 1].offset
                                                                     : chunk_used_[unit.chunk];
      }
      out.push_back(unit);
    }
  }

  /// Calls f(index, const State&) for the states of `unit` from index `from` on, in order,
  /// until f returns false.
  template <class F>
  void read(const M& model, const FrontierUnit& unit, std::uint32_t from, F&& f) const {
    if constexpr (kBytes) {
      const std::byte* at = unit_bytes(unit);
      for (std::uint32_t i = unit.first; i < unit.end; ++i) {
        std::size_t length = 0;
        if constexpr (kFixedWidth) {
          length = fixed_width(model);
        } else {
          at = read_header(at, length);
        }
        if (i >= from) {
          if constexpr (kPacked) {
            const State state = model.unpack({at, length});
            if (!f(i, state)) {
              return;
            }
          } else {
            State state;
            std::memcpy(static_cast<void*>(&state), at, sizeof(State));
            if (!f(i, static_cast<const State&>(state))) {
              return;
            }
          }
        }
        at += length;
      }
    } else {
      for (std::uint32_t i = std::max(from, unit.first); i < unit.end; ++i) {
        if (!f(i, states_[i])) {
          return;
        }
      }
    }
  }

  /// Bytes held outside the chunk pool (the pool counts the chunks), reserved room included.
  std::size_t bytes() const {
    return chunks_.capacity() * (sizeof(std::byte*) + sizeof(std::uint32_t) + sizeof(std::size_t)) +
           marks_.capacity() * sizeof(FrontierUnit) + states_.capacity() * sizeof(State) +
           scratch_.capacity();
  }

 private:
  static constexpr bool kFixedWidth = kRaw || kFixed;
  static constexpr std::size_t kInMemory = SIZE_MAX;

  // Where the bytes of `unit` are: in memory, or read from the file into a buffer of the
  // calling thread's, kept for its next unit.
  const std::byte* unit_bytes(const FrontierUnit& unit) const {
    if (chunks_[unit.chunk] != nullptr) {
      return chunks_[unit.chunk] + unit.offset;
    }
    thread_local std::vector<std::byte> buffer;
    buffer.resize(unit.end_offset - unit.offset);
    file_.read(chunk_at_[unit.chunk] + unit.offset, buffer.data(), buffer.size());
    return buffer.data();
  }

  // Writes the last chunk to the file and gives it back to the pool.
  void spill_last() {
    const std::size_t c = chunks_.size() - 1;
    chunk_at_[c] = file_.append(chunks_[c], chunk_used_[c]);
    pool_->release(chunks_[c]);
    chunks_[c] = nullptr;
  }

  static std::size_t fixed_width(const M& model) {
    if constexpr (kFixed) {
      return model.packed_size();
    } else {
      return sizeof(State);
    }
  }

  // A variable-length encoding's length goes before it in 7-bit groups, low group first.
  static std::size_t header_bytes(std::size_t length) {
    std::size_t n = 1;
    while (length >= 0x80) {
      length >>= 7;
      ++n;
    }
    return n;
  }
  static std::byte* write_header(std::byte* to, std::size_t length) {
    while (length >= 0x80) {
      *to++ = static_cast<std::byte>((length & 0x7F) | 0x80);
      length >>= 7;
    }
    *to++ = static_cast<std::byte>(length);
    return to;
  }
  static const std::byte* read_header(const std::byte* at, std::size_t& length) {
    length = 0;
    for (unsigned shift = 0;; shift += 7) {
      const auto b = static_cast<unsigned>(*at++);
      length |= std::size_t{b & 0x7FU} << shift;
      if ((b & 0x80U) == 0) {
        return at;
      }
    }
  }

  void clear() noexcept {
    if (pool_ != nullptr) {
      for (std::byte* chunk : chunks_) {
        if (chunk != nullptr) {
          pool_->release(chunk);
        }
      }
    }
    chunks_.clear();
    chunk_used_.clear();
    chunk_at_.clear();
    file_ = TempFile();
    marks_.clear();
    states_.clear();
    used_ = ChunkPool::kChunkBytes;
    count_ = 0;
  }

  ChunkPool* pool_ = nullptr;
  std::size_t spill_bytes_ = SIZE_MAX;
  std::vector<std::byte*> chunks_;         // nullptr: written to the file
  std::vector<std::uint32_t> chunk_used_;  // bytes used in each chunk
  std::vector<std::size_t> chunk_at_;      // where a written chunk is in the file
  TempFile file_;
  std::vector<FrontierUnit> marks_;            // where each unit begins
  std::vector<State> states_;                  // State objects, for a model that is neither
  std::vector<std::byte> scratch_;             // the encoding being stored
  std::size_t used_ = ChunkPool::kChunkBytes;  // bytes used in the last chunk
  std::size_t count_ = 0;
};

/// The states of one level: the stores they were found in, and the id of each.
template <Model M>
class LevelFrontier {
 public:
  using State = typename M::State;

  /// A level of one state, id 0.
  static LevelFrontier single(const M& model, ChunkPool& pool, State&& state) {
    std::vector<FrontierStore<M>> parts;
    parts.emplace_back(pool);
    parts.back().push(model, std::move(state));
    std::vector<PooledArray<std::uint32_t>> ids;
    ids.emplace_back(pool);
    ids.back().push_back(0);
    return LevelFrontier(std::move(parts), std::move(ids));
  }

  /// A level made of `parts`, state i of part p having id ids[p][i]; `skipped` of them have
  /// the id kNoId, states another state of their fingerprint replaced, which are not read.
  LevelFrontier(std::vector<FrontierStore<M>> parts, std::vector<PooledArray<std::uint32_t>> ids,
                std::size_t skipped = 0)
      : parts_(std::move(parts)), ids_(std::move(ids)) {
    for (const FrontierStore<M>& part : parts_) {
      size_ += part.size();
    }
    size_ -= skipped;
  }
  LevelFrontier() = default;

  std::size_t size() const { return size_; }

  /// The level's units of work, every state in exactly one.
  std::vector<FrontierUnit> units() const {
    std::vector<FrontierUnit> out;
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      parts_[p].units(static_cast<std::uint32_t>(p), out);
    }
    return out;
  }

  /// Calls f(id, index, const State&) for the states of `unit` from index `from` on (not those
  /// of id kNoId), until f returns false.
  template <class F>
  void read(const M& model, const FrontierUnit& unit, std::uint32_t from, F&& f) const {
    const PooledArray<std::uint32_t>& ids = ids_[unit.part];
    parts_[unit.part].read(model, unit, from, [&](std::uint32_t i, const State& state) {
      return ids[i] == kNoId || f(ids[i], i, state);
    });
  }

  /// Calls f(const State&) for every state, until f returns false.
  template <class F>
  void for_each(const M& model, F&& f) const {
    for (const FrontierUnit& unit : units()) {
      bool go_on = true;
      read(model, unit, 0, [&](std::uint32_t, std::uint32_t, const State& state) {
        go_on = f(state);
        return go_on;
      });
      if (!go_on) {
        return;
      }
    }
  }

  /// Bytes held outside the chunk pool (the pool counts the chunks).
  std::size_t bytes() const {
    std::size_t bytes = ids_.capacity() * sizeof(PooledArray<std::uint32_t>);
    for (const FrontierStore<M>& part : parts_) {
      bytes += part.bytes();
    }
    return bytes;
  }

 private:
  std::vector<FrontierStore<M>> parts_;
  std::vector<PooledArray<std::uint32_t>> ids_;
  std::size_t size_ = 0;
};

}  // namespace preemptcheck::checker
