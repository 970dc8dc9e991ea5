// interrupt_signals.hpp: SIGINT and SIGTERM as a request to stop with what
// is done, and a second one as a stop at once.
//
// After catch_interrupt_signals(), the first SIGINT or SIGTERM only sets a
// flag (interrupt_flag(), the signal's number) that a simulation polls
// between events (SimulationOptions::stop_request), and is passed on to the
// child process being waited for (run_child, child_process.hpp), which stops
// the same way. A second one is passed on too, removes the output files
// being staged (atomic_output.hpp) and ends the process at once with status
// 128 + the signal's number, leaving no half-written file behind.
//
//   catch_interrupt_signals();
//   options.stop_request = interrupt_flag();
//   ...
//   if (const int signal = interrupt_signal()) std::cerr << signal_name(signal);
#pragma once

#include <sys/types.h>

#include <csignal>

namespace gcsim {

/// Installs the handlers of SIGINT and SIGTERM (once; later calls do nothing).
void catch_interrupt_signals();
/// Whether catch_interrupt_signals() was called.
bool interrupt_signals_caught();

/// The number of the first signal received, 0 while none was.
const volatile std::sig_atomic_t* interrupt_flag();
int interrupt_signal();
/// "SIGINT", "SIGTERM", else "signal N".
const char* signal_name(int signal);

/// The child process that signals are passed on to (0: none). A child
/// started after the first signal gets it at once.
void forward_interrupts_to(pid_t child);

}  // namespace gcsim
