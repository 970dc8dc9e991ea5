// Locality queries a topology-aware policy asks for every candidate pair.
#include <benchmark/benchmark.h>

#include "sim/topology/cluster_graph.hpp"
#include "sim/topology/cluster_reader.hpp"

namespace gcsim {
namespace {

void BM_BottleneckBandwidthAllPairsFromOneGpu(benchmark::State& bench) {
  const ClusterLayout layout(
      read_cluster_file(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/cluster-512gpu.json"));
  const ClusterGraph graph(layout);
  for (auto _ : bench) {
    double sum = 0;
    for (GpuId b = 0; b < layout.gpu_count(); ++b) sum += graph.bottleneck_bandwidth(0, b) > 0 ? 1 : 0;
    benchmark::DoNotOptimize(sum);
  }
  bench.SetItemsProcessed(bench.iterations() * static_cast<int64_t>(layout.gpu_count()));
}
BENCHMARK(BM_BottleneckBandwidthAllPairsFromOneGpu);

void BM_BuildClusterGraph(benchmark::State& bench) {
  const ClusterLayout layout(
      read_cluster_file(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/cluster-512gpu.json"));
  for (auto _ : bench) {
    ClusterGraph graph(layout);
    benchmark::DoNotOptimize(graph.hops(0, 511));
  }
}
BENCHMARK(BM_BuildClusterGraph);

}  // namespace
}  // namespace gcsim
