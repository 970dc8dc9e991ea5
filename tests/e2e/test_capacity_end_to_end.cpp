// The capacity policy through the gcsim executable, with the bundled YARN
// configuration: research borrows idle GPUs, prod's demand takes them back by
// preemption after the grace period, and the preempted job starts over.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

const std::string kBundledConfig = std::string(GCSIM_SOURCE_DIR) + "/scenarios/capacity/yarn-two-queues.json";

nlohmann::json queued(nlohmann::json job, const std::string& queue, const std::string& user) {
  job["queue"] = queue;
  job["user"] = user;
  return job;
}

TEST(CapacityEndToEnd, PreemptionReturnsBorrowedGpusToTheGuaranteedQueue) {
  // One 10-GPU node; prod is guaranteed 60%, research 40% and may grow to
  // 100% (user-limit-factor 2.5). Rounds every 3 s, 15 s grace period, up to
  // half the cluster per round (yarn-two-queues.json).
  //  0 s  r1 (research, 4 GPUs, 1000 s) starts.
  //  1 s  r2 (research, 4 GPUs, 1000 s) starts: research borrows, 8 of 10 GPUs.
  //  100 s p1 (prod, 6 GPUs, 500 s) waits: 2 GPUs free. Research should give
  //        back 0.4 of the cluster: to obtain 0.4 x 0.2; the youngest job, r2,
  //        is selected by the next round, at 102 s, and marked.
  //  117 s the round 15 s later selects r2 again: it is preempted and p1
  //        starts on its GPUs plus the 2 free ones; p1 ends at 617 s.
  //  617 s r2 starts over (no checkpoint) and ends at 1617 s; r1 ends at 1000 s.
  ScratchDir dir;
  CraftedCluster cluster;
  cluster.gpus_per_node = 10;
  dir.write("cluster.json", cluster.to_json());
  dir.write("jobs.json", workload_json({queued(measured_job("r1", 0, 4, 1000), "research", "rita"),
                                        queued(measured_job("r2", 1, 4, 1000), "research", "rita"),
                                        queued(measured_job("p1", 100, 6, 500), "prod", "pat")}));
  const GcsimRun run = run_simulation(dir / "cluster.json", dir / "jobs.json", dir / "out",
                                      {"--policy-opt", "config=" + kBundledConfig}, "capacity");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_NEAR(rows.at("r1").start, 0, 1e-6);
  EXPECT_NEAR(rows.at("r1").end, 1000, 1e-6);
  EXPECT_NEAR(rows.at("p1").start, 117, 1e-6);
  EXPECT_NEAR(rows.at("p1").end, 617, 1e-6);
  EXPECT_NEAR(rows.at("r2").start, 1, 1e-6);  // its first start
  EXPECT_NEAR(rows.at("r2").end, 1617, 1e-6);
  const std::string csv = read_text(dir / "out/jobs.csv");
  EXPECT_NE(csv.find("r2,rita,research,4,"), std::string::npos);
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["jobs"]["finished"].get<int>(), 3);
}

TEST(CapacityEndToEnd, ConfigurationErrorsNameFileQueueAndProperty) {
  ScratchDir dir;
  dir.write("cluster.json", CraftedCluster{}.to_json());
  dir.write("jobs.json", workload_json({queued(measured_job("j", 0, 1, 10), "a", "u")}));
  const std::string bad = dir.write("yarn.json", R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 70, "yarn.scheduler.capacity.root.b.capacity": 40})");
  const GcsimRun run = run_simulation(dir / "cluster.json", dir / "jobs.json", dir / "out",
                                      {"--policy-opt", "config=" + bad}, "capacity");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find(bad + ": queue root: field 'yarn.scheduler.capacity.root.queues': the capacities of the "
                               "children of root sum to 110"),
            std::string::npos)
      << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

TEST(CapacityEndToEnd, AJobInAnUnknownQueueIsAnInputError) {
  ScratchDir dir;
  dir.write("cluster.json", CraftedCluster{}.to_json());
  dir.write("jobs.json", workload_json({queued(measured_job("lost", 0, 1, 10), "nowhere", "u")}));
  const GcsimRun run = run_simulation(dir / "cluster.json", dir / "jobs.json", dir / "out",
                                      {"--policy-opt", "config=" + kBundledConfig}, "capacity");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("job 'lost': field 'queue': no queue 'nowhere'"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace gcsim::testing
