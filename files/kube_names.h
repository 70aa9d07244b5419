// Names as the Kubernetes API validates them: object names (pods, nodes, PDBs) are DNS-1123
// subdomains; label keys are qualified names with an optional DNS-1123 prefix; label values are
// short and alphanumeric at both ends. The rules are those of k8s.io/apimachinery's
// pkg/util/validation (IsDNS1123Subdomain, IsQualifiedName, IsValidLabelValue), restated
// here from its documented grammar; this comment does not cite its lines.
#pragma once

#include <string>
#include <string_view>

namespace preemptcheck {

/// "" when `s` is a DNS-1123 subdomain (at most 253 characters of lower-case letters,
/// digits, '-' and '.', each dot-separated part starting and ending with a letter or digit);
/// otherwise what is wrong, as a phrase.
std::string dns1123_subdomain_problem(std::string_view s);

/// "" when `s` is a valid label key: an optional DNS-1123 subdomain prefix and '/', then a
/// name of 1 to 63 characters of letters, digits, '-', '_' and '.', starting and ending with a
/// letter or digit; otherwise what is wrong.
std::string label_key_problem(std::string_view s);

/// "" when `s` is a valid label value: empty, or at most 63 characters of letters, digits,
/// '-', '_' and '.', starting and ending with a letter or digit; otherwise what is wrong.
std::string label_value_problem(std::string_view s);

}  // namespace preemptcheck
