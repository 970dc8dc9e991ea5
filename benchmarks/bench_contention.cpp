// What following every flow costs (`gcsim run --contention`): the same
// run as BM_EngineEvents (FIFO on a generated cluster offered 90% load, one
// job per GPU) with and without the contention recorder, its report
// included. One SimGrid engine per process: each iteration runs in a forked
// child (child_measurement.hpp), timed from simulate() to the report.
//
// Counters: events_per_second (RunRecord::events over the child's time) and
// the child's peak_rss_MB.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include "benchmarks/child_measurement.hpp"
#include "benchmarks/generated_inputs.hpp"
#include "policies/register_builtin.hpp"
#include "sim/core/policy_registry.hpp"
#include "sim/engine/contention_recorder.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/topology/cluster_graph.hpp"

namespace gcsim::bench {
namespace {

void BM_Contention(benchmark::State& bench) {
  const bool followed = bench.range(1) != 0;
  const ClusterLayout layout(generated_cluster(static_cast<std::size_t>(bench.range(0))));
  const ClusterGraph graph(layout);
  const std::vector<JobSpec> jobs = generated_workload(layout, layout.gpu_count(), 0.9);
  double seconds = 0, events = 0, peak_rss = 0;
  for (auto _ : bench) {
    ChildMeasurement m;
    try {
      m = measure_in_child([&] {
        PolicyRegistry registry;
        register_builtin(registry);
        const auto policy = registry.make_policy("fifo", PolicyOptions{}, "");
        const auto began = std::chrono::steady_clock::now();
        std::optional<ContentionRecorder> contention;
        SimulationOptions options;
        if (followed) options.listeners.push_back(&contention.emplace(layout, jobs.size()));
        const RunRecord record = simulate({layout, graph, jobs, *policy, options});
        if (contention) benchmark::DoNotOptimize(contention->report());
        const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - began;
        return ChildFigures{spent.count(), static_cast<double>(record.events)};
      });
    } catch (const std::exception& e) {
      bench.SkipWithError(e.what());
      return;
    }
    bench.SetIterationTime(m.seconds);
    seconds += m.seconds;
    events += m.items;
    peak_rss = std::max(peak_rss, m.peak_rss_bytes);
  }
  bench.counters["events_per_second"] = seconds > 0 ? events / seconds : 0;
  bench.counters["peak_rss_MB"] = peak_rss / 1e6;
}
BENCHMARK(BM_Contention)
    ->ArgNames({"gpus", "followed"})
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Args({10000, 0})
    ->Args({10000, 1})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gcsim::bench
