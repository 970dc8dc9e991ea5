// gcsim: a discrete-event simulator of GPU clusters on SimGrid.
#include <cstring>
#include <iostream>
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
)";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    std::cout << kUsage;
    return argc < 2 ? gcsim::exit_codes::kUsage : gcsim::exit_codes::kOk;
  }
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
