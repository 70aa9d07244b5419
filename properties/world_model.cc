// WorldModel: adapt World and the spec monitors to the generic explorer.
#include "properties/world_model.h"

#include <cstdint>
#include <cstring>
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
  for (const spec::PropertyDef& d : spec::property_table()) {
    properties_.push_back({std::string(d.name),
                           d.is_witness ? checker::PropertyKind::kSometimes
                                        : checker::PropertyKind::kAlways,
                           std::string(d.statement)});
  }
}

void WorldModel::report(const spec::Findings& v, checker::Observation& obs) const {
  for (const auto& [property, message] : v.violated) {
    if (checked_.test(static_cast<size_t>(property))) {
      obs.violate(static_cast<size_t>(property), message);
    }
  }
  for (spec::Property p : v.reached) obs.reach(static_cast<size_t>(p));
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

void WorldModel::pack(const WorldState& s, std::vector<std::byte>& out) const {
  constexpr std::size_t n = sizeof(WorldState);
  const auto* image = reinterpret_cast<const unsigned char*>(&s);
  const auto* base = reinterpret_cast<const unsigned char*>(&reference_);
  std::size_t i = 0;
  while (i < n) {
    // A run of equal bytes (zero after the XOR), skipped a word at a time where it can.
    std::size_t zeros = 0;
    while (i < n && zeros < 255) {
      if (zeros + 8 <= 255 && i + 8 <= n) {
        std::uint64_t x = 0;
        std::uint64_t y = 0;
        std::memcpy(&x, image + i, 8);
        std::memcpy(&y, base + i, 8);
        if (x == y) {
          i += 8;
          zeros += 8;
          continue;
        }
      }
      if (image[i] != base[i]) {
        break;
      }
      ++i;
      ++zeros;
    }
    const std::size_t begin = i;
    while (i < n && i - begin < 255 && image[i] != base[i]) {
      ++i;
    }
    out.push_back(static_cast<std::byte>(zeros));
    out.push_back(static_cast<std::byte>(i - begin));
    for (std::size_t k = begin; k < i; ++k) {
      out.push_back(static_cast<std::byte>(image[k] ^ base[k]));
    }
  }
}

WorldState WorldModel::unpack(std::span<const std::byte> in) const {
  WorldState s = reference_;
  auto* image = reinterpret_cast<unsigned char*>(&s);
  std::size_t at = 0;
  std::size_t k = 0;
  while (k + 2 <= in.size()) {
    at += static_cast<std::size_t>(in[k]);
    const auto literals = static_cast<std::size_t>(in[k + 1]);
    k += 2;
    if (k + literals > in.size() || at + literals > sizeof(WorldState)) {
      throw std::logic_error("a packed state is malformed");
    }
    for (std::size_t j = 0; j < literals; ++j) {
      image[at + j] ^= static_cast<unsigned char>(in[k + j]);
    }
    at += literals;
    k += literals;
  }
  return s;
}

void WorldModel::check_initial(const WorldState& s, checker::Observation& obs) const {
  spec::Findings v;
  spec::check_state(s.world, v);
  report(v, obs);
}

}  // namespace preemptcheck
