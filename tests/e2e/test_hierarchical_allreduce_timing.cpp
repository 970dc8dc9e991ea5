// A job with a hierarchical allreduce alone takes, per iteration, its compute
// plus 2(L-1) steps inside its nodes and 2(M-1) across them:
//   2(L-1) (m alpha_node + S / (L B_port)) + 2(M-1) (m alpha_net + S / (M B_nic))
// for M nodes of L GPUs and m fusion buffers: each node's NIC carries its L
// rings across the nodes at once.
#include <gtest/gtest.h>

#include <ostream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

struct HierarchyCase {
  const char* name;
  int nodes, gpus_per_node;  // the job takes every GPU
  double fusion_bytes = 0;
  int buffers = 1;  // ceil(S/F), counted by hand
};

void PrintTo(const HierarchyCase& c, std::ostream* os) { *os << c.name; }

class HierarchicalTiming : public ::testing::TestWithParam<std::tuple<HierarchyCase, const char*>> {};

TEST_P(HierarchicalTiming, MatchesTheClosedForm) {
  const auto& [c, fidelity] = GetParam();
  const CraftedCluster cluster{c.nodes, c.gpus_per_node};
  const double flops = 1e11, gradient_bytes = 400e6;
  const int iterations = 8, gpus = c.nodes * c.gpus_per_node;
  nlohmann::json job = training_job("h", 0, gpus, flops, gradient_bytes, iterations);
  job["training"]["allreduce"] = "hierarchical";
  if (c.fusion_bytes > 0) job["training"]["fusion_buffer"] = c.fusion_bytes;
  ScratchDir dir;
  const GcsimRun run = run_alone(dir, cluster, job, fidelity);
  ASSERT_EQ(run.exit_code, 0) << run.err;

  // Inside a node a transfer crosses two ports (half the intra latency
  // each); across nodes it also crosses both NICs.
  const double local = c.gpus_per_node, nodes = c.nodes, m = c.buffers;
  const double alpha_node = cluster.intra_latency, alpha_net = cluster.intra_latency + 2 * cluster.nic_latency;
  const double exchange = 2 * (local - 1) * (m * alpha_node + gradient_bytes / (local * cluster.intra_bandwidth)) +
                          2 * (nodes - 1) * (m * alpha_net + gradient_bytes / (nodes * cluster.nic_bandwidth));
  const double expected = iterations * (flops / cluster.gpu_flops + exchange);

  const JobRow row = read_jobs_csv(dir / "out").at("h");
  EXPECT_EQ(row.state, "finished");
  EXPECT_NEAR(row.jct, expected, expected * 0.005) << "closed form " << expected;
  EXPECT_NEAR(row.uncontended, expected, expected * 0.005) << "closed form " << expected;
}

INSTANTIATE_TEST_SUITE_P(SingleJob, HierarchicalTiming,
                         ::testing::Combine(::testing::Values(HierarchyCase{"two_nodes_of_four", 2, 4},
                                                              // One node: the ring inside it alone, as a flat ring.
                                                              HierarchyCase{"one_node_of_eight", 1, 8},
                                                              // One GPU per node: the ring across the nodes alone.
                                                              HierarchyCase{"four_nodes_of_one", 4, 1},
                                                              // 400 MB in buffers of 64 MB: 7 of each step's latencies.
                                                              HierarchyCase{"two_nodes_of_four_fused", 2, 4, 64e6, 7}),
                                            ::testing::Values("iteration", "job")),
                         [](const ::testing::TestParamInfo<std::tuple<HierarchyCase, const char*>>& info) {
                           return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param);
                         });

TEST(HierarchicalTiming, BeatsTheFlatRingAcrossNodes) {
  // Two nodes of four: the flat ring's every step waits for the NIC edge
  // (14 steps of S/8); the hierarchy crosses the NICs in 2 steps of S/8 on
  // each of four rings at once.
  ScratchDir dir;
  const auto cluster_file = dir.write("cluster.json", CraftedCluster{2, 4}.to_json());
  nlohmann::json flat = training_job("flat", 0, 8, 1e11, 400e6, 8);
  nlohmann::json hierarchical = training_job("hierarchical", 100, 8, 1e11, 400e6, 8);
  hierarchical["training"]["allreduce"] = "hierarchical";
  const auto workload = dir.write("jobs.json", workload_json({flat, hierarchical}));
  ASSERT_EQ(run_simulation(cluster_file, workload, dir / "out").exit_code, 0);
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_LT(rows.at("hierarchical").jct, rows.at("flat").jct);
}

}  // namespace
}  // namespace gcsim::testing
