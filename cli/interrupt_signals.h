// InterruptSignals: SIGINT and SIGTERM during a search stop it at its next safe point instead
// of ending the process, so that `check` still prints what it explored ("interrupted: nothing
// is proven") and writes the counterexamples it already found. The handler only stores the
// signal's number in a lock-free atomic, which is async-signal-safe; the search looks at it
// where it looks at the clock (checker::Limits::interrupt).
#pragma once

#include <atomic>
#include <csignal>
#include <string>

namespace preemptcheck::cli {

/// While alive, SIGINT and SIGTERM set flag() to the signal's number; a second signal ends
/// the process as before (the handler is reset once it has run). The previous handlers are
/// restored when it is destroyed. One at a time.
class InterruptSignals {
 public:
  InterruptSignals();
  ~InterruptSignals();
  InterruptSignals(const InterruptSignals&) = delete;
  InterruptSignals& operator=(const InterruptSignals&) = delete;

  /// 0 until a signal arrives, then its number.
  const std::atomic<int>* flag() const;

  /// "SIGINT", "SIGTERM", or "signal N".
  static std::string signal_name(int signal);

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace preemptcheck::cli
