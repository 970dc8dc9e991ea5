// A parameter-server job alone takes, per iteration, its compute plus a push
// and a pull, each lasting its slowest flow's latency plus the bytes its
// busiest link carries over that link's bandwidth: the servers' traffic
// really crosses the simulated links, and concentrates on their NICs.
#include <gtest/gtest.h>

#include <ostream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

struct ServerCase {
  const char* name;
  int nodes, gpus_per_node, job_gpus, servers;
  // Counted by hand: the busiest link of a push, the gradient bytes it
  // carries per gradient byte, and whether it is a NIC (else a GPU port).
  double busiest_link_share;
  bool busiest_is_nic;
};

void PrintTo(const ServerCase& c, std::ostream* os) { *os << c.name; }

class ParameterServerTiming : public ::testing::TestWithParam<std::tuple<ServerCase, const char*>> {};

TEST_P(ParameterServerTiming, MatchesTheBusiestLinkClosedForm) {
  const auto& [c, fidelity] = GetParam();
  const CraftedCluster cluster{c.nodes, c.gpus_per_node};
  const double flops = 1e12, gradient_bytes = 1e9;
  const int iterations = 6;
  nlohmann::json job = training_job("ps", 0, c.job_gpus, flops, gradient_bytes, iterations);
  job["training"]["parameter_servers"] = c.servers;
  ScratchDir dir;
  const GcsimRun run = run_alone(dir, cluster, job, fidelity);
  ASSERT_EQ(run.exit_code, 0) << run.err;

  // A flow inside a node crosses two GPU ports (half the intra latency each);
  // across nodes it also crosses both NICs.
  const bool multi_node = c.job_gpus > c.gpus_per_node;
  const double latency = multi_node ? cluster.intra_latency + 2 * cluster.nic_latency : cluster.intra_latency;
  const double bandwidth = c.busiest_is_nic ? cluster.nic_bandwidth : cluster.intra_bandwidth;
  const double phase = latency + c.busiest_link_share * gradient_bytes / bandwidth;
  const double expected = iterations * (flops / cluster.gpu_flops + 2 * phase);

  const JobRow row = read_jobs_csv(dir / "out").at("ps");
  EXPECT_EQ(row.state, "finished");
  EXPECT_NEAR(row.jct, expected, expected * 0.005) << "closed form " << expected;
  // The duration oracle (packed on the same cluster) gives the same closed form.
  EXPECT_NEAR(row.uncontended, expected, expected * 0.005) << "closed form " << expected;
}

INSTANTIATE_TEST_SUITE_P(
    SingleJob, ParameterServerTiming,
    ::testing::Combine(::testing::Values(
                           // One server on node 0: the three other workers push all S into its NIC.
                           ServerCase{"one_server_four_nodes", 4, 1, 4, 1, 3.0, true},
                           // Servers on nodes 0 and 2: each takes S/2 from three workers.
                           ServerCase{"two_servers_four_nodes", 4, 1, 4, 2, 1.5, true},
                           // Servers on GPUs 0 and 4 (one per node): each takes S/2 from the
                           // four workers of the other node through its NIC (2S), while its
                           // port takes seven shards (3.5S) at ten times the bandwidth.
                           ServerCase{"two_servers_two_nodes_of_four", 2, 4, 8, 2, 2.0, true},
                           // One node: the server's GPU port takes S from each of seven workers.
                           ServerCase{"one_server_one_node_of_eight", 1, 8, 8, 1, 7.0, false},
                           // As many servers as workers: each port sends and takes 7/8 of S,
                           // what a ring sends per rank in half the messages.
                           ServerCase{"eight_servers_one_node_of_eight", 1, 8, 8, 8, 7.0 / 8.0, false}),
                       ::testing::Values("iteration", "job")),
    [](const ::testing::TestParamInfo<std::tuple<ServerCase, const char*>>& info) {
      return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param);
    });

TEST(ParameterServerTiming, OneWorkerHoldsItsServersAndTransfersNothing) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  nlohmann::json job = training_job("alone", 2, 1, 1e12, 1e9, 5);
  job["training"]["parameter_servers"] = 3;
  const auto workload = dir.write("jobs.json", workload_json({job}));
  ASSERT_EQ(run_simulation(cluster, workload, dir / "out").exit_code, 0);
  const JobRow row = read_jobs_csv(dir / "out").at("alone");
  EXPECT_NEAR(row.jct, 5.0, 1e-9);  // its compute alone
}

}  // namespace
}  // namespace gcsim::testing
