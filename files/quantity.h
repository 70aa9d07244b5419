// Kubernetes quantities (`100m`, `2`, `0.5`, `512Mi`, `8Gi`, `1e3`, `1k`, `250000000n`) read
// exactly into an integer count of a unit: cpu in millicores, memory in bytes. The grammar is
// the API's: kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go
// :35-54 at commit 143ac994fd763e5ab60b8af009467b3a4c943dce (the comment above `type
// Quantity`, which also says a value more precise than the scale is rounded up, :51-54). Its
// parser takes two decimal suffixes that comment does not list, `n` (10^-9) and `u` (10^-6):
// staging/src/k8s.io/apimachinery/pkg/api/resource/suffix.go at commit
// 7125a5f011b453b866574f0181ab0caf70505cdc, L123-124 (and its fastLookup, L92-95).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace preemptcheck {

/// Why a quantity could not be read.
enum class QuantityError {
  kSyntax,    ///< not in the grammar
  kNegative,  ///< a negative amount
  kFraction,  ///< not a whole number of the unit (e.g. cpu `0.1m`, memory `0.5`)
  kTooLarge,  ///< above the caller's bound
};

/// The result of parse_quantity: a value or the reason there is none.
struct QuantityResult {
  std::optional<std::int64_t> value;
  QuantityError error = QuantityError::kSyntax;
};

/// `text` in units of 10^-`unit_exponent` of the quantity's base: `unit_exponent` 3 reads cpu
/// in millicores ("500m" → 500, "2" → 2000), 0 reads memory in bytes ("1Ki" → 1024). The value
/// is exact: one that is not a whole number of units is kFraction, never rounded (Kubernetes
/// rounds such a value up; the file should say what is meant). Values above `max` are
/// kTooLarge. Leading and trailing spaces are not part of the grammar.
QuantityResult parse_quantity(std::string_view text, int unit_exponent, std::int64_t max);

/// The suffix of a quantity's text ("Mi" of "512Mi", "n" of "1000000n", "" of "2").
std::string_view quantity_suffix(std::string_view text);

/// Why `text`, a kFraction quantity of cpu (`is_cpu`) or memory, is refused: "0.1m, not a
/// whole number of millicores", or "1500n, not a whole number of millicores (the suffix 'n'
/// counts 10^-9 cores)" — the suffixes n and u are named, as a fraction is likeliest there.
std::string fraction_problem(std::string_view text, bool is_cpu);

}  // namespace preemptcheck
