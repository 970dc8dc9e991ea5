// interrupt_signals.cpp: the handler of SIGINT and SIGTERM
// (interrupt_signals.hpp); only async-signal-safe calls in it.
#include "app/interrupt_signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>

#include "sim/io/atomic_output.hpp"

namespace gcsim {
namespace {

volatile std::sig_atomic_t first_signal = 0;
volatile std::sig_atomic_t signals_received = 0;
std::atomic<pid_t> child_to_signal{0};
bool caught = false;

void on_interrupt(int signal) {
  const int saved_errno = errno;
  const pid_t child = child_to_signal.load();
  if (child > 0) ::kill(child, signal);
  if (signals_received++ == 0) {
    first_signal = signal;
    errno = saved_errno;
    return;
  }
  remove_staged_files_now();
  ::_exit(128 + signal);
}

}  // namespace

void catch_interrupt_signals() {
  if (caught) return;
  caught = true;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

bool interrupt_signals_caught() { return caught; }

const volatile std::sig_atomic_t* interrupt_flag() { return &first_signal; }

int interrupt_signal() { return first_signal; }

const char* signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  static char name[32];
  std::snprintf(name, sizeof name, "signal %d", signal);
  return name;
}

void forward_interrupts_to(pid_t child) {
  // With the signals held back, a signal arriving now reaches the child once.
  sigset_t interrupts, before;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  ::sigprocmask(SIG_BLOCK, &interrupts, &before);
  child_to_signal.store(child);
  if (child > 0 && first_signal != 0) ::kill(child, first_signal);
  ::sigprocmask(SIG_SETMASK, &before, nullptr);
}

}  // namespace gcsim
