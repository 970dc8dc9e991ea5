// child_process.hpp: run another program and wait for it, without a shell.
//
// The program is a path (find_in_path looks a bare name up in $PATH). Its
// standard output and standard error are captured together (or discarded),
// so they can be shown when it fails. Where SIGINT and SIGTERM are passed
// on (interrupt_signals.hpp), the child runs in a process group of its own,
// gets them from this process only, and gets SIGTERM if this process ends.
//
//   ChildResult r = run_child("/proc/self/exe", {"run", "--policy", "fifo", ...});
//   if (r.exit_code != 0) std::cerr << r.output;
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gcsim {

struct ChildResult {
  /// The exit status; 128 + N when killed by signal N; 127 when it could not be started.
  int exit_code = 0;
  std::string output;  // standard output and standard error, interleaved (empty when discarded)
};

enum class ChildOutput { kCapture, kDiscard };

/// Runs `program` with `args` (argv[1...]) and waits for it, in
/// `working_directory` when one is given. Throws std::runtime_error only when
/// no process could be created.
ChildResult run_child(const std::string& program, const std::vector<std::string>& args,
                      ChildOutput output = ChildOutput::kCapture, const std::string& working_directory = "");

/// The first executable file named `name` in the directories of $PATH.
std::optional<std::string> find_in_path(const std::string& name);

}  // namespace gcsim
