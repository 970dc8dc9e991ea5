// `gcsim synth`: write a synthetic workload in gcsim's native format.
#include <iostream>

#include "app/arguments.hpp"
#include "app/commands.hpp"
#include "app/synthetic_request.hpp"
#include "sim/io/atomic_output.hpp"
#include "workloads/native_workload.hpp"

namespace gcsim {
namespace {

constexpr const char* kSynthUsage = R"(usage: gcsim synth --out WORKLOAD.json [--jobs N] [--seed N] [--config GEN.json]
                   [--cluster CLUSTER.json] [--mean-interarrival SECONDS]
                   [--checkpoint at_preemption|none]

Generates a synthetic workload: Poisson arrivals, GPU counts from a weighted
list, lognormal run times, a mix of data-parallel training jobs and jobs with
measured durations. The same options and seed give the same file everywhere.
Options:
  --out FILE                 where to write the workload (native JSON)
  --jobs N                   number of jobs (overrides the config)
  --seed N                   random seed (default 0)
  --config FILE              generator settings (JSON; see docs/workload-format.md)
  --cluster FILE             take the FLOP/s of the generator's GPU type from this
                             cluster, so durations hold on it
  --mean-interarrival S      mean seconds between submissions (overrides the config)
  --checkpoint MODE          at_preemption (default): a preempted job saves its work
                             and resumes from it, as preemptive schedulers assume;
                             none: it starts over (overrides the config)
)";

int write_synthetic_workload(const Arguments& args) {
  const std::string out = args.required("out");
  SyntheticRequest request;
  request.config = args.value_or("config", "");
  if (args.has("jobs")) request.jobs = args.uint_or("jobs", 0);
  if (args.has("mean-interarrival")) request.mean_interarrival_s = args.number_or("mean-interarrival", 0);
  if (args.has("checkpoint")) request.checkpoint = args.required("checkpoint");
  request.cluster = args.value_or("cluster", "");
  request.seed = args.uint_or("seed", 0);
  const std::vector<JobSpec> jobs = synthesize(request);
  write_file_atomically(out, [&jobs](std::ostream& file) { write_native_workload(file, jobs); });
  std::cout << "gcsim synth: wrote " << jobs.size() << " jobs to " << out << "\n";
  return exit_codes::kOk;
}

// Generator settings the generator cannot use are a bad input, named as such.
int generate_workload(const Arguments& args) {
  try {
    return write_synthetic_workload(args);
  } catch (const std::invalid_argument& e) {
    throw CommandFailure(exit_codes::kInputError, std::string("invalid generator settings: ") + e.what());
  }
}

}  // namespace

Command synth_command() {
  Command command{"synth",
                  "generate a synthetic workload (native JSON)",
                  kSynthUsage,
                  {{"out"}, {"jobs"}, {"seed"}, {"config"}, {"cluster"}, {"mean-interarrival"}, {"checkpoint"}},
                  generate_workload};
  // What else fails is the workload file that could not be written.
  command.other_failure = OtherFailure{exit_codes::kOutputError, "gcsim: error: "};
  return command;
}

}  // namespace gcsim
