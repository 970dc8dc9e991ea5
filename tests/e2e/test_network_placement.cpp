// The network placement end to end: on a crafted rail cluster where pack
// splits a large model's DP ring over two leaves, the job and the workload's
// mean JCT under fifo with network placement are what the links say, and no
// worse than with pack; every figure counted by hand.
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// Two racks of three nodes of two GPUs (tests/unit/test_network_placement.cpp):
// rail-optimized, no PXN, NVLink 450 GB/s, a NIC per GPU of 50 GB/s, each
// rail's leaf uplink (3 x 50 GB/s) / 6 = 25 GB/s, no latency anywhere.
const char* kTwoRailRacks =
    R"({"name": "two-rail-racks", "gpu_types": [{"name": "GPU", "flops": 1e15, "memory": "80GB"}],
  "node_groups": [{"name": "n", "count": 6, "gpus_per_node": 2, "gpu_type": "GPU", "cpu_cores": 32,
    "memory": "256GB", "intra_node": {"kind": "nvlink", "bandwidth": "450GB/s", "latency": "0us"},
    "nic": {"bandwidth": "50GB/s", "latency": "0us", "per_gpu": true}}],
  "fabric": {"nodes_per_rack": 3, "oversubscription": 6, "uplink_latency": "0us", "rail_optimized": true}})";

// llm: TP 2 x DP 2 x PP 2 (rank = tp + 2 (dp + 2 pp)), 10 iterations of
//   1e12 FLOPs (1 ms) beside the TP rings, 8 steps of 1 MB (8 MB / 450 GB/s: under the 1 ms)
//   the PP sends, 10 MB
//   the DP rings, 2 steps of 1 GB
// tp: a TP 2 job of the first phase alone, 10 ms wherever it goes (one node).
nlohmann::json llm_job() {
  return nlohmann::json::parse(R"({"id": "llm", "submit": 0, "gpus": 8, "phased": {"iterations": 10, "phases": [
    {"flops": 1e12, "exchanges": [{"exchange": "ring_step", "group_size": 2, "stride": 1, "bytes": 1e6, "messages": 8}]},
    {"exchanges": [{"exchange": "chain_next", "group_size": 2, "stride": 4, "bytes": 1e7}]},
    {"exchanges": [{"exchange": "ring_step", "group_size": 2, "stride": 2, "bytes": 1e9, "messages": 2}]}]}})");
}
nlohmann::json tp_job() {
  return nlohmann::json::parse(R"({"id": "tp", "submit": 0, "gpus": 2, "phased": {"iterations": 10, "phases": [
    {"flops": 1e12, "exchanges": [{"exchange": "ring_step", "group_size": 2, "stride": 1, "bytes": 1e6, "messages": 8}]}]}})");
}

// Pack: llm on n-0, n-1, n-2, n-5; its PP sends 2 -> 6 and 3 -> 7 cross the
// spine one a rail (10 MB / 25 GB/s = 0.4 ms), its DP rings of pp 1 too
// (2 GB / 25 GB/s = 80 ms); tp on n-3. Network: llm on n-0, n-1, n-3, n-4,
// each DP ring in one rack (2 GB / 50 GB/s = 40 ms), its PP sends 0 -> 4 and
// 2 -> 6 both on rail 0's uplinks (2 x 10 MB / 25 GB/s = 0.8 ms); tp on n-2.
TEST(NetworkPlacementEndToEnd, TheMeanJctIsNoWorseThanPacksAndIsWhatTheLinksSay) {
  struct Case {
    const char* placement;
    const char* llm_gpus;
    const char* tp_gpus;
    double llm_jct;
  };
  const double tp_jct = 10 * 1e-3;
  const Case cases[] = {
      {"pack", "n-0:0;n-0:1;n-1:0;n-1:1;n-2:0;n-2:1;n-5:0;n-5:1", "n-3:0;n-3:1", 10 * (1e-3 + 1e7 / 25e9 + 2e9 / 25e9)},
      {"network", "n-0:0;n-0:1;n-1:0;n-1:1;n-3:0;n-3:1;n-4:0;n-4:1", "n-2:0;n-2:1",
       10 * (1e-3 + 2e7 / 25e9 + 2e9 / 50e9)}};
  double mean_jct[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    const Case& c = cases[i];
    SCOPED_TRACE(c.placement);
    ScratchDir dir;
    const auto cluster = dir.write("cluster.json", kTwoRailRacks);
    const auto workload = dir.write("jobs.json", workload_json({llm_job(), tp_job()}));
    const GcsimRun run = run_simulation(cluster, workload, dir / "out", {"--placement", c.placement});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto rows = read_jobs_csv(dir / "out");
    EXPECT_EQ(rows.at("llm").placement, c.llm_gpus);
    EXPECT_EQ(rows.at("tp").placement, c.tp_gpus);
    EXPECT_NEAR(rows.at("llm").jct, c.llm_jct, 1e-6);
    EXPECT_NEAR(rows.at("tp").jct, tp_jct, 1e-6);
    mean_jct[i] = (rows.at("llm").jct + rows.at("tp").jct) / 2;
  }
  // (0.814 + 0.01) / 2 = 0.412 s under pack, (0.418 + 0.01) / 2 = 0.214 s under network.
  EXPECT_NEAR(mean_jct[0], 0.412, 1e-6);
  EXPECT_NEAR(mean_jct[1], 0.214, 1e-6);
  EXPECT_LE(mean_jct[1], mean_jct[0]);
}

}  // namespace
}  // namespace gcsim::testing
