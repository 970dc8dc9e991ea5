// gcsim: a discrete-event simulator of GPU clusters on SimGrid.
//
// The command table: `gcsim NAME ...` runs the entry named NAME through the
// guarded runner (command_runner.hpp); `gcsim --help` lists the entries in
// this order.
#include "app/commands.hpp"

int main(int argc, char** argv) {
  const std::vector<gcsim::Command> commands = {
      gcsim::run_command(),     gcsim::synth_command(), gcsim::policies_command(),
      gcsim::compare_command(), gcsim::trace_command(), gcsim::validate_command(),
      gcsim::bench_command(),   gcsim::sweep_command(), gcsim::plan_command()};
  return gcsim::run_command_line(commands, argc, argv);
}
