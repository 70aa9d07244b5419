// RankFailure: the error every rank of a distributed search raises when one rank failed.
#pragma once

#include <stdexcept>

namespace preemptcheck::checker {

/// A rank of a distributed search failed; what() names the rank and its error.
class RankFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace preemptcheck::checker
