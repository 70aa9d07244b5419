// InterruptSignals: the handler and its flag.
#include "cli/interrupt_signals.h"

#include <fmt/format.h>

namespace preemptcheck::cli {
namespace {

std::atomic<int> received{0};
static_assert(std::atomic<int>::is_always_lock_free,
              "the flag must be lock-free to be set from a signal handler");

extern "C" void on_interrupt(int signal) { received.store(signal, std::memory_order_relaxed); }

}  // namespace

InterruptSignals::InterruptSignals() {
  received.store(0);
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: a second signal ends the process; SA_RESTART: system calls carry on.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &action, &old_int_);
  sigaction(SIGTERM, &action, &old_term_);
}

InterruptSignals::~InterruptSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

const std::atomic<int>* InterruptSignals::flag() const { return &received; }

std::string InterruptSignals::signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return fmt::format("signal {}", signal);
  }
}

}  // namespace preemptcheck::cli
