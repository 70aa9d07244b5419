// Command-line parsing shared by the commands: mechanism switches, limits, properties.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/check_command.h"

namespace preemptcheck::cli {

/// Takes "--flag=value", or "--flag value" (advancing `i` past the value), at args[i].
bool take_value(const std::vector<std::string>& args, size_t& i, std::string_view flag,
                std::string& value);

/// Takes "--profile P" or "--MECHANISM=VALUE" at args[i] into `choice`; returns false when
/// args[i] is neither. Returns true with `error` set when the switch or its value is wrong.
bool take_mechanism(const std::vector<std::string>& args, size_t& i, MechanismChoice& choice,
                    std::string& error);

/// Parses the words after `check`. On an error returns nothing and sets `error`.
std::optional<CheckOptions> parse_check_args(const std::vector<std::string>& args,
                                             std::string& error);

/// The usage text of the whole command.
const char* usage_text();

}  // namespace preemptcheck::cli
