// simulation.cpp: simulate(): SimGrid's engine, the platform, and the
// scheduler actor (scheduler_loop.hpp) that runs the workload on it.
#include "sim/engine/simulation.hpp"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/work_forms.hpp"
#include "sim/engine/actor_failure.hpp"
#include "sim/engine/platform_builder.hpp"
#include "sim/engine/scheduler_loop.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;

RunRecord simulate(const SimulationInput& input) {
  // SimGrid reads its own options from argv; keep its console quiet but for warnings.
  std::vector<std::string> options{"gcsim", "--log=root.thres:warning"};
#ifdef GCSIM_SANITIZED
  // AddressSanitizer does not follow SimGrid's own switches between actors'
  // stacks: an exception unwinding in an actor is misreported. It follows
  // threads (docs/robustness.md).
  options.push_back("--cfg=contexts/factory:thread");
#endif
  std::vector<char*> argv;
  for (std::string& option : options) argv.push_back(option.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(options.size());
  // SimGrid's engine takes SIGINT for itself (it prints its actors and
  // exits); a caller that reads a stop request keeps its own handler.
  struct sigaction caller_sigint {};
  ::sigaction(SIGINT, nullptr, &caller_sigint);
  sg4::Engine engine(&argc, argv.data());
  if (input.options.stop_request) ::sigaction(SIGINT, &caller_sigint, nullptr);
  configure_network_model(input.layout.spec().network);
  // CPU hosts only where a job decodes its input on them, or a DAG's CPU workers stand on them.
  const bool cpu_hosts = std::any_of(input.jobs.begin(), input.jobs.end(), [](const JobSpec& job) {
    return input_pipeline_of(job.work) != nullptr || cpu_workers_of(job.work) > 0;
  });
  const SimGridPlatform platform = build_platform(input.layout, cpu_hosts);

  ActorFailure failure;
  SchedulerLoop scheduler(input, platform, failure);
  sg4::Actor::create("scheduler", platform.control_host(), guarded(failure, [&scheduler] { scheduler.run(); }));
  const auto started = std::chrono::steady_clock::now();
  engine.run();
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
  if (failure.first) std::rethrow_exception(failure.first);

  RunRecord record = scheduler.finish_record();
  record.policy = std::string(input.policy.name());
  record.fidelity = std::string(to_string(input.options.fidelity));
  record.seed = input.options.seed;
  record.cluster_name = input.layout.spec().name;
  record.wall_seconds = wall.count();
  return record;
}

}  // namespace gcsim
