// Pack placement, a FIFO decision and a fractional job's best fit on the
// 512-GPU cluster, half occupied in a scattered pattern (the fragmented
// state a busy cluster is in).
#include <benchmark/benchmark.h>

#include <memory>

#include "policies/fifo/fifo_policy.hpp"
#include "policies/placement/pack_placement.hpp"
#include "policies/kit/shared_gpu_fit.hpp"
#include "policies/kit/tentative_cluster.hpp"
#include "sim/state/scheduler_state.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "sim/topology/cluster_reader.hpp"

namespace gcsim {
namespace {

struct BusyCluster {
  BusyCluster()
      : layout(read_cluster_file(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/cluster-512gpu.json")),
        graph(layout),
        jobs(make_jobs(layout.gpu_count())),
        state(layout, graph, jobs) {
    // Occupy every other GPU with 1-GPU jobs, then queue the requests measured.
    Plan plan;
    for (JobIndex j = 0; j < layout.gpu_count() / 2; ++j) {
      state.submit(j);
      plan.allocate(j, {static_cast<GpuId>(2 * j + (j / 8) % 2)});
    }
    state.apply(plan, 0);
    for (JobIndex j = static_cast<JobIndex>(layout.gpu_count() / 2); j < jobs.size(); ++j) state.submit(j);
  }

  static std::vector<JobSpec> make_jobs(std::size_t gpus) {
    std::vector<JobSpec> jobs(gpus / 2);
    for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i].id = "busy-" + std::to_string(i);
    for (std::uint32_t size : {1u, 4u, 16u, 64u}) {
      JobSpec request;
      request.id = "request-" + std::to_string(size);
      request.gpus = size;
      jobs.push_back(request);
    }
    return jobs;
  }

  ClusterLayout layout;
  ClusterGraph graph;
  std::vector<JobSpec> jobs;
  SchedulerState state;
};

BusyCluster& busy_cluster() {
  static BusyCluster cluster;
  return cluster;
}

void BM_PackPlacement(benchmark::State& bench) {
  BusyCluster& c = busy_cluster();
  PackPlacement pack;
  JobSpec job;
  job.gpus = static_cast<std::uint32_t>(bench.range(0));
  const std::vector<bool> taken(c.layout.gpu_count(), false);
  for (auto _ : bench) benchmark::DoNotOptimize(pack.place(job, c.state, taken));
}
BENCHMARK(BM_PackPlacement)->Arg(1)->Arg(8)->Arg(64)->Arg(256);

void BM_FifoDecision(benchmark::State& bench) {
  BusyCluster& c = busy_cluster();
  FifoPolicy fifo(std::make_unique<PackPlacement>());
  for (auto _ : bench) {
    Plan plan;
    fifo.schedule({0, c.state, c.state}, plan);
    benchmark::DoNotOptimize(plan.decisions().size());
  }
}
BENCHMARK(BM_FifoDecision);

// A fractional job's best fit on the same cluster, with the free GPUs' shares
// partly taken: every GPU is scanned.
void BM_SharedGpuFit(benchmark::State& bench) {
  BusyCluster& c = busy_cluster();
  TentativeCluster view(c.state);
  JobSpec quarter;
  quarter.gpu_share = 0.25;
  for (GpuId g = 0; g < c.layout.gpu_count(); g += 4)
    if (c.state.is_free(g)) view.take({g}, quarter);
  JobSpec job;
  job.gpus = static_cast<std::uint32_t>(bench.range(0));
  job.gpu_share = 0.5;
  for (auto _ : bench) benchmark::DoNotOptimize(fit_on_shared_gpus(job, view, {}));
}
BENCHMARK(BM_SharedGpuFit)->Arg(1)->Arg(8)->Arg(64);

}  // namespace
}  // namespace gcsim
