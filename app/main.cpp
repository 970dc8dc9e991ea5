// gcsim: a discrete-event simulator of GPU clusters on SimGrid.
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "app/commands.hpp"

namespace {

constexpr const char* kUsage = R"(usage: gcsim COMMAND [OPTIONS]

Commands:
  run        simulate a workload on a cluster under a scheduling policy
  synth      generate a synthetic workload (native JSON)
  policies   list the scheduling policies and placements
  compare    run a workload under several policies and tabulate the results
  trace      summarise a real cluster trace, or convert it into a workload
  validate   run real microbenchmarks, simulate them, and report gcsim's error
Run 'gcsim COMMAND --help' for a command's options.
Exit status 11: gcsim ran out of memory; 12: a failure inside gcsim (any command).
)";

int dispatch(int argc, char** argv) {
  const std::string command = argv[1];
  if (command == "run") return gcsim::run_command(argc - 2, argv + 2);
  if (command == "synth") return gcsim::synth_command(argc - 2, argv + 2);
  if (command == "policies") return gcsim::policies_command(argc - 2, argv + 2);
  if (command == "compare") return gcsim::compare_command(argc - 2, argv + 2);
  if (command == "trace") return gcsim::trace_command(argc - 2, argv + 2);
  if (command == "validate") return gcsim::validate_command(argc - 2, argv + 2);
  std::cerr << "gcsim: unknown command '" << command << "'\n" << kUsage;
  return gcsim::exit_codes::kUsage;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    std::cout << kUsage;
    return argc < 2 ? gcsim::exit_codes::kUsage : gcsim::exit_codes::kOk;
  }
  // What a command does not handle itself ends here, with a message and a
  // status of its own, never in an abort.
  try {
    return dispatch(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "gcsim: error: out of memory: the machine, or the limit set on this process (ulimit -v), "
                 "does not give gcsim the memory this command needs\n";
    return gcsim::exit_codes::kOutOfMemory;
  } catch (const std::exception& e) {
    std::cerr << "gcsim: internal error: " << e.what() << "\n";
    return gcsim::exit_codes::kInternalError;
  } catch (...) {
    std::cerr << "gcsim: internal error: an exception that is not a std::exception\n";
    return gcsim::exit_codes::kInternalError;
  }
}
