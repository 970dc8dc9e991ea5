// `gcsim synth`: write a synthetic workload in gcsim's native format.
#include <iostream>
#include <optional>

#include "app/arguments.hpp"
#include "app/commands.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/usage_error.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/io/json_input.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "workloads/native_workload.hpp"
#include "workloads/synthetic_generator.hpp"

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
  SyntheticWorkloadSpec spec;
  if (args.has("config")) {
    const std::string path = args.required("config");
    spec = synthetic_spec_from_json(read_json_file(path), path);
  }
  spec.jobs = args.uint_or("jobs", spec.jobs);
  spec.mean_interarrival_s = args.number_or("mean-interarrival", spec.mean_interarrival_s);
  if (args.has("checkpoint")) {
    const std::string mode = args.required("checkpoint");
    const std::optional<bool> saves = checkpoint_mode_saves(mode);
    if (!saves) throw UsageError("--checkpoint expects at_preemption or none, got '" + mode + "'");
    spec.checkpoint_at_preemption = *saves;
  }
  if (args.has("cluster")) {
    const std::string path = args.required("cluster");
    const ClusterLayout layout(read_cluster_file(path));
    const int type = layout.find_gpu_type(spec.gpu_type);
    if (type < 0)
      throw InputError(path, "gpu_types", "name",
                       "the generator's GPU type '" + spec.gpu_type + "' is not in this cluster");
    spec.gpu_flops = layout.spec().gpu_types[static_cast<std::size_t>(type)].flops;
  }
  const std::vector<JobSpec> jobs = generate_synthetic_workload(spec, args.uint_or("seed", 0));
  write_file_atomically(out, [&jobs](std::ostream& file) { write_native_workload(file, jobs); });
  std::cout << "gcsim synth: wrote " << jobs.size() << " jobs to " << out << "\n";
  return exit_codes::kOk;
}

// Generator settings the generator cannot use are a bad input, named as such.
int synthesize(const Arguments& args) {
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
                  synthesize};
  // What else fails is the workload file that could not be written.
  command.other_failure = OtherFailure{exit_codes::kOutputError, "gcsim: error: "};
  return command;
}

}  // namespace gcsim
