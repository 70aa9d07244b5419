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

namespace preemptcheck {
namespace {

void raise_to(std::atomic<std::uint32_t>& peak, std::uint32_t value) {
  std::uint32_t seen = peak.load();
  while (seen < value && !peak.compare_exchange_weak(seen, value)) {
  }
}

}  // namespace

WorldModel::WorldModel(std::shared_ptr<const Cluster> cluster)
    : WorldModel(std::move(cluster), std::bitset<spec::kPropertyCount>().set()) {}

WorldModel::WorldModel(std::shared_ptr<const Cluster> cluster,
                       std::bitset<spec::kPropertyCount> checked)
    : cluster_(std::move(cluster)),
      reference_{World(*cluster_), spec::Ledger(*cluster_)},
      checked_(checked) {
  const std::size_t ledger_block = offsetof(WorldState, ledger) / World::kImageBlock;
  const std::size_t block_count =
      (sizeof(WorldState) + World::kImageBlock - 1) / World::kImageBlock;
  for (std::size_t b = ledger_block; b < block_count; ++b) {
    fixed_blocks_ |= std::uint64_t{1} << b;
  }
  fixed_blocks_ |= reference_.world.changeable_blocks();
  for (const spec::PropertyDef& d : spec::property_table()) {
    properties_.push_back(
        {std::string(d.name),
         d.is_witness ? checker::PropertyKind::kSometimes : checker::PropertyKind::kAlways,
         std::string(d.statement)});
  }
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

// The word i of a state's bytes.
std::uint64_t word_at(const unsigned char* bytes, std::size_t i) {
  std::uint64_t w;
  std::memcpy(&w, bytes + i * 8, 8);
  return w;
}

// The number of bits set in a byte (a table: std::popcount may be a library call on the
// baseline x86-64 target).
constexpr std::array<unsigned char, 256> kBitCount = [] {
  std::array<unsigned char, 256> table{};
  for (unsigned i = 0; i < 256; ++i) {
    table[i] = static_cast<unsigned char>(std::popcount(i));
  }
  return table;
}();

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

}  // namespace

void WorldModel::pack(const WorldState& s, std::vector<std::byte>& out) const {
  const auto* image = reinterpret_cast<const unsigned char*>(&s);
  const auto* base = reinterpret_cast<const unsigned char*>(&reference_);
  // The XOR with the reference, a nonzero word at a time: word masks and byte masks go in
  // `masks`, the nonzero bytes in `literals`; the top bitmap is filled as blocks are seen.
  std::array<unsigned char, kTopBytes> top{};
  std::array<unsigned char, kBlocks + kWords> masks;
  std::array<unsigned char, kWords * 8> literals;
  std::size_t mask_count = 0;
  std::size_t literal_count = 0;
  // Only blocks that can differ from the reference are looked at: those the World marks
  // for itself or for the reference, and the ledger's.
  static_assert(kBlocks <= 64 && World::kImageBlock == 64);
  for (std::uint64_t scan = s.world.changeable_blocks() | fixed_blocks_; scan != 0;
       scan &= scan - 1) {
    const auto block = static_cast<std::size_t>(std::countr_zero(scan));
    std::array<std::uint64_t, 8> x{};
    std::uint64_t any = 0;
    for (std::size_t k = 0; k < 8; ++k) {
      const std::size_t i = std::min(block * 8 + k, kWords - 1);
      x[k] = (block * 8 + k < kWords) ? word_at(image, i) ^ word_at(base, i) : 0;
      any |= x[k];
    }
    if (any == 0) {
      continue;
    }
    unsigned word_mask = 0;
    for (std::size_t k = 0; k < 8; ++k) {
      word_mask |= (x[k] != 0 ? 1U : 0U) << k;
    }
    masks[mask_count++] = static_cast<unsigned char>(word_mask);
    for (std::size_t k = 0; k < 8; ++k) {
      if (x[k] == 0) {
        continue;
      }
      const unsigned bytes = byte_mask(x[k]);
      masks[mask_count++] = static_cast<unsigned char>(bytes);
      unsigned char b[8];
      std::memcpy(b, &x[k], 8);
      for (unsigned j = 0; j < 8; ++j) {
        literals[literal_count] = b[j];
        literal_count += (bytes >> j) & 1U;
      }
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
    for (std::size_t k = 0; k < 8; ++k) {
      if (((word_mask >> k) & 1U) == 0) {
        continue;
      }
      const std::size_t i = block * 8 + k;
      const unsigned byte_bits = bytes[mask_at++];
      for (unsigned j = 0; j < 8; ++j) {
        if ((byte_bits >> j) & 1U) {
          if (literal_at >= in.size() || i * 8 + j >= sizeof(WorldState)) {
            malformed();
          }
          image[i * 8 + j] ^= bytes[literal_at++];
        }
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
