// WorldModel: adapt World and the spec monitors to the generic explorer.
#include "properties/world_model.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "impl/watch_order.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace preemptcheck {
namespace {

void raise_to(std::atomic<std::uint32_t>& peak, std::uint32_t value) {
  std::uint32_t seen = peak.load();
  while (seen < value && !peak.compare_exchange_weak(seen, value)) {
  }
}

}  // namespace

std::uint64_t WorldModel::ledger_blocks() {
  const std::size_t ledger_block = offsetof(WorldState, ledger) / World::kImageBlock;
  const std::size_t block_count =
      (sizeof(WorldState) + World::kImageBlock - 1) / World::kImageBlock;
  std::uint64_t out = 0;
  for (std::size_t b = ledger_block; b < block_count; ++b)
    out |= std::uint64_t{1} << b;
  return out;
}

WorldModel::WorldModel(std::shared_ptr<const Cluster> cluster)
    : WorldModel(std::move(cluster), std::bitset<spec::kPropertyCount>().set()) {}

WorldModel::WorldModel(std::shared_ptr<const Cluster> cluster,
                       std::bitset<spec::kPropertyCount> checked)
    : cluster_(std::move(cluster)),
      reference_{World(*cluster_), spec::Ledger(*cluster_)},
      checked_(checked) {
  fixed_blocks_ = ledger_blocks() | reference_.world.changeable_blocks();
  for (const spec::PropertyDef& d : spec::property_table()) {
    properties_.push_back(
        {std::string(d.name),
         d.is_witness ? checker::PropertyKind::kSometimes : checker::PropertyKind::kAlways,
         std::string(d.statement), d.is_witness || checked_.test(static_cast<size_t>(d.id))});
  }
}

void WorldModel::reduce(Reduction r, Symmetry::Options options) {
  reduction_ = r;
  symmetry_.reset();
  set_watch_order(has_watch_order(r) ? WatchOrder::kCausal : WatchOrder::kFifo);
  if (has_symmetry(r))
    symmetry_ = std::make_shared<const Symmetry>(*cluster_, options);
}

void WorldModel::set_watch_order(WatchOrder order) {
  if (cluster_->watch_order() == order)
    return;
  cluster_ = std::make_shared<const Cluster>(cluster_->with_watch_order(order));
  reference_ = {World(*cluster_), spec::Ledger(*cluster_)};
  fixed_blocks_ = ledger_blocks() | reference_.world.changeable_blocks();
}

std::vector<Action> WorldModel::fifo_schedule(const std::vector<Action>& path) const {
  return serialize_schedule(*cluster_, path);
}

void WorldModel::report(const spec::Findings& v, checker::Observation& obs) const {
  for (const auto& [property, message] : v.violated) {
    if (checked_.test(static_cast<size_t>(property))) {
      obs.violate(static_cast<size_t>(property), message);
    }
  }
  for (spec::Property p : v.reached)
    obs.reach(static_cast<size_t>(p));
}

WorldState WorldModel::next_state(const WorldState& s, const Action& a,
                                  checker::Observation& obs) const {
  WorldState next = s;
  const StepReport step = next.world.apply(a);
  spec::Findings v;
  spec::check_step(s.world, step, next.world, next.ledger, v);
  report(v, obs);
  if (step.cycle) {
    const spec::BlockingRoundTrips trips = spec::blocking_round_trips(s.world, step);
    raise_to(peaks_->sync, trips.sync);
    raise_to(peaks_->async, trips.async);
  }
  return next;
}

namespace {

// The packed encoding's geometry: a state is read as 8-byte words, eight words to a block.
constexpr std::size_t kWords = (sizeof(WorldState) + 7) / 8;
constexpr std::size_t kBlocks = (kWords + 7) / 8;
constexpr std::size_t kTopBytes = (kBlocks + 7) / 8;
// The longest encoding: every block, word and byte marked.
constexpr std::size_t kMaxPacked = kTopBytes + kBlocks + kWords + kWords * 8;

static_assert(sizeof(WorldState) % 8 == 0, "a state is a whole number of words");

// The number of bits set in a byte (a table: std::popcount may be a library call on the
// baseline x86-64 target).
constexpr std::array<unsigned char, 256> kBitCount = [] {
  std::array<unsigned char, 256> table{};
  for (unsigned i = 0; i < 256; ++i) {
    table[i] = static_cast<unsigned char>(std::popcount(i));
  }
  return table;
}();

#if !defined(__SSE2__)
// The word i of a state's bytes.
std::uint64_t word_at(const unsigned char* bytes, std::size_t i) {
  std::uint64_t w;
  std::memcpy(&w, bytes + i * 8, 8);
  return w;
}

// One bit per nonzero byte of w, byte k of memory order as bit k (little-endian words):
// each byte's bits are folded into its lowest bit, and a multiplication gathers those.
unsigned byte_mask(std::uint64_t w) {
  static_assert(std::endian::native == std::endian::little);
  std::uint64_t t = w | w >> 4;
  t |= t >> 2;
  t |= t >> 1;
  t &= 0x0101010101010101ULL;
  return static_cast<unsigned>((t * 0x0102040810204080ULL) >> 56);
}
#endif

// The nonzero bytes of the 64 bytes at a XOR the 64 bytes at b, as a mask (bit i: byte i),
// and the XOR itself in `x`. SSE2, which every x86-64 has; elsewhere a word at a time.
std::uint64_t xor_block(const unsigned char* a, const unsigned char* b, unsigned char* x) {
#if defined(__SSE2__)
  std::uint64_t zero = 0;
  for (unsigned q = 0; q < 4; ++q) {
    const __m128i d = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 16 * q)),
                                    _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 16 * q)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(x + 16 * q), d);
    zero |= static_cast<std::uint64_t>(
                static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_setzero_si128()))))
            << (16 * q);
  }
  return ~zero;
