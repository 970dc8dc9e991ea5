// One scheduling decision of every built-in policy (policies/register_builtin.cpp)
// with 100 and 100,000 jobs queued, on the Philly VC cluster
// (scenarios/clusters/philly-vcs.json, 2,816 GPUs) half occupied in a
// scattered pattern by 1-GPU jobs, as bench_placement.cpp's busy cluster is.
// The queued jobs are `gcsim synth`'s (5 s mean gap), all submitted when the
// policy is called; the oracle durations are the engine's. The plan is not
// applied: every iteration asks the same question of the same policy object.
//
// Named BM_SchedulingDecision/<policy>/queued:<n>.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>

#include "benchmarks/generated_inputs.hpp"
#include "policies/register_builtin.hpp"
#include "sim/core/policy_registry.hpp"
#include "sim/state/scheduler_state.hpp"
#include "sim/model/duration_oracle.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "sim/topology/cluster_reader.hpp"

namespace gcsim::bench {
namespace {

struct QueuedCluster {
  explicit QueuedCluster(std::size_t queued)
      : layout(read_cluster_file(bundled_cluster_path("philly-vcs"))),
        graph(layout),
        jobs(make_jobs(layout, queued)),
        state(layout, graph, jobs, uncontended_durations(jobs, layout)) {
    const std::size_t busy = layout.gpu_count() / 2;
    Plan plan;
    for (JobIndex j = 0; j < busy; ++j) {
      state.submit(j);
      plan.allocate(j, {static_cast<GpuId>(2 * j + (j / 8) % 2)});
    }
    state.apply(plan, 0);
    for (JobIndex j = static_cast<JobIndex>(busy); j < jobs.size(); ++j) state.submit(j);
    now = jobs.back().submit;
  }

  // The busy jobs first (1 GPU, submitted at 0), then the queued ones.
  static std::vector<JobSpec> make_jobs(const ClusterLayout& layout, std::size_t queued) {
    std::vector<JobSpec> jobs = synthetic_jobs(layout, layout.gpu_count() / 2 + queued, 5.0);
    for (std::size_t i = 0; i < layout.gpu_count() / 2; ++i) {
      jobs[i].id = "busy-" + std::to_string(i);
      jobs[i].gpus = 1;
      jobs[i].submit = 0;
    }
    return jobs;
  }

  ClusterLayout layout;
  ClusterGraph graph;
  std::vector<JobSpec> jobs;
  SchedulerState state;
  Time now = 0;
};

QueuedCluster& queued_cluster(std::size_t queued) {
  static std::map<std::size_t, std::unique_ptr<QueuedCluster>> clusters;
  auto& cluster = clusters[queued];
  if (!cluster) cluster = std::make_unique<QueuedCluster>(queued);
  return *cluster;
}

void scheduling_decision(benchmark::State& bench, const std::string& policy_name, std::size_t queued) {
  QueuedCluster& c = queued_cluster(queued);
  PolicyRegistry registry;
  register_builtin(registry);
  const std::unique_ptr<SchedulingPolicy> policy = registry.make_policy(policy_name, PolicyOptions{}, "");
  std::size_t decisions = 0;
  for (auto _ : bench) {
    Plan plan;
    policy->schedule({c.now, c.state, c.state}, plan);
    decisions = plan.decisions().size();
    benchmark::DoNotOptimize(decisions);
  }
  bench.counters["decisions"] = static_cast<double>(decisions);
}

const bool registered = [] {
  PolicyRegistry registry;
  register_builtin(registry);
  for (const auto& entry : registry.policies())
    for (const std::size_t queued : {100, 100000}) {
      const std::string name = "BM_SchedulingDecision/" + entry.name + "/queued:" + std::to_string(queued);
      benchmark::RegisterBenchmark(name.c_str(), [policy = entry.name, queued](benchmark::State& bench) {
        scheduling_decision(bench, policy, queued);
      })->Unit(benchmark::kMicrosecond);
    }
  return true;
}();

}  // namespace
}  // namespace gcsim::bench
