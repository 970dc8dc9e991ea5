// Node failures: the jobs on a failed node go back to their last checkpoint
// and wait for GPUs again, and its GPUs are down until the repair ends.
// Counted by hand on two nodes of 4 GPUs (1e12 FLOP/s) under fifo.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// "A" (4 GPUs, 1000 s, a checkpoint every 100 s) runs on n-0, which fails at
// 250 s for 500 s: A keeps 200 s of work, loses 50 s x 4 GPUs, and restarts
// at once on n-1 for its remaining 800 s, to 1050 s. "B" (4 GPUs, 100 s,
// from 300 s) finds n-1 busy and n-0 down, and runs 750-850 s. Held: 1000 +
// 3200 + 400 GPU-seconds, of which 4400 useful: goodput 4400 / 4600.
TEST(NodeFailures, TheJobsOnAFailedNodeRestartFromTheirCheckpointAndItsGpusWaitForTheRepair) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{2, 4}.to_json());
  nlohmann::json a = measured_job("A", 0, 4, 1000);
  a["checkpoint"] = {{"interval", 100}};
  const auto jobs = dir.write("jobs.json", workload_json({a, measured_job("B", 300, 4, 100)}));
  const auto failures = dir.write("failures.json", R"({"failures": [{"node": "n-0", "at": 250, "duration": "500s"}]})");
  const GcsimRun run = run_simulation(cluster, jobs, dir / "out", {"--node-failures", failures});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_DOUBLE_EQ(rows.at("A").end, 1050);
  EXPECT_EQ(rows.at("A").preemptions, 1);
  EXPECT_DOUBLE_EQ(rows.at("B").start, 750);
  EXPECT_DOUBLE_EQ(rows.at("B").end, 850);
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["node_failures"]["failures"], 1);
  EXPECT_EQ(summary["node_failures"]["restarts"], 1);
  EXPECT_NEAR(summary["node_failures"]["lost_gpu_hours"].get<double>(), 200 / 3600.0, 1e-12);
  EXPECT_NEAR(summary["node_failures"]["goodput"].get<double>(), 4400 / 4600.0, 1e-12);
}

// The same failure, A saving its work only when preempted: a crash leaves
// it no time to save, so it starts over on n-1 at 250 s and ends at 1250 s,
// having lost 250 s x 4 GPUs. With its checkpoint every 100 s as well, it
// keeps the 200 s of its last one, as above.
TEST(NodeFailures, ACrashLeavesNoTimeForASaveAtPreemption) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{2, 4}.to_json());
  const auto failures = dir.write("failures.json", R"({"failures": [{"node": "n-0", "at": 250, "duration": "500s"}]})");
  struct Case {
    nlohmann::json checkpoint;
    double a_end, lost_gpu_seconds;
  };
  for (const Case& c :
       {Case{{{"at_preemption", true}}, 1250, 1000}, Case{{{"at_preemption", true}, {"interval", 100}}, 1050, 200}}) {
    nlohmann::json a = measured_job("A", 0, 4, 1000);
    a["checkpoint"] = c.checkpoint;
    const auto jobs = dir.write("jobs.json", workload_json({a, measured_job("B", 300, 4, 100)}));
    const GcsimRun run = run_simulation(cluster, jobs, dir / "out", {"--node-failures", failures});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto rows = read_jobs_csv(dir / "out");
    EXPECT_DOUBLE_EQ(rows.at("A").end, c.a_end) << c.checkpoint;
    EXPECT_DOUBLE_EQ(rows.at("B").end, 850) << c.checkpoint;
    const nlohmann::json summary = read_summary(dir / "out");
    EXPECT_NEAR(summary["node_failures"]["lost_gpu_hours"].get<double>(), c.lost_gpu_seconds / 3600.0, 1e-12)
        << c.checkpoint;
  }
}

TEST(NodeFailures, BadFailureFilesAreNamed) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{2, 4}.to_json());
  const auto jobs = dir.write("jobs.json", workload_json({measured_job("A", 0, 1, 10)}));
  auto rejected = [&](const std::string& text, const std::vector<std::string>& parts) {
    const auto failures = dir.write("failures.json", text);
    const GcsimRun run = run_simulation(cluster, jobs, dir / "out", {"--node-failures", failures});
    EXPECT_EQ(run.exit_code, 1) << text;
    for (const std::string& part : parts) EXPECT_NE(run.err.find(part), std::string::npos) << part << ": " << run.err;
    EXPECT_TRUE(files_in(dir / "out").empty());
  };
  rejected(R"({"mtbf": 0, "repair": "1h", "horizon": "1d"})", {"failures.json", "mtbf", "MTBF of 0"});
  rejected(R"({"failures": [{"node": "n-7", "at": 5, "duration": 5}]})", {"failures[0]", "node", "'n-7'"});
  rejected(R"({"failures": [{"node": "n-0", "at": 5, "duration": 50}, {"node": "n-0", "at": 20, "duration": 5}]})",
           {"n-0", "before its repair"});
  rejected(R"({"mtbf": "10h", "distribution": "weibull", "repair": "1h", "horizon": "1d"})", {"shape"});
}

}  // namespace
}  // namespace gcsim::testing
