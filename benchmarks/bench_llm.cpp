// Large-model training on a shared fabric: what a whole simulation of it
// costs, and what one simulated flow and one solver call cost as the flows
// running at once grow. One SimGrid engine per process: each iteration runs
// in a forked child (child_measurement.hpp).
//
// BM_LlmIteration: one iteration of a 175B-like model (GPT-3's shape) under
// TP8 x PP8 x DP64 on 4,096 GPUs, alone on the 16,384-GPU H100 rail cluster
// (scenarios/clusters/h100-rails-16k-gpu.json), at iteration fidelity. The
// time is what `gcsim run` does but writing files: read the cluster, build
// its graph, simulate, metrics and the three outputs.
//
// BM_ConcurrentFlows/flows:N: N/16 jobs of 16 GPUs (two whole nodes each) on
// the same cluster, all submitted at 0, each one phase of one ring step
// between its two nodes ({2, 8}: every GPU sends to the GPU of its rail on
// the other node), at iteration fidelity: N flows start together and run
// at once. Job k sends (1 + (k mod 16) / 16) x 1 GB a flow, so the flows end
// at 16 different times, not all in one solver step. The time is
// engine.run() alone (RunRecord's wall_seconds), not the platform's build.
//
// Counters: flows (host-to-host transfers the engine started: the SimGrid
// Comms of every step, counted by a listener of the steps' starts),
// solver_calls (SimGrid's main loop steps that advanced the clock, each of
// which asks every model for its next event and so re-solves the network's
// max-min sharing when flows changed: the count of Engine::on_time_advance,
// independent of surf/precision), s_per_flow and s_per_solver_call (the
// child's time over those), engine_s (engine.run() alone, RunRecord's
// wall_seconds), child_cpu_s and peak_rss_MB.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "benchmarks/child_measurement.hpp"
#include "benchmarks/generated_inputs.hpp"
#include "policies/register_builtin.hpp"
#include "sim/core/policy_registry.hpp"
#include "sim/engine/engine_events.hpp"
#include "sim/engine/running_job.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/report/run_metrics.hpp"
#include "sim/report/run_outputs.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "workloads/native_workload.hpp"

namespace gcsim::bench {
namespace {

// The flows the engine starts: the host-to-host Comms among each step's activities.
struct FlowCounter final : EngineListener {
  void on_step_started(const StepStarted& e) override {
    for (const simgrid::s4u::ActivityPtr& activity : e.run.activities)
      if (dynamic_cast<const simgrid::s4u::Comm*>(activity.get())) ++flows;
  }
  double flows = 0;
};

// What one child measured: its time, the engine's, and the two counts.
struct RunFigures {
  double seconds = 0, engine_seconds = 0, flows = 0, solver_calls = 0;
};

// SimGrid's clock advances: each is one pass of its models' solvers.
double solver_calls_during(const std::function<void()>& run) {
  static double calls = 0;
  static bool connected = false;
  if (!connected) {
    simgrid::s4u::Engine::on_time_advance_cb([](double) { ++calls; });
    connected = true;
  }
  calls = 0;
  run();
  return calls;
}

std::vector<JobSpec> workload_from_text(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  return read_native_workload(in, label);
}

// One 175B-like job: GPT-3's shape, recomputation, ZeRO, half the gradient exchange beside the last backward.
std::string llm_iteration_workload() {
  return R"({"jobs": [{"id": "gpt-175b", "submit": 0, "gpus": 4096,
    "llm_training": {"model": {"parameters": 1.75e11, "layers": 96, "hidden_size": 12288, "sequence_length": 2048,
                               "vocabulary_size": 50257, "global_batch": 1536, "micro_batch": 1},
                     "parallel": {"tensor": 8, "pipeline": 8, "data": 64},
                     "recomputation": true, "gradients": "zero", "dp_overlap": 0.5, "iterations": 1}}]})";
}

// N/16 two-node jobs, one ring step between their nodes each (see the top of the file).
std::string concurrent_flows_workload(std::size_t flows) {
  std::ostringstream out;
  out << R"({"jobs": [)";
  for (std::size_t k = 0; k < flows / 16; ++k) {
    const double bytes = (1.0 + static_cast<double>(k % 16) / 16.0) * 1e9;
    out << (k ? "," : "") << R"({"id": "ring-)" << k << R"(", "submit": 0, "gpus": 16, "phased": {"iterations": 1,)"
        << R"( "phases": [{"exchanges": [{"exchange": "ring_step", "group_size": 2, "stride": 8, "bytes": )" << bytes
        << "}]}]}}";
  }
  out << "]}";
  return out.str();
}

void report(benchmark::State& bench, const RunFigures& sums, double iterations, double peak_rss, double cpu) {
  bench.counters["flows"] = sums.flows / iterations;
  bench.counters["solver_calls"] = sums.solver_calls / iterations;
  bench.counters["s_per_flow"] = sums.flows > 0 ? sums.seconds / sums.flows : 0;
  bench.counters["s_per_solver_call"] = sums.solver_calls > 0 ? sums.seconds / sums.solver_calls : 0;
  bench.counters["engine_s"] = sums.engine_seconds / iterations;
  bench.counters["child_cpu_s"] = cpu / iterations;
  bench.counters["peak_rss_MB"] = peak_rss / 1e6;
}

