// Command-line parsing shared by the commands: mechanism switches, limits, properties.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/check_command.h"

namespace preemptcheck::cli {

/// Parses the words after `check`. On an error returns nothing and sets `error`.
std::optional<CheckOptions> parse_check_args(const std::vector<std::string>& args,
                                             std::string& error);

/// The usage text of the whole command.
const char* usage_text();

}  // namespace preemptcheck::cli
