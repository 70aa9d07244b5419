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
/// restored when it is destroyed. They nest: main() installs them first thing, so that a
/// signal that arrives before the search begins is not lost (the search stops at its first
/// safe point); a nested one (the search's) keeps that flag and that handler, and only the
/// outermost restores the previous handlers.
class InterruptSignals {
 public:
  InterruptSignals();
  ~InterruptSignals();

  /// For the commands that do not stop at a safe point (replay, graph, import, a liveness
  /// check): the previous handlers are put back, and a signal that already arrived ends the
  /// process now, as it would have without the handlers.
  static void give_back();
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
