// Names as the Kubernetes API validates them.
#include "files/kube_names.h"

#include <fmt/format.h>

namespace preemptcheck {
namespace {

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool is_alnum(char c) { return is_lower_alnum(c) || (c >= 'A' && c <= 'Z'); }

// [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, at most 63 characters.
std::string name_part_problem(std::string_view s, std::string_view what) {
  if (s.size() > 63)
    return fmt::format("{} longer than 63 characters", what);
  if (s.empty())
    return fmt::format("{} empty", what);
  if (!is_alnum(s.front()) || !is_alnum(s.back())) {
    return fmt::format("{} not starting and ending with a letter or digit", what);
  }
  for (char c : s) {
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') {
      return fmt::format("{} with a character other than letters, digits, '-', '_' and '.'", what);
    }
  }
  return "";
}

}  // namespace

std::string dns1123_subdomain_problem(std::string_view s) {
  constexpr std::string_view kRule =
      "lower-case letters, digits, '-' and '.', starting and ending with a letter or digit";
  if (s.empty())
    return "an empty name";
  if (s.size() > 253)
    return "longer than 253 characters";
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    const std::string_view part =
        s.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (part.empty() || !is_lower_alnum(part.front()) || !is_lower_alnum(part.back())) {
      return fmt::format("not a DNS-1123 subdomain ({})", kRule);
    }
    for (char c : part) {
      if (!is_lower_alnum(c) && c != '-')
        return fmt::format("not a DNS-1123 subdomain ({})", kRule);
    }
    if (dot == std::string_view::npos)
      return "";
    start = dot + 1;
  }
}

std::string label_key_problem(std::string_view s) {
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos)
    return name_part_problem(s, "a name part");
  if (s.find('/', slash + 1) != std::string_view::npos)
    return "more than one '/'";
  const std::string_view prefix = s.substr(0, slash);
  if (std::string problem = dns1123_subdomain_problem(prefix); !problem.empty()) {
    return "a prefix " + problem;
  }
  return name_part_problem(s.substr(slash + 1), "a name part");
}

std::string label_value_problem(std::string_view s) {
  if (s.empty())
    return "";
  return name_part_problem(s, "a value");
}

}  // namespace preemptcheck
