// run_in_child.hpp: one run (run_request.hpp) in a forked child process,
// its output files sent back whole over a pipe.
//
// SimGrid allows one engine per process, and a Python session runs many
// simulations: each runs in a child forked from the interpreter, which
// touches no Python object, writes every output file and its notes into the
// pipe and ends with _exit (no interpreter or SimGrid teardown). The child
// is in a process group of its own, so a terminal's Ctrl-C reaches the
// interpreter only, and it dies with the interpreter (PR_SET_PDEATHSIG).
// While waiting, the parent asks `poll` about every tenth of a second what
// to do: go on, stop the run (SIGINT to the child: it stops at the current
// simulated time and sends its partial outputs, as `gcsim run` does on
// SIGINT) or abandon it (the child is killed, nothing comes back).
// A child that calls back into the interpreter (a policy written in Python)
// is forked between ForkHooks that hand it an interpreter in a sound state.
//
//   ChildRun run = run_in_child(request, [] { return WaitAction::kContinue; });
//   if (run.error) ...; else run.files["jobs.csv"] ...
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "app/run_request.hpp"
#include "python/error_description.hpp"

namespace gcsim::python {

enum class WaitAction { kContinue, kStop, kAbandon };

struct ChildRun {
  /// Output file name -> its content, as `gcsim run` writes it.
  std::map<std::string, std::string> files;
  /// The file names in the order `gcsim run` writes them.
  std::vector<std::string> file_order;
  /// What the run printed on standard error before simulating (trace notes).
  std::string notes;
  /// early_stop() and early_stop_diagnosis() of the run; the terminal summary.
  std::string early_stop, diagnosis, human_summary;
  /// Why the run failed; then nothing else is set.
  std::optional<ErrorDescription> error;
  /// The run was abandoned (WaitAction::kAbandon): nothing is set.
  bool abandoned = false;
};

/// What runs around the fork, each optional: `before` and `in_parent` in
/// the parent (right before the fork, and right after it whether or not it
/// succeeded), `in_child` first thing in the child, `child_ends` in the
/// child once its result is sent, before it ends.
struct ForkHooks {
  std::function<void()> before, in_parent, in_child, child_ends;
};

/// Runs `request` (its stop_request and progress are the child's own) in a
/// child process. Throws std::runtime_error when the child cannot be
/// started, or ends without sending a result (killed by a signal, naming it).
ChildRun run_in_child(const RunRequest& request, const std::function<WaitAction()>& poll, const ForkHooks& hooks = {});

}  // namespace gcsim::python
