// Jobs on rail-optimized fabrics, end to end: a ring in GPU order across two
// nodes, alone, takes what its routes say (without PXN its cross-rail edges
// share the leaves' uplinks; with PXN they relay over NVLink), and a PXN
// relay through another job's GPU slows that job's transfers inside its node.
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// Two nodes of two GPUs, one rail group: ports 450 GB/s and 1 us, a NIC per
// GPU of 50 GB/s and 2 us, leaf uplinks (2 x 50 GB/s) / 4 = 25 GB/s and 3 us
// (tests/support/crafted_specs.hpp's tiny_rail_cluster).
std::string tiny_rail_cluster(bool pxn) {
  return R"({"name": "rails", "gpu_types": [{"name": "GPU", "flops": 1e15, "memory": "80GB"}],
    "node_groups": [{"name": "n", "count": 2, "gpus_per_node": 2, "gpu_type": "GPU", "cpu_cores": 32,
      "memory": "256GB", "intra_node": {"kind": "nvlink", "bandwidth": "450GB/s", "latency": "2us"},
      "nic": {"bandwidth": "50GB/s", "latency": "2us", "per_gpu": true}}],
    "fabric": {"nodes_per_rack": 2, "oversubscription": 4, "uplink_latency": "3us", "rail_optimized": true,
               "pxn": )" +
         std::string(pxn ? "true" : "false") + "}}";
}

struct RailRingCase {
  const char* name;
  bool pxn;
  double edge_latency, edge_bandwidth;  // the ring's slowest edge, by hand
};

void PrintTo(const RailRingCase& c, std::ostream* os) { *os << c.name; }

class RailRing : public ::testing::TestWithParam<std::tuple<RailRingCase, const char*>> {};

