// PropertyMessage: a violated safety property by name, with the monitors' message — what a
// counterexample file's `also:` lists and what a replayed schedule reports per step. The
// engine keeps its own model-neutral twin (checker::PropertyMessage in
// checker/explore_types.h), since checker/ includes nothing of spec/ and files/ nothing of
// checker/.
#pragma once

#include <string>

namespace preemptcheck::spec {

/// A violated property by name, with its message.
struct PropertyMessage {
  std::string name;
  std::string message;

  friend bool operator==(const PropertyMessage&, const PropertyMessage&) = default;
};

}  // namespace preemptcheck::spec