// Runs `simulate_once` in a child per iteration: measure_in_child() brings
// back its seconds, CPU time and peak RSS; a pipe of its own the rest of its
// RunFigures.
template <class Simulate>
void run_children(benchmark::State& bench, Simulate simulate_once) {
  RunFigures sums;
  double iterations = 0, peak_rss = 0, cpu = 0;
  for (auto _ : bench) {
    int fds[2];
    if (pipe(fds) != 0) {
      bench.SkipWithError("pipe() failed");
      return;
    }
    ChildMeasurement m;
    try {
      m = measure_in_child([&] {
        close(fds[0]);
        const RunFigures figures = simulate_once();
        const bool sent = write(fds[1], &figures, sizeof figures) == static_cast<ssize_t>(sizeof figures);
        close(fds[1]);
        if (!sent) throw std::runtime_error("could not send the run's figures");
        return ChildFigures{figures.seconds, figures.flows};
      });
    } catch (const std::exception& e) {
      close(fds[0]);
      close(fds[1]);
      bench.SkipWithError(e.what());
      return;
    }
    close(fds[1]);
    RunFigures figures;
    const bool read_all = read(fds[0], &figures, sizeof figures) == static_cast<ssize_t>(sizeof figures);
    close(fds[0]);
    if (!read_all) {
      bench.SkipWithError("the child sent no figures");
      return;
    }
    bench.SetIterationTime(m.seconds);
    sums.seconds += m.seconds;
    sums.engine_seconds += figures.engine_seconds;
    sums.flows += figures.flows;
    sums.solver_calls += figures.solver_calls;
    iterations += 1;
    cpu += m.cpu_seconds;
    peak_rss = std::max(peak_rss, m.peak_rss_bytes);
  }
  if (iterations > 0) report(bench, sums, iterations, peak_rss, cpu);
}

std::unique_ptr<SchedulingPolicy> fifo() {
  PolicyRegistry registry;
  register_builtin(registry);
  return registry.make_policy("fifo", PolicyOptions{}, "");
}

void BM_LlmIteration(benchmark::State& bench) {
  const std::string cluster_path = bundled_cluster_path("h100-rails-16k-gpu");
  const std::vector<JobSpec> jobs = workload_from_text(llm_iteration_workload(), "gpt-175b.json");
  run_children(bench, [&] {
    RunFigures figures;
    const auto started = std::chrono::steady_clock::now();
    const ClusterLayout layout(read_cluster_file(cluster_path));
    const ClusterGraph graph(layout);
    const auto policy = fifo();
    FlowCounter counter;
    SimulationOptions options;
    options.fidelity = Fidelity::kIteration;
    options.listeners.push_back(&counter);
    RunRecord record;
    figures.solver_calls = solver_calls_during([&] { record = simulate({layout, graph, jobs, *policy, options}); });
    if (record.outcomes.empty() || record.outcomes[0].state != JobState::kFinished)
      throw std::runtime_error("the 4,096-GPU job did not finish");
    const RunMetrics metrics = compute_run_metrics(jobs, record);
    std::size_t bytes =
        summary_json(jobs, layout, record, metrics, {false, policy->guaranteed_queues(layout), {}}).size();
    bytes += jobs_csv(jobs, layout, record).size() + timeline_csv(record).size();
    benchmark::DoNotOptimize(bytes);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    figures.seconds = took.count();
    figures.engine_seconds = record.wall_seconds;
    figures.flows = counter.flows;
    return figures;
  });
}
BENCHMARK(BM_LlmIteration)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_ConcurrentFlows(benchmark::State& bench) {
  const auto flows = static_cast<std::size_t>(bench.range(0));
  const ClusterLayout layout(read_cluster_file(bundled_cluster_path("h100-rails-16k-gpu")));
  const ClusterGraph graph(layout);
  const std::vector<JobSpec> jobs = workload_from_text(concurrent_flows_workload(flows), "rings.json");
  run_children(bench, [&] {
    RunFigures figures;
    const auto policy = fifo();
    FlowCounter counter;
    SimulationOptions options;
    options.fidelity = Fidelity::kIteration;
    options.listeners.push_back(&counter);
    RunRecord record;
    figures.solver_calls = solver_calls_during([&] { record = simulate({layout, graph, jobs, *policy, options}); });
    figures.seconds = record.wall_seconds;
    figures.engine_seconds = record.wall_seconds;
    figures.flows = counter.flows;
    return figures;
  });
}
BENCHMARK(BM_ConcurrentFlows)
    ->ArgName("flows")
    ->RangeMultiplier(4)
    ->Range(16, 16384)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gcsim::bench