// Pack places the job on n-0:0, n-0:1, n-1:0, n-1:1: the ring goes 0 -> 1 and
// 2 -> 3 over NVLink, 1 -> 2 and 3 -> 0 from rail 1 to rail 0. Without PXN
// both of those cross rail 1's uplink up and rail 0's down (2 + 3 + 3 + 2 us,
// half of 25 GB/s each); with PXN each relays through its node's GPU on
// rail 0 (1 + 1 + 2 + 2 us, the 50 GB/s NICs, each crossed once each way).
TEST_P(RailRing, AloneTheRingTakesWhatItsRoutesSay) {
  const auto& [c, fidelity] = GetParam();
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", tiny_rail_cluster(c.pxn));
  const auto workload = dir.write("jobs.json", workload_json({training_job("ring", 0, 4, 1e12, 1e9, 10)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out", {"--fidelity", fidelity});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JobRow job = read_jobs_csv(dir / "out").at("ring");
  EXPECT_EQ(job.placement, "n-0:0;n-0:1;n-1:0;n-1:1");
  // 1 ms of compute, then 2(N-1) = 6 steps of 1e9 / 4 bytes.
  const double expected = 10 * (1e-3 + 6 * (c.edge_latency + 1e9 / 4 / c.edge_bandwidth));
  EXPECT_NEAR(job.jct, expected, 1e-9 * expected);
  EXPECT_NEAR(job.uncontended, expected, 1e-9 * expected);
}

INSTANTIATE_TEST_SUITE_P(TinyRails, RailRing,
                         ::testing::Combine(::testing::Values(RailRingCase{"cross_rail_edges_share_the_uplinks", false,
                                                                           10e-6, 12.5e9},
                                                              RailRingCase{"pxn_relays_over_nvlink", true, 6e-6, 50e9}),
                                            ::testing::Values("iteration", "job")),
                         [](const ::testing::TestParamInfo<std::tuple<RailRingCase, const char*>>& info) {
                           return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param);
                         });

// Node x-0: 4 GPUs of type X (rails 0-3), ports of 60 GB/s and 1 us; node
// y-0: 1 GPU of type Y (rail 0); a 50 GB/s NIC per GPU; PXN. Under fifo and
// pack, job a takes x-0:0 and x-0:1, job p x-0:2, and job b, allowed both
// types, x-0:3 and y-0:0: its edge x-0:3 -> y-0:0 relays through x-0:0's
// port, which a's edge x-0:1 -> x-0:0 enters. That port is shared in the ratio
// 1/2 us : 1/6 us (CM02 weighs flows by their routes' latencies), 45 and
// 15 GB/s: a's steps of 3 GB take 3e9 / 45e9 instead of 3e9 / 60e9 while b's
// relay runs.
TEST(RailFabrics, APxnRelayThroughAnotherJobsGpuSlowsThatJobsTransfersInsideItsNode) {
  const std::string cluster_json = R"({"name": "relay",
    "gpu_types": [{"name": "X", "flops": 1e15, "memory": "80GB"}, {"name": "Y", "flops": 1e15, "memory": "80GB"}],
    "node_groups": [
      {"name": "x", "count": 1, "gpus_per_node": 4, "gpu_type": "X", "cpu_cores": 32, "memory": "256GB",
       "intra_node": {"kind": "nvlink", "bandwidth": "60GB/s", "latency": "2us"},
       "nic": {"bandwidth": "50GB/s", "latency": "2us", "per_gpu": true}},
      {"name": "y", "count": 1, "gpus_per_node": 1, "gpu_type": "Y", "cpu_cores": 32, "memory": "256GB",
       "intra_node": {"kind": "nvlink", "bandwidth": "60GB/s", "latency": "2us"},
       "nic": {"bandwidth": "50GB/s", "latency": "2us", "per_gpu": true}}],
    "fabric": {"nodes_per_rack": 2, "rail_optimized": true, "pxn": true, "uplink_latency": "1us"}})";
  nlohmann::json a = training_job("a", 0, 2, 1e12, 6e9, 10);
  a["gpu_types"] = {"X"};
  nlohmann::json p = {{"id", "p"},
                      {"submit", 0},
                      {"gpus", 1},
                      {"gpu_types", {"X"}},
                      {"duration", {{"seconds", 100}, {"gpu_type", "X"}}}};
  nlohmann::json b = training_job("b", 0, 2, 1e12, 40e9, 10);
  b["gpu_types"] = {"X", "Y"};
  const double alone = 10 * (1e-3 + 2 * (2e-6 + 3e9 / 60e9));
  const double shared_throughout = 10 * (1e-3 + 2 * (2e-6 + 3e9 / 45e9));
  for (const std::string fidelity : {"iteration", "job"}) {
    SCOPED_TRACE(fidelity);
    ScratchDir dir;
    const auto cluster = dir.write("cluster.json", cluster_json);
    const GcsimRun with_b = run_simulation(cluster, dir.write("with-b.json", workload_json({a, p, b})), dir / "with-b",
                                           {"--fidelity", fidelity});
    ASSERT_EQ(with_b.exit_code, 0) << with_b.err;
    const auto rows = read_jobs_csv(dir / "with-b");
    EXPECT_EQ(rows.at("a").placement, "x-0:0;x-0:1");
    EXPECT_EQ(rows.at("b").placement, "x-0:3;y-0:0");
    const GcsimRun without_b = run_simulation(cluster, dir.write("without-b.json", workload_json({a, p})),
                                              dir / "without-b", {"--fidelity", fidelity});
    ASSERT_EQ(without_b.exit_code, 0) << without_b.err;
    EXPECT_NEAR(read_jobs_csv(dir / "without-b").at("a").jct, alone, 1e-9 * alone);
    // b's relay runs through all of a's run but for b's computations (1 ms each).
    EXPECT_GT(rows.at("a").jct, alone + 0.95 * (shared_throughout - alone));
    EXPECT_LE(rows.at("a").jct, shared_throughout * (1 + 1e-9));
  }
}

}  // namespace
}  // namespace gcsim::testing
