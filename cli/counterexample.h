// The counterexample of a breadth-first check's violation, built from its explorer result;
// the file format itself lives in files/counterexample_yaml.h.
#pragma once

#include <bitset>
#include <string>

#include "checker/explorer.h"
#include "files/counterexample_yaml.h"
#include "impl/action.h"
#include "impl/scenario.h"
#include "spec/property.h"

namespace preemptcheck::cli {

// The format's names, as the commands and their tests have spelled them.
using preemptcheck::Counterexample;
using preemptcheck::CounterexampleStep;
using preemptcheck::FoundBy;
using preemptcheck::counterexample_file_name;
using preemptcheck::counterexample_to_yaml;
using preemptcheck::format_fingerprint;
using preemptcheck::load_counterexample_file;
using preemptcheck::load_counterexample_text;
using preemptcheck::write_counterexample;

/// The counterexample of the violation a breadth-first `check` found: replays its path on
/// a fresh World for the fingerprints and the comments. `checked` are the properties the
/// search checked; `command` is the command line that ran it.
Counterexample make_counterexample(const Scenario& scenario,
                                   const checker::Result<Action>& result,
                                   const std::bitset<spec::kPropertyCount>& checked,
                                   std::string command);

}  // namespace preemptcheck::cli