#else
  std::uint64_t mask = 0;
  for (unsigned k = 0; k < 8; ++k) {
    const std::uint64_t w = word_at(a, k) ^ word_at(b, k);
    std::memcpy(x + 8 * k, &w, 8);
    mask |= std::uint64_t{byte_mask(w)} << (8 * k);
  }
  return mask;
#endif
}

}  // namespace

void WorldModel::pack(const WorldState& s, std::vector<std::byte>& out) const {
  const auto* image = reinterpret_cast<const unsigned char*>(&s);
  const auto* base = reinterpret_cast<const unsigned char*>(&reference_);
  // The XOR with the reference, a block at a time: word masks and byte masks go in
  // `masks`, the nonzero bytes in `literals`; the top bitmap is filled as blocks are seen.
  std::array<unsigned char, kTopBytes> top{};
  std::array<unsigned char, kBlocks + kWords> masks;
  std::array<unsigned char, kWords * 8> literals;
  std::size_t mask_count = 0;
  std::size_t literal_count = 0;
  // Only blocks that can differ from the reference are looked at: those the World marks
  // for itself or for the reference, and the ledger's. The last block may be partial.
  static_assert(kBlocks <= 64 && World::kImageBlock == 64);
  constexpr std::size_t kWhole = sizeof(WorldState) / 64;
  for (std::uint64_t scan = s.world.changeable_blocks() | fixed_blocks_; scan != 0;
       scan &= scan - 1) {
    const auto block = static_cast<std::size_t>(std::countr_zero(scan));
    alignas(16) unsigned char x[64];
    std::uint64_t nonzero = 0;
    if (block < kWhole) {
      nonzero = xor_block(image + block * 64, base + block * 64, x);
    } else {
      // The partial last block, padded with zeros.
      alignas(16) unsigned char a[64] = {};
      alignas(16) unsigned char b[64] = {};
      const std::size_t length = sizeof(WorldState) - block * 64;
      std::memcpy(a, image + block * 64, length);
      std::memcpy(b, base + block * 64, length);
      nonzero = xor_block(a, b, x);
    }
    if (nonzero == 0) {
      continue;
    }
    unsigned word_mask = 0;
    std::size_t word_at_mask = mask_count++;
    for (std::size_t k = 0; k < 8; ++k) {
      const auto bytes = static_cast<unsigned>((nonzero >> (8 * k)) & 0xFFU);
      if (bytes != 0) {
        word_mask |= 1U << k;
        masks[mask_count++] = static_cast<unsigned char>(bytes);
      }
    }
    masks[word_at_mask] = static_cast<unsigned char>(word_mask);
    for (std::uint64_t bits = nonzero; bits != 0; bits &= bits - 1) {
      literals[literal_count++] = x[std::countr_zero(bits)];
    }
    top[block / 8] = static_cast<unsigned char>(top[block / 8] | 1U << (block % 8));
  }
  const std::size_t at = out.size();
  out.resize(at + kTopBytes + mask_count + literal_count);
  std::byte* to = out.data() + at;
  std::memcpy(to, top.data(), kTopBytes);
  std::memcpy(to + kTopBytes, masks.data(), mask_count);
  std::memcpy(to + kTopBytes + mask_count, literals.data(), literal_count);
}

WorldState WorldModel::unpack(std::span<const std::byte> in) const {
  static_assert(kMaxPacked < std::numeric_limits<std::uint32_t>::max());
  const auto malformed = [] { throw std::logic_error("a packed state is malformed"); };
  if (in.size() < kTopBytes) {
    malformed();
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(in.data());
  // Where the literals start: after the top bitmap and one mask per marked block and word.
  std::size_t mask_at = kTopBytes;
  std::size_t literal_at = kTopBytes;
  for (std::size_t block = 0; block < kBlocks; ++block) {
    if ((bytes[block / 8] >> (block % 8)) & 1U) {
      if (literal_at >= in.size()) {
        malformed();
      }
      literal_at += 1U + kBitCount[bytes[literal_at]];
    }
  }
  if (literal_at > in.size()) {
    malformed();
  }
  WorldState s = reference_;
  auto* image = reinterpret_cast<unsigned char*>(&s);
  for (std::size_t block = 0; block < kBlocks; ++block) {
    if (((bytes[block / 8] >> (block % 8)) & 1U) == 0) {
      continue;
    }
    const unsigned word_mask = bytes[mask_at++];
    for (unsigned words = word_mask; words != 0; words &= words - 1) {
      const std::size_t i = block * 8 + static_cast<std::size_t>(std::countr_zero(words));
      const unsigned byte_bits = bytes[mask_at++];
      if (i >= kWords || literal_at + kBitCount[byte_bits] > in.size()) {
        malformed();
      }
      unsigned char* word = image + i * 8;
      for (unsigned b = byte_bits; b != 0; b &= b - 1) {
        word[std::countr_zero(b)] ^= bytes[literal_at++];
      }
    }
  }
  if (literal_at != in.size()) {
    malformed();
  }
  return s;
}

void WorldModel::check_initial(const WorldState& s, checker::Observation& obs) const {
  spec::Findings v;
  spec::check_state(s.world, v);
  report(v, obs);
}

}  // namespace preemptcheck
