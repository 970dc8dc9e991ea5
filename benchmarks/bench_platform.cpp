// Building the SimGrid platform of a cluster: two-tier clusters of 8-GPU
// nodes (32 nodes a rack, racks under a spine) from 512 to 20,000 GPUs, one
// pooled node of 6,500 GPUs, and rail-optimized clusters of 8-GPU nodes with
// a NIC per GPU (rail groups of 32 nodes, pods of 4 rail groups under a
// core, PXN) of 16,384 and 100,000 GPUs. A process holds one SimGrid engine and one
// platform, so every iteration builds in a child process: the time is the
// child's build (manual timing), and the counters are the child's peak
// resident memory and how much the build added to it.
#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <stdexcept>
#include <string>

#include <simgrid/s4u/Engine.hpp>

#include "sim/engine/platform_builder.hpp"

namespace gcsim {
namespace {

ClusterSpec v100_cluster(std::uint32_t gpus, std::uint32_t gpus_per_node) {
  ClusterSpec spec;
  spec.name = "bench-" + std::to_string(gpus);
  spec.gpu_types = {{"V100", 15.7e12, 32e9}};
  const std::uint32_t nodes = gpus / gpus_per_node;
  spec.node_groups = {
      {"dgx", nodes, gpus_per_node, "V100", 40, 512e9, IntraNodeKind::kNvlink, {150e9, 2e-6}, {12.5e9, 5e-6}}};
  spec.fabric = {nodes > 1 ? 32u : 1u, 2.0, 1e-6};
  return spec;
}

// H100-like nodes: a 400 Gb/s NIC per GPU on its rail, three tiers.
ClusterSpec rail_cluster(std::uint32_t gpus) {
  ClusterSpec spec;
  spec.name = "bench-rails-" + std::to_string(gpus);
  spec.gpu_types = {{"H100", 989e12, 80e9}};
  NodeGroup group{"dgx", gpus / 8, 8, "H100", 112, 2e12, IntraNodeKind::kNvlink, {450e9, 2e-6}, {50e9, 2e-6}};
  group.nic_per_gpu = true;
  spec.node_groups = {group};
  spec.fabric = {32, 1.0, 1e-6};
  spec.fabric.rail_optimized = true;
  spec.fabric.pxn = true;
  spec.fabric.racks_per_pod = 4;
  spec.fabric.pod_uplink_latency = 1e-6;
  return spec;
}

double max_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss);
}

// In the child: seconds to build, peak RSS before and after (KiB), then exit.
[[noreturn]] void build_in_child(const ClusterLayout& layout, int out) {
  std::string program = "bench", log = "--log=root.thres:critical";
  char* argv[] = {program.data(), log.data(), nullptr};
  int argc = 2;
  simgrid::s4u::Engine engine(&argc, argv);
  const double before = max_rss_kib();
  const auto start = std::chrono::steady_clock::now();
  configure_network_model(layout.spec().network);
  const SimGridPlatform platform = build_platform(layout);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  benchmark::DoNotOptimize(platform.gpu_hosts.back());
  const std::array<double, 3> report{took.count(), before, max_rss_kib()};
  const bool written = write(out, report.data(), sizeof report) == static_cast<ssize_t>(sizeof report);
  _exit(written ? 0 : 1);
}

// Each iteration builds the platform of `layout` in a child process.
void measure_builds(benchmark::State& bench, const ClusterLayout& layout) {
  double peak_mib = 0, build_mib = 0;
  for (auto _ : bench) {
    int pipe_ends[2];
    if (pipe(pipe_ends) != 0) throw std::runtime_error("pipe failed");
    const pid_t child = fork();
    if (child < 0) throw std::runtime_error("fork failed");
    if (child == 0) {
      close(pipe_ends[0]);
      build_in_child(layout, pipe_ends[1]);
    }
    close(pipe_ends[1]);
    std::array<double, 3> report{};
    const bool complete = read(pipe_ends[0], report.data(), sizeof report) == static_cast<ssize_t>(sizeof report);
    close(pipe_ends[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (!complete || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      bench.SkipWithError("the child process building the platform failed");
      break;
    }
    bench.SetIterationTime(report[0]);
    peak_mib = report[2] / 1024;
    build_mib = (report[2] - report[1]) / 1024;
  }
  bench.counters["peak_rss_MiB"] = peak_mib;
  bench.counters["build_MiB"] = build_mib;
}

void BM_PlatformBuild(benchmark::State& bench) {
  measure_builds(bench, ClusterLayout(v100_cluster(static_cast<std::uint32_t>(bench.range(0)),
                                                   static_cast<std::uint32_t>(bench.range(1)))));
}
BENCHMARK(BM_PlatformBuild)
    ->ArgNames({"gpus", "gpus_per_node"})
    ->Args({512, 8})
    ->Args({2048, 8})
    ->Args({5120, 8})
    ->Args({10240, 8})
    ->Args({20000, 8})
    ->Args({6500, 6500})  // one pooled node
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void BM_RailPlatformBuild(benchmark::State& bench) {
  measure_builds(bench, ClusterLayout(rail_cluster(static_cast<std::uint32_t>(bench.range(0)))));
}
BENCHMARK(BM_RailPlatformBuild)
    ->ArgName("gpus")
    ->Arg(16384)
    ->Arg(100000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gcsim
