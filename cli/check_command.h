// The `check` command: explore every interleaving of one scenario and report.
#pragma once

#include <iosfwd>
#include <string>

#include "cli/common.h"
#include "properties/check_request.h"

namespace preemptcheck::cli {

/// The options of `check`: what it asks of the library (properties/check_request.h).
using CheckOptions = CheckRequest;

/// The command line that repeats this check (paths as recorded_path() gives them): what a
/// counterexample's header records and `--simulate` prints.
std::string check_command_line(const CheckOptions& options);

/// Runs `preemptcheck check`; returns the exit code.
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace preemptcheck::cli
