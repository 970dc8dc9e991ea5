// commands.hpp: gcsim's commands, each an entry of main()'s command table
// (command_runner.hpp), and the exit statuses they end with.
//
// Adding a command: a file NAME_command.cpp defining `Command NAME_command()`
// (its summary, usage, options and run function), its declaration below,
// and its entry in main.cpp's table.
#pragma once

#include "app/command_runner.hpp"

namespace gcsim {

namespace exit_codes {
inline constexpr int kOk = 0;
inline constexpr int kInputError = 1;    // bad cluster, workload or configuration file
inline constexpr int kUsage = 2;         // bad command line, unknown policy
inline constexpr int kPolicyBug = 3;     // a policy returned an invalid plan
inline constexpr int kOutputError = 4;   // outputs could not be written
inline constexpr int kDeadlock = 5;      // the run ended in a deadlock (outputs are written)
inline constexpr int kPlotError = 6;     // compare --plots yes: the plots could not be drawn
inline constexpr int kRunFailed = 7;     // compare, validate: a run could not be started, was killed or failed
inline constexpr int kBoundBroken = 8;   // validate: gcsim's error broke one of its bounds (outputs are written)
inline constexpr int kLivelock = 9;      // the policy kept changing allocations at one instant (outputs are written)
inline constexpr int kThrashing = 10;    // preemptions kept throwing work away, no job finishing (outputs are written)
inline constexpr int kOutOfMemory = 11;  // gcsim ran out of memory (nothing is written)
inline constexpr int kInternalError = 12;  // a failure inside gcsim (nothing is written)
inline constexpr int kRegressed = 13;      // bench: a metric regressed beyond its tolerance (reports are written)
inline constexpr int kNoPlan = 14;         // plan: no size up to --max-nodes meets every SLO (outputs are written)
inline constexpr int kInterrupted = 15;    // run, compare: SIGINT or SIGTERM stopped it (partial outputs are written)
inline constexpr int kInvariantBroken =
    16;  // run --check: a rule every real schedule keeps was broken (nothing is written)
/// Whether a `gcsim run` that ended with `status` wrote its outputs: it
/// succeeded, or ended in a deadlock, a livelock or thrashing, which are
/// results to report like any other.
inline bool run_wrote_outputs(int status) {
  return status == kOk || status == kDeadlock || status == kLivelock || status == kThrashing;
}
}  // namespace exit_codes

Command run_command();       // run_command.cpp
Command synth_command();     // synth_command.cpp
Command policies_command();  // run_command.cpp
Command compare_command();   // compare_command.cpp
Command trace_command();     // trace_command.cpp
Command validate_command();  // validate_command.cpp
Command bench_command();     // bench_command.cpp
Command sweep_command();     // sweep_command.cpp
Command plan_command();      // plan_command.cpp

}  // namespace gcsim
