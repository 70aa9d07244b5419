// Property: the names and statements of what preemptcheck checks (DESIGN §4) — the safety
// properties, and the witnesses that prove a search reached the states that matter.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace preemptcheck::spec {

enum class Property : std::uint8_t {
  // always
  kNoDoubleVictim,
  kNoDoubleClaim,
  kNoOvercommit,
  kNoOverPreemption,
  kNoLostWakeup,
  kExpectedOutcome,
  kNoPdbOverspend,
  // sometimes (witnesses)
  kVictimsInFlight,
  kBusyNodeEvaluated,
  kTakeover,
  kNomineeBinds,
  kBindingBesideBinding,
  kPreemptorRetried,
  kGatedPreemptorWoken,
};

inline constexpr std::size_t kPropertyCount = 14;

/// One row of the property table.
struct PropertyDef {
  Property id;
  std::string_view name;
  bool is_witness;
  /// For a witness, the safety property whose check it makes non-vacuous.
  Property supports;
  std::string_view statement;
};

/// Every property, in Property order.
const std::vector<PropertyDef>& property_table();
const PropertyDef& property_def(Property p);
std::optional<Property> find_property(std::string_view name);

}  // namespace preemptcheck::spec
