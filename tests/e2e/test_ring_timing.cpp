// A training job alone takes, per iteration, its compute plus
// 2(N-1)(alpha + S/(N*B)): the ring's messages really cross the simulated links.
// With tensor fusion in buffers of F bytes, m = ceil(S/F) allreduces: the
// latency terms count m times, 2(N-1)(m alpha + S/(N*B)).
#include <gtest/gtest.h>

#include <ostream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

struct RingCase {
  const char* name;
  int nodes, gpus_per_node, job_gpus;
  double flops_per_iteration, gradient_bytes;
  int iterations;
  double fusion_bytes = 0;  // 0: one buffer
  int buffers = 1;          // ceil(S/F), counted by hand
};

void PrintTo(const RingCase& c, std::ostream* os) { *os << c.name; }

class RingTiming : public ::testing::TestWithParam<std::tuple<RingCase, const char*>> {};

TEST_P(RingTiming, BothFidelitiesMatchTheClosedForm) {
  const auto& [c, fidelity] = GetParam();
  const CraftedCluster cluster{c.nodes, c.gpus_per_node};
  nlohmann::json solo = training_job("solo", 0, c.job_gpus, c.flops_per_iteration, c.gradient_bytes, c.iterations);
  if (c.fusion_bytes > 0) solo["training"]["fusion_buffer"] = c.fusion_bytes;
  ScratchDir dir;
  const GcsimRun run = run_alone(dir, cluster, solo, fidelity);
  ASSERT_EQ(run.exit_code, 0) << run.err;

  // By hand: inside a node a message crosses two GPU ports (half the intra
  // latency each, intra bandwidth); across nodes it also crosses both NICs.
  const bool multi_node = c.job_gpus > c.gpus_per_node;
  const double alpha = multi_node ? cluster.intra_latency + 2 * cluster.nic_latency : cluster.intra_latency;
  const double bandwidth =
      multi_node ? std::min(cluster.intra_bandwidth, cluster.nic_bandwidth) : cluster.intra_bandwidth;
  const int n = c.job_gpus;
  const double per_iteration = c.flops_per_iteration / cluster.gpu_flops +
                               2.0 * (n - 1) * (c.buffers * alpha + c.gradient_bytes / (n * bandwidth));
  const double expected = per_iteration * c.iterations;

  const JobRow job = read_jobs_csv(dir / "out").at("solo");
  EXPECT_EQ(job.state, "finished");
  EXPECT_NEAR(job.jct, expected, expected * 0.005) << "closed form " << expected;
  EXPECT_NEAR(job.uncontended, expected, expected * 0.005) << "closed form " << expected;
}

INSTANTIATE_TEST_SUITE_P(
    SingleJob, RingTiming,
    ::testing::Combine(::testing::Values(RingCase{"eight_gpus_one_node", 1, 8, 8, 2e11, 100e6, 20},
                                         RingCase{"two_gpus_one_node", 1, 8, 2, 5e11, 400e6, 10},
                                         RingCase{"four_gpus_comm_bound", 1, 4, 4, 1e9, 1e9, 10},
                                         RingCase{"tiny_messages_latency_bound", 1, 8, 8, 1e8, 1e3, 50},
                                         RingCase{"two_nodes_ring_crosses_nics", 2, 4, 8, 2e11, 200e6, 10},
                                         // 1 MB in buffers of 100 kB: ten allreduces, ten times the latencies.
                                         RingCase{"fused_buffers_latency_bound", 1, 8, 8, 1e8, 1e6, 50, 1e5, 10},
                                         // 200 MB in buffers of 64 MB (64, 64, 64, 8) across two nodes.
                                         RingCase{"fused_buffers_across_nics", 2, 4, 8, 2e11, 200e6, 10, 64e6, 4}),
                       ::testing::Values("iteration", "job")),
    [](const ::testing::TestParamInfo<std::tuple<RingCase, const char*>>& info) {
      return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param);
    });

TEST(RingTiming, GradientsSmallerThanOneByteARankStillComplete) {
  // 3 bytes over 8 ranks: ring messages round to nothing, yet every step must complete.
  for (const std::string fidelity : {"job", "iteration"}) {
    SCOPED_TRACE(fidelity);
    ScratchDir dir;
    const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
    const auto workload = dir.write("jobs.json", workload_json({training_job("tiny", 0, 8, 1e9, 3, 5)}));
    const GcsimRun run = run_simulation(cluster, workload, dir / "out", {"--fidelity", fidelity});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(read_jobs_csv(dir / "out").at("tiny").state, "finished");
  }
}

TEST(RingTiming, MeasuredDurationRunsForItsDurationOnItsOwnGpuType) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload = dir.write("jobs.json", workload_json({measured_job("m", 3, 4, 123.5)}));
  ASSERT_EQ(run_simulation(cluster, workload, dir / "out").exit_code, 0);
  const JobRow job = read_jobs_csv(dir / "out").at("m");
  EXPECT_DOUBLE_EQ(job.start, 3);
  EXPECT_NEAR(job.end, 126.5, 1e-6);
}

}  // namespace
}  // namespace gcsim::testing
