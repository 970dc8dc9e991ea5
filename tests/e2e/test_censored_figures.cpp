// A run cut short (--until, a deadlock) reports, beside the finished jobs'
// JCT and queueing delay, censored figures that count the jobs submitted and
// not ended at the stop time T: JCT = T - submit, wait = (start or T) - submit.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

TEST(CensoredFigures, UntilCountsTheRunningAndWaitingJobsAtTheStop) {
  // One 8-GPU node: A takes it at 0 for 100 s; B waits from 10 s. Stopped at 50 s.
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload = dir.write(
      "jobs.json",
      workload_json({measured_job("A", 0, 8, 100), measured_job("B", 10, 8, 100), measured_job("later", 60, 8, 100)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out", {"--until", "50"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["jct_s"]["count"].get<int>(), 0);
  EXPECT_EQ(summary["queueing_delay_s"]["count"].get<int>(), 0);
  const nlohmann::json& jct = summary["jct_s_censored"];
  const nlohmann::json& wait = summary["queueing_delay_s_censored"];
  // JCTs 50 and 40 (A from 0, B from 10); waits 0 and 40; "later" is not submitted by 50 s.
  EXPECT_EQ(jct["count"].get<int>(), 2);
  EXPECT_DOUBLE_EQ(jct["mean"].get<double>(), 45);
  EXPECT_DOUBLE_EQ(jct["p50"].get<double>(), 45);
  EXPECT_DOUBLE_EQ(jct["max"].get<double>(), 50);
  EXPECT_EQ(wait["count"].get<int>(), 2);
  EXPECT_DOUBLE_EQ(wait["mean"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(wait["max"].get<double>(), 40);
  EXPECT_FALSE(summary.contains("partial"));
}

TEST(CensoredFigures, FinishedJobsCountWithTheirOwnFigures) {
  // A (8 GPUs, 20 s) ends at 20; B (8 GPUs, 100 s) from 10 starts at 20 and
  // runs at 50. Finished: JCT 20, wait 0. Censored adds B: JCT 40, wait 10.
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload =
      dir.write("jobs.json", workload_json({measured_job("A", 0, 8, 20), measured_job("B", 10, 8, 100)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out", {"--until", "50"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["jct_s"]["count"].get<int>(), 1);
  EXPECT_DOUBLE_EQ(summary["jct_s"]["mean"].get<double>(), 20);
  EXPECT_EQ(summary["jct_s_censored"]["count"].get<int>(), 2);
  EXPECT_DOUBLE_EQ(summary["jct_s_censored"]["mean"].get<double>(), 30);
  EXPECT_DOUBLE_EQ(summary["queueing_delay_s_censored"]["mean"].get<double>(), 5);
  EXPECT_DOUBLE_EQ(summary["queueing_delay_s_censored"]["max"].get<double>(), 10);
}

TEST(CensoredFigures, AbsentWhenNothingWasCutShort) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload =
      dir.write("jobs.json", workload_json({measured_job("A", 0, 8, 20), measured_job("B", 10, 8, 100)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["jct_s"]["count"].get<int>(), 2);
  EXPECT_FALSE(summary.contains("jct_s_censored"));
  EXPECT_FALSE(summary.contains("queueing_delay_s_censored"));
}

TEST(CensoredFigures, ADeadlockCountsTheStuckJobsAtItsDetection) {
  // scenarios/workloads/gang-deadlock.json under piecemeal: the short jobs
  // end at 60, 120, 180 and 240 s without waiting; train-a (from 30 s) and
  // train-b (from 40 s) hold two GPUs each and never start; detected at 240 s.
  ScratchDir dir;
  const GcsimRun run = run_simulation(scenario("clusters/node-4gpu-pcie.json"),
                                      scenario("workloads/gang-deadlock.json"), dir / "out", {}, "piecemeal");
  ASSERT_EQ(run.exit_code, 5) << run.err;
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["jct_s"]["count"].get<int>(), 4);
  EXPECT_DOUBLE_EQ(summary["jct_s"]["mean"].get<double>(), 150);
  const nlohmann::json& jct = summary["jct_s_censored"];
  EXPECT_EQ(jct["count"].get<int>(), 6);
  EXPECT_NEAR(jct["mean"].get<double>(), (60 + 120 + 180 + 240 + 210 + 200) / 6.0, 1e-9);
  EXPECT_DOUBLE_EQ(jct["max"].get<double>(), 240);
  EXPECT_NEAR(summary["queueing_delay_s_censored"]["mean"].get<double>(), (210 + 200) / 6.0, 1e-9);
}

}  // namespace
}  // namespace gcsim::testing
