// `check SCENARIO --simulate N`: random walks over the scenario instead of the breadth-first
// search (properties/simulate.h), each violation shrunk and written as `check --out` writes.
#pragma once

#include <iosfwd>
#include <string>

#include "cli/check_command.h"
#include "impl/scenario.h"

namespace preemptcheck::cli {

/// Runs the walks on `scenario` (on the lead rank alone: they are not distributed) (its mechanisms
/// chosen; `source` says where it came from) and reports: exit 1 with a violation, 3 when the walks
/// found none (nothing is proven), 2 when
/// --out cannot be used.
int run_simulation(const CheckOptions& options, const Scenario& scenario, const std::string& source,
                   std::ostream& out, std::ostream& err);

}  // namespace preemptcheck::cli
