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

// A node of two GPUs whose ports are quick (2 us end to end) and one whose
// ports are slow (10 ms), NICs as fast as the ports (100 GB/s, 5 us). The
// 4-GPU ring takes both nodes: its hop inside the slow node (10 ms) is its
// slowest, slower than either hop between the nodes (5 ms + 1 us + 10 us),
// which cross one slow port each. Inside each node the ring's hops have the
// ports to themselves, but a hop of one node does not stand for the other's.
TEST(LinkSharing, ARingStepLastsAsLongAsItsSlowestHopInsideANode) {
  CraftedCluster quick;
  quick.nodes = 2;
  quick.gpus_per_node = 2;
  quick.nic_bandwidth = quick.intra_bandwidth;
  nlohmann::json doc = nlohmann::json::parse(quick.to_json());
  nlohmann::json slow = doc["node_groups"][0];
  doc["node_groups"][0]["count"] = 1;
  slow["name"] = "slow";
  slow["count"] = 1;
  slow["intra_node"]["latency"] = 0.01;
  doc["node_groups"].push_back(slow);
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", doc.dump());
  const auto workload =
      dir.write("jobs.json", workload_json({training_job("ring", 0, 4, kFlops, kGradient, kIterations)}));
  for (const char* fidelity : {"iteration", "job"}) {
    const GcsimRun run = run_simulation(cluster, workload, dir / fidelity, {"--fidelity", fidelity});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const JobRow ring = read_jobs_csv(dir / fidelity).at("ring");
    EXPECT_EQ(ring.placement, "n-0:0;n-0:1;slow-0:0;slow-0:1") << fidelity;
    const int n = 4;
    const double step = 0.01 + kGradient / n / quick.intra_bandwidth;
    const double expected = kIterations * (kFlops / quick.gpu_flops + 2.0 * (n - 1) * step);
    EXPECT_NEAR(ring.jct, expected, 1e-9 * expected) << fidelity;
  }
}

// With cross-traffic, each transfer also loads the ports it comes back
// through with acknowledgements, at 0.05 of its rate (SimGrid's CM02): in a
// ring inside a node each port up carries one hop's data and the previous
// hop's acknowledgements, so every hop runs at 1/1.05 of the port's bandwidth.
TEST(LinkSharing, WithCrossTrafficARingInsideANodeSharesEachPortWithTheAcknowledgements) {
  CraftedCluster cluster;
  cluster.nodes = 1;
  cluster.gpus_per_node = 4;
  nlohmann::json doc = nlohmann::json::parse(cluster.to_json());
  doc["network_model"] = {{"model", "CM02"}, {"crosstraffic", true}};
  ScratchDir dir;
  const auto cluster_file = dir.write("cluster.json", doc.dump());
  const auto workload =
      dir.write("jobs.json", workload_json({training_job("ring", 0, 4, kFlops, kGradient, kIterations)}));
  const GcsimRun run = run_simulation(cluster_file, workload, dir / "out", {"--fidelity", "iteration"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const int n = 4;
  const double step = cluster.intra_latency + kGradient / n * 1.05 / cluster.intra_bandwidth;
  const double expected = kIterations * (kFlops / cluster.gpu_flops + 2.0 * (n - 1) * step);
  const double jct = read_jobs_csv(dir / "out").at("ring").jct;
  EXPECT_NEAR(jct, expected, 1e-9 * expected);
}

}  // namespace
}  // namespace gcsim::testing
