// Jobs whose rings cross the same link share its bandwidth; jobs on disjoint
// links do not slow each other down.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// Three nodes of two GPUs. Two 3-GPU jobs cannot each fit in a node: pack
// places a on n-0 plus one GPU of n-2, b on n-1 plus the other GPU of n-2.
// Both rings then send through n-2's NIC in both directions.
CraftedCluster three_small_nodes() {
  CraftedCluster c;
  c.nodes = 3;
  c.gpus_per_node = 2;
  return c;
}

constexpr double kFlops = 1e9, kGradient = 300e6;
constexpr int kIterations = 10;

// Per-iteration time with the slowest ring edge at `bandwidth` (two NICs crossed).
double expected_jct(const CraftedCluster& c, double bandwidth) {
  const int n = 3;
  const double alpha = c.intra_latency + 2 * c.nic_latency;
  return kIterations * (kFlops / c.gpu_flops + 2.0 * (n - 1) * (alpha + kGradient / n / bandwidth));
}

std::map<std::string, JobRow> simulate(const CraftedCluster& cluster, const std::vector<nlohmann::json>& jobs,
                                       const std::string& fidelity) {
  ScratchDir dir;
  const auto cluster_file = dir.write("cluster.json", cluster.to_json());
  const auto workload = dir.write("jobs.json", workload_json(jobs));
  const GcsimRun run = run_simulation(cluster_file, workload, dir / "out", {"--fidelity", fidelity});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return read_jobs_csv(dir / "out");
}

TEST(LinkSharing, AloneTheJobRunsAtFullNicBandwidth) {
  const CraftedCluster cluster = three_small_nodes();
  const auto rows = simulate(cluster, {training_job("a", 0, 3, kFlops, kGradient, kIterations)}, "iteration");
  EXPECT_NEAR(rows.at("a").jct, expected_jct(cluster, cluster.nic_bandwidth), 1e-3 * rows.at("a").jct);
}

TEST(LinkSharing, TwoJobsThroughOneNicEachGetHalfOfIt) {
  const CraftedCluster cluster = three_small_nodes();
  const auto rows = simulate(cluster,
                             {training_job("a", 0, 3, kFlops, kGradient, kIterations),
                              training_job("b", 0, 3, kFlops, kGradient, kIterations)},
                             "iteration");
  EXPECT_EQ(rows.at("a").placement, "n-0:0;n-0:1;n-2:0");
  EXPECT_EQ(rows.at("b").placement, "n-1:0;n-1:1;n-2:1");
  const double shared = expected_jct(cluster, cluster.nic_bandwidth / 2);
  EXPECT_NEAR(rows.at("a").jct, shared, 1e-3 * shared);
  EXPECT_NEAR(rows.at("b").jct, shared, 1e-3 * shared);
  EXPECT_GT(rows.at("a").jct, 1.9 * expected_jct(cluster, cluster.nic_bandwidth));
}

TEST(LinkSharing, JobsOnDisjointNodesDoNotSlowEachOther) {
  CraftedCluster cluster;
  cluster.nodes = 4;
  cluster.gpus_per_node = 2;
  const auto together = simulate(cluster,
                                 {training_job("a", 0, 4, kFlops, kGradient, kIterations),
                                  training_job("b", 0, 4, kFlops, kGradient, kIterations)},
                                 "iteration");
  const auto alone = simulate(cluster, {training_job("a", 0, 4, kFlops, kGradient, kIterations)}, "iteration");
  EXPECT_NEAR(together.at("a").jct, alone.at("a").jct, 1e-9 * alone.at("a").jct);
  EXPECT_NEAR(together.at("b").jct, alone.at("a").jct, 1e-9 * alone.at("a").jct);
}

TEST(LinkSharing, OversubscribedRackUplinkSlowsCrossRackRings) {
  // Two racks of two 1-GPU nodes; each uplink carries a quarter of its
  // rack's NIC capacity: 2 * 10 GB/s / 4 = 5 GB/s. The 4-GPU ring's edges
  // n-1 -> n-2 and n-3 -> n-0 cross racks, each alone in its direction of
  // the uplinks, so the uplink, not the 10 GB/s NICs, sets the step time.
  CraftedCluster cluster;
  cluster.nodes = 4;
  cluster.gpus_per_node = 1;
  cluster.nodes_per_rack = 2;
  cluster.oversubscription = 4;
  const auto rows = simulate(cluster, {training_job("wide", 0, 4, kFlops, kGradient, kIterations)}, "iteration");
  const int n = 4;
  const double alpha = cluster.intra_latency + 2 * cluster.nic_latency + 2 * cluster.uplink_latency;
  const double expected = kIterations * (kFlops / cluster.gpu_flops + 2.0 * (n - 1) * (alpha + kGradient / n / 5e9));
  EXPECT_NEAR(rows.at("wide").jct, expected, 1e-3 * expected);
}

}  // namespace
}  // namespace gcsim::testing
