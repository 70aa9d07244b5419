// InterruptSignals: the handler and its flag.
#include "cli/interrupt_signals.h"

#include <fmt/format.h>

namespace preemptcheck::cli {
namespace {

std::atomic<int> received{0};
static_assert(std::atomic<int>::is_always_lock_free,
              "the flag must be lock-free to be set from a signal handler");

extern "C" void on_interrupt(int signal) { received.store(signal, std::memory_order_relaxed); }

int depth = 0;            // InterruptSignals alive (nested)
bool given_back = false;  // give_back() ran: the handlers are the previous ones again
struct sigaction outer_int {};
struct sigaction outer_term {};

}  // namespace

InterruptSignals::InterruptSignals() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: a second signal ends the process; SA_RESTART: system calls carry on.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  if (depth++ > 0) {
    // The outer one's flag stands; its handler is installed again (a library initialised in
    // between may have replaced it) unless a signal already used it up.
    if (!given_back && received.load() == 0) {
      sigaction(SIGINT, &action, nullptr);
      sigaction(SIGTERM, &action, nullptr);
    }
    return;
  }
  received.store(0);
  given_back = false;
  sigaction(SIGINT, &action, &old_int_);
  sigaction(SIGTERM, &action, &old_term_);
  outer_int = old_int_;
  outer_term = old_term_;
}

InterruptSignals::~InterruptSignals() {
  if (--depth > 0 || given_back)
    return;
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

void InterruptSignals::give_back() {
  if (depth == 0 || given_back)
    return;
  given_back = true;
  sigaction(SIGINT, &outer_int, nullptr);
  sigaction(SIGTERM, &outer_term, nullptr);
  if (const int signal = received.load(); signal != 0)
    std::raise(signal);
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
