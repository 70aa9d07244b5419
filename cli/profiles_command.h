// The `profiles` command: each profile, what it is, which kube-scheduler versions it stands
// for, and its switches (the ones that differ from `reference`, from impl/'s table).
#pragma once

#include <iosfwd>

namespace preemptcheck::cli {

/// Prints every profile of impl/'s table, `reference` first; exit 0.
int run_profiles(std::ostream& out);

}  // namespace preemptcheck::cli
