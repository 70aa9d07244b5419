// Kubernetes quantities: every form of the grammar reads to the exact integer, fractions of
// the unit and values above the bound are refused, and nothing outside the grammar passes.
#include "files/quantity.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>

namespace preemptcheck {
namespace {

constexpr std::int64_t kBig = std::int64_t{1} << 62;

std::int64_t cpu(std::string_view s) {
  const QuantityResult r = parse_quantity(s, 3, kBig);
  EXPECT_TRUE(r.value.has_value()) << s;
  return r.value.value_or(-1);
}

std::int64_t bytes(std::string_view s) {
  const QuantityResult r = parse_quantity(s, 0, kBig);
  EXPECT_TRUE(r.value.has_value()) << s;
  return r.value.value_or(-1);
}

QuantityError error(std::string_view s, int unit, std::int64_t max = kBig) {
  const QuantityResult r = parse_quantity(s, unit, max);
  EXPECT_FALSE(r.value.has_value()) << s;
  return r.error;
}

TEST(filesQuantity, CpuInMillicores) {
  EXPECT_EQ(cpu("100m"), 100);
  EXPECT_EQ(cpu("2"), 2000);
  EXPECT_EQ(cpu("0.5"), 500);
  EXPECT_EQ(cpu(".5"), 500);
  EXPECT_EQ(cpu("1."), 1000);
  EXPECT_EQ(cpu("+1.5"), 1500);
  EXPECT_EQ(cpu("1e3"), 1000000);
  EXPECT_EQ(cpu("1E3"), 1000000);
  EXPECT_EQ(cpu("1e-3"), 1);
  EXPECT_EQ(cpu("1k"), 1000000);
  EXPECT_EQ(cpu("0"), 0);
  EXPECT_EQ(cpu("-0"), 0);
  EXPECT_EQ(cpu("000250m"), 250);
  EXPECT_EQ(cpu("0.0010"), 1);
}

TEST(filesQuantity, MemoryInBytes) {
  EXPECT_EQ(bytes("512Mi"), 512LL << 20);
  EXPECT_EQ(bytes("8Gi"), 8LL << 30);
  EXPECT_EQ(bytes("1Ki"), 1024);
  EXPECT_EQ(bytes("0.5Ki"), 512);
  EXPECT_EQ(bytes("1.5Gi"), 1536LL << 20);
  EXPECT_EQ(bytes("1k"), 1000);
  EXPECT_EQ(bytes("1M"), 1000000);
  EXPECT_EQ(bytes("1G"), 1000000000);
  EXPECT_EQ(bytes("2T"), 2000000000000);
  EXPECT_EQ(bytes("1P"), 1000000000000000);
  EXPECT_EQ(bytes("3Ti"), 3LL << 40);
  EXPECT_EQ(bytes("1Pi"), 1LL << 50);
  EXPECT_EQ(bytes("1e3"), 1000);
  EXPECT_EQ(bytes("129e6"), 129000000);
  EXPECT_EQ(bytes("4"), 4);
  EXPECT_EQ(bytes("1000m"), 1);
  EXPECT_EQ(bytes("1E"), 1000000000000000000);
}

TEST(filesQuantity, FractionsOfTheUnitAreRefused) {
  EXPECT_EQ(error("0.1m", 3), QuantityError::kFraction);
  EXPECT_EQ(error("0.0001", 3), QuantityError::kFraction);
  EXPECT_EQ(error("0.5", 0), QuantityError::kFraction);
  EXPECT_EQ(error("100m", 0), QuantityError::kFraction);
  EXPECT_EQ(error("1e-1", 0), QuantityError::kFraction);
  EXPECT_EQ(error("0.0000000000000000000001", 0), QuantityError::kFraction);
}

TEST(filesQuantity, NegativeAndTooLargeAreRefused) {
  EXPECT_EQ(error("-1", 3), QuantityError::kNegative);
  EXPECT_EQ(error("-100m", 3), QuantityError::kNegative);
  EXPECT_EQ(error("1001", 0, 1000), QuantityError::kTooLarge);
  EXPECT_EQ(parse_quantity("1000", 0, 1000).value, 1000);
  EXPECT_EQ(error("8Ei", 0), QuantityError::kTooLarge);
  EXPECT_EQ(error("1e99", 0), QuantityError::kTooLarge);
  EXPECT_EQ(error("1e999999999999", 0), QuantityError::kTooLarge);
  EXPECT_EQ(error("99999999999999999999999999", 0), QuantityError::kTooLarge);
}

// n (10^-9) and u (10^-6), which Kubernetes' parser takes (metrics print cpu so): whole
// millicores or bytes read exactly, anything finer is a fraction whose reason names the suffix.
TEST(filesQuantity, NanoAndMicroSuffixes) {
  EXPECT_EQ(cpu("1000000n"), 1);
  EXPECT_EQ(cpu("250000000n"), 250);
  EXPECT_EQ(cpu("0n"), 0);
  EXPECT_EQ(cpu("1000u"), 1);
  EXPECT_EQ(cpu("1.5e3"), 1500000);
  EXPECT_EQ(bytes("1000000000n"), 1);
  EXPECT_EQ(bytes("3000000u"), 3);
  EXPECT_EQ(error("1500n", 3), QuantityError::kFraction);
  EXPECT_EQ(error("1n", 3), QuantityError::kFraction);
  EXPECT_EQ(error("999u", 3), QuantityError::kFraction);
  EXPECT_EQ(error("1500000u", 0), QuantityError::kFraction);
  EXPECT_EQ(error("-1000000n", 3), QuantityError::kNegative);
  EXPECT_EQ(quantity_suffix("1500n"), "n");
  EXPECT_EQ(quantity_suffix("+1.5Gi"), "Gi");
  EXPECT_EQ(quantity_suffix("2"), "");
  EXPECT_EQ(fraction_problem("1500n", true),
            "1500n, not a whole number of millicores (the suffix 'n' counts 10^-9 cores)");
  EXPECT_EQ(fraction_problem("5u", false),
            "5u, not a whole number of bytes (the suffix 'u' counts 10^-6 bytes)");
  EXPECT_EQ(fraction_problem("0.1m", true), "0.1m, not a whole number of millicores");
}

TEST(filesQuantity, OutsideTheGrammarIsASyntaxError) {
  for (std::string_view s :
       {"",    ".",   "+",     "-",   "m",     "1 ",   " 1",  "1mi",  "1KI",
        "1ki", "1i",  "1e",    "1e+", "1.2.3", "0x10", "1,5", "1Gib", "1e3m",
        "inf", "NaN", "1_000", "--1", "1U",    "1N",   "1nm", "1un",  "1e3u"}) {
    EXPECT_EQ(error(s, 3), QuantityError::kSyntax) << "'" << s << "'";
  }
}

}  // namespace
}  // namespace preemptcheck
