// Whole runs on SimGrid: engine events per second on generated clusters of
// 1k, 10k and 20k GPUs, jobs per second end to end on the Philly VC
// cluster (scenarios/clusters/philly-vcs.json, 2,816 GPUs) at 1k, 10k and
// 100k jobs, and a burst of jobs sharing GPUs under fifo and fifo-backfill. One SimGrid engine per process: each
// iteration runs in a forked child (child_measurement.hpp) and the time reported is the child's own (manual time);
// cpu_time is the parent's, which only waits.
//
// Counters: events_per_second (activity completions, arrivals and timers the
// engine handled, over the time engine.run() took, RunRecord::events and
// wall_seconds), jobs_per_second, the child's whole CPU time per iteration
// (child_cpu_s: with the platform build and, end to end, everything; on a
// shared machine it moves less than wall time) and its peak_rss_MB.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "benchmarks/child_measurement.hpp"
#include "benchmarks/generated_inputs.hpp"
#include "policies/register_builtin.hpp"
#include "sim/core/policy_registry.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/report/run_metrics.hpp"
#include "sim/report/run_outputs.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "sim/topology/cluster_reader.hpp"

namespace gcsim::bench {
namespace {

std::unique_ptr<SchedulingPolicy> builtin_policy(const std::string& name) {
  PolicyRegistry registry;
  register_builtin(registry);
  return registry.make_policy(name, PolicyOptions{}, "");
}

// Runs `measure` once per iteration in a child and reports its figures:
// `rate_name` is items over the children's seconds.
void report_children(benchmark::State& bench, const char* rate_name, const std::function<ChildFigures()>& measure) {
  double seconds = 0, items = 0, cpu_seconds = 0, peak_rss = 0;
  for (auto _ : bench) {
    ChildMeasurement m;
    try {
      m = measure_in_child(measure);
    } catch (const std::exception& e) {
      bench.SkipWithError(e.what());
      return;
    }
    bench.SetIterationTime(m.seconds);
    seconds += m.seconds;
    items += m.items;
    cpu_seconds += m.cpu_seconds;
    peak_rss = std::max(peak_rss, m.peak_rss_bytes);
  }
  bench.counters[rate_name] = seconds > 0 ? items / seconds : 0;
  bench.counters["child_cpu_s"] = benchmark::Counter(cpu_seconds, benchmark::Counter::kAvgIterations);
  bench.counters["peak_rss_MB"] = peak_rss / 1e6;
}

// FIFO on a generated cluster offered 90% load, one job per GPU (enough for
// the cluster to fill up). Timed: engine.run() only (not the platform build).
void BM_EngineEvents(benchmark::State& bench) {
  const ClusterLayout layout(generated_cluster(static_cast<std::size_t>(bench.range(0))));
  const ClusterGraph graph(layout);
  const std::vector<JobSpec> jobs = generated_workload(layout, layout.gpu_count(), 0.9);
  report_children(bench, "events_per_second", [&] {
    const auto policy = builtin_policy("fifo");
    const RunRecord record = simulate({layout, graph, jobs, *policy, {}});
    return ChildFigures{record.wall_seconds, static_cast<double>(record.events)};
  });
}
BENCHMARK(BM_EngineEvents)
    ->ArgName("gpus")
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(20000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// What `gcsim run --policy fifo` does but writing files: read the cluster,
// build its graph, simulate, compute the metrics and render the three
// outputs. The workload (5 s mean gap, as `gcsim synth --mean-interarrival 5`)
// is generated before the clock starts.
void BM_EndToEnd(benchmark::State& bench) {
  const std::string cluster_path = bundled_cluster_path("philly-vcs");
  const ClusterLayout layout_for_jobs(read_cluster_file(cluster_path));
  const std::vector<JobSpec> jobs = synthetic_jobs(layout_for_jobs, static_cast<std::size_t>(bench.range(0)), 5.0);
  report_children(bench, "jobs_per_second", [&] {
    const auto started = std::chrono::steady_clock::now();
    const ClusterLayout layout(read_cluster_file(cluster_path));
    const ClusterGraph graph(layout);
    const auto policy = builtin_policy("fifo");
    const RunRecord record = simulate({layout, graph, jobs, *policy, {}});
    const RunMetrics metrics = compute_run_metrics(jobs, record);
    std::size_t bytes =
        summary_json(jobs, layout, record, metrics, {false, policy->guaranteed_queues(layout), {}}).size();
    bytes += jobs_csv(jobs, layout, record).size() + timeline_csv(record).size();
    benchmark::DoNotOptimize(bytes);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    return ChildFigures{took.count(), static_cast<double>(jobs.size())};
  });
}
BENCHMARK(BM_EndToEnd)
    ->ArgName("jobs")
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// A burst of 2k or 8k jobs, three in four on a fraction of a GPU, submitted
// within five minutes on 1,200 8-GPU nodes (bursty_shared_gpu_workload()),
// under fifo and fifo-backfill: thousands of jobs run at once and every
// arrival and end calls the policy. Timed: engine.run() only.
void BM_BurstySharedGpus(benchmark::State& bench, const std::string& policy_name) {
  const ClusterLayout layout(generated_cluster(9600));
  const ClusterGraph graph(layout);
  const std::vector<JobSpec> jobs = bursty_shared_gpu_workload(static_cast<std::size_t>(bench.range(0)));
  report_children(bench, "jobs_per_second", [&] {
    const auto policy = builtin_policy(policy_name);
    const RunRecord record = simulate({layout, graph, jobs, *policy, {}});
    return ChildFigures{record.wall_seconds, static_cast<double>(jobs.size())};
  });
}
BENCHMARK_CAPTURE(BM_BurstySharedGpus, fifo, std::string("fifo"))
    ->ArgName("jobs")
    ->Arg(2000)
    ->Arg(8000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BurstySharedGpus, fifo_backfill, std::string("fifo-backfill"))
    ->ArgName("jobs")
    ->Arg(2000)
    ->Arg(8000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gcsim::bench
