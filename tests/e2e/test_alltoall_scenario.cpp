// The all-to-all `gcsim validate` simulates (validation/alltoall_scenario.hpp):
// gcsim running its DAG job on its star of calibrated links takes the closed
// form L + (N-1) block / B, every rank's N-1 blocks crossing its upload and
// its download at once, each at B / (N-1).
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"
#include "validation/alltoall_scenario.hpp"

namespace gcsim::testing {
namespace {

using validation::alltoall_closed_form_seconds;
using validation::alltoall_workload_json;
using validation::ring_cluster_json;

// gcsim's time for the scenario of `ranks` ranks exchanging blocks of `block` bytes.
double simulated_alltoall(std::uint32_t ranks, double block, const validation::RingCalibration& link) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", ring_cluster_json(ranks, link));
  const std::string workload = dir.write("workload.json", alltoall_workload_json(ranks, block));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return read_jobs_csv(dir / "out").at("alltoall").jct;
}

TEST(AlltoallScenario, ThreeRanksTakeOneLatencyAndTwoBlocksOverTheLink) {
  // 40 us + 2 x 5 MB / 25 MB/s = 0.40004 s.
  EXPECT_NEAR(simulated_alltoall(3, 5e6, {40e-6, 25e6}), 0.40004, 0.40004 * 1e-4);
}

TEST(AlltoallScenario, SixRanksShareEachLinkFiveWays) {
  // 20 us + 5 x 1 MB / 10 MB/s = 0.50002 s: each link carries five blocks at a fifth of its rate.
  EXPECT_NEAR(simulated_alltoall(6, 1e6, {20e-6, 10e6}), 0.50002, 0.50002 * 1e-4);
}

TEST(AlltoallScenario, TheClosedFormIsOneLatencyPlusTheBlocksEveryRankSends) {
  EXPECT_DOUBLE_EQ(alltoall_closed_form_seconds(3, 5e6, {40e-6, 25e6}), 40e-6 + 2 * 5e6 / 25e6);
  EXPECT_DOUBLE_EQ(alltoall_closed_form_seconds(1, 5e6, {40e-6, 25e6}), 0);
}

}  // namespace
}  // namespace gcsim::testing
