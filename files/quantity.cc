// Kubernetes quantities, read exactly: the number as a digit string and a power of ten, the
// suffix as a power of ten or of two, and the product computed in 128 bits.
#include "files/quantity.h"

#include <cctype>

namespace preemptcheck {
namespace {

__extension__ typedef unsigned __int128 U128;  // GCC and Clang; -Wpedantic accepts it so

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The suffix as base-10 and base-2 exponents; false when it is not one of the grammar's.
bool suffix_exponents(std::string_view s, int& ten, int& two) {
  ten = 0;
  two = 0;
  struct Named {
    std::string_view name;
    int ten;
    int two;
  };
  // n and u as well as the grammar's suffixes: see files/quantity.h.
  static constexpr Named kSuffixes[] = {{"", 0, 0},    {"n", -9, 0},  {"u", -6, 0},  {"m", -3, 0},
                                        {"k", 3, 0},   {"M", 6, 0},   {"G", 9, 0},   {"T", 12, 0},
                                        {"P", 15, 0},  {"E", 18, 0},  {"Ki", 0, 10}, {"Mi", 0, 20},
                                        {"Gi", 0, 30}, {"Ti", 0, 40}, {"Pi", 0, 50}, {"Ei", 0, 60}};
  for (const Named& n : kSuffixes) {
    if (s == n.name) {
      ten = n.ten;
      two = n.two;
      return true;
    }
  }
  // <decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>. Kubernetes' scanner takes
  // only digits after the sign here; so does this one. Large exponents are cut at 99: no
  // bounded value needs more, and the result is then "too large" or "a fraction" anyway.
  if (s.size() < 2 || (s[0] != 'e' && s[0] != 'E'))
    return false;
  std::size_t i = 1;
  const bool negative = s[i] == '-';
  if (s[i] == '-' || s[i] == '+')
    ++i;
  if (i == s.size())
    return false;
  int value = 0;
  for (; i < s.size(); ++i) {
    if (!is_digit(s[i]))
      return false;
    value = value * 10 + (s[i] - '0');
    if (value > 99)
      value = 99;
  }
  ten = negative ? -value : value;
  return true;
}

// Where the suffix starts: after the sign, the digits and the point.
std::size_t suffix_start(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-'))
    ++i;
  while (i < text.size() && (is_digit(text[i]) || text[i] == '.'))
    ++i;
  return i;
}

}  // namespace

std::string_view quantity_suffix(std::string_view text) { return text.substr(suffix_start(text)); }

std::string fraction_problem(std::string_view text, bool is_cpu) {
  const std::string_view unit = is_cpu ? "millicores" : "bytes";
  const std::string_view suffix = quantity_suffix(text);
  if (suffix == "n" || suffix == "u") {
    return std::string(text) + ", not a whole number of " + std::string(unit) + " (the suffix '" +
           std::string(suffix) + "' counts " + (suffix == "n" ? "10^-9" : "10^-6") +
           (is_cpu ? " cores" : " bytes") + ")";
  }
  return std::string(text) + ", not a whole number of " + std::string(unit);
}

QuantityResult parse_quantity(std::string_view text, int unit_exponent, std::int64_t max) {
  QuantityResult out;
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-'))
    negative = text[i++] == '-';
  // <number> ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
  std::string digits;
  int ten = 0;  // the number is digits × 10^ten
  bool any = false;
  for (; i < text.size() && is_digit(text[i]); ++i) {
    digits += text[i];
    any = true;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    for (; i < text.size() && is_digit(text[i]); ++i) {
      digits += text[i];
      --ten;
      any = true;
    }
  }
  if (!any)
    return out;
  int suffix_ten = 0;
  int suffix_two = 0;
  if (!suffix_exponents(text.substr(i), suffix_ten, suffix_two))
    return out;
  ten += suffix_ten + unit_exponent;

  // Leading zeros carry nothing; trailing zeros move into the exponent.
  const std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {
    out.value = 0;
    return out;
  }
  digits.erase(0, first);
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    ++ten;
  }
  if (negative) {
    out.error = QuantityError::kNegative;
    return out;
  }
  // More significant digits than any bounded value can hold: too large, or a fraction.
  if (digits.size() > 19) {
    out.error = static_cast<int>(digits.size()) + ten > 19 ? QuantityError::kTooLarge
                                                           : QuantityError::kFraction;
    return out;
  }
  U128 value = 0;
  for (char c : digits)
    value = value * 10 + static_cast<unsigned>(c - '0');
  const U128 bound = static_cast<U128>(max);
  value <<= suffix_two;  // at most 2^64 × 2^60: fits in 128 bits
  for (; ten > 0; --ten) {
    if (value > bound)
      break;
    value *= 10;
  }
  for (; ten < 0; ++ten) {
    if (value % 10 != 0) {
      out.error = QuantityError::kFraction;
      return out;
    }
    value /= 10;
  }
  if (value > bound) {
    out.error = QuantityError::kTooLarge;
    return out;
  }
  out.value = static_cast<std::int64_t>(value);
  return out;
}

}  // namespace preemptcheck
