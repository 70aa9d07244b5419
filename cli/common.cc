// Common: what every command shares (common.h).
#include "cli/common.h"

#include <fmt/format.h>

#include <limits>
#include <ostream>
#include <utility>

#include "files/scenario_yaml.h"
#include "report/print.h"

namespace preemptcheck::cli {

std::optional<std::uint64_t> parse_memory_size(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
    ++digits;
  if (digits == 0 || digits > 15)
    return std::nullopt;
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  const std::string_view suffix = text.substr(digits);
  static constexpr std::pair<std::string_view, std::uint64_t> kUnits[] = {
      {"", 1},
      {"K", 1000ULL},
      {"M", 1000ULL * 1000},
      {"G", 1000ULL * 1000 * 1000},
      {"T", 1000ULL * 1000 * 1000 * 1000},
      {"Ki", 1ULL << 10},
      {"Mi", 1ULL << 20},
      {"Gi", 1ULL << 30},
      {"Ti", 1ULL << 40}};
  for (const auto& [unit, factor] : kUnits) {
    if (suffix == unit) {
      if (value == 0 || value > std::numeric_limits<std::uint64_t>::max() / factor) {
        return std::nullopt;
      }
      return value * factor;
    }
  }
  return std::nullopt;
}

Scenario load_scenario(const std::string& path) {
  if (path.empty())
    return load_scenario_text(default_scenario_yaml(), "<embedded default>");
  return load_scenario_file(path);
}

void print_notes(const std::vector<std::string>& notes, std::string_view command,
                 std::ostream& err) {
  for (const std::string& n : notes)
    report::print(err, "preemptcheck {}: note: {}\n", command, n);
}

bool choose_mechanisms(Scenario& scenario, const MechanismChoice& choice, std::string_view command,
                       std::string_view error_prefix, std::ostream& err) {
  std::vector<std::string> notes;
  if (auto error = apply_choice(scenario, choice, &notes)) {
    report::print(err, "{}: {}\n", error_prefix, *error);
    return false;
  }
  print_notes(notes, command, err);
  return true;
}

void warn_replaced(const std::string& path, std::ostream& err) {
  report::print(err,
                "preemptcheck: warning: '{}' held a different counterexample; it was replaced "
                "(give each check its own --out directory to keep both)\n",
                path);
}

}  // namespace preemptcheck::cli
