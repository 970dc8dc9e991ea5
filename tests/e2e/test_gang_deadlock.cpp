// Two 4-GPU jobs on a 4-GPU node whose GPUs free up one at a time: without
// gang scheduling each grabs two and they wait on each other forever; the
// engine names them. Gang scheduling runs the same scenario to completion.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

GcsimRun run_deadlock_scenario(const ScratchDir& dir, const std::string& policy,
                               const std::vector<std::string>& extra = {}) {
  return run_simulation(scenario("clusters/node-4gpu-pcie.json"), scenario("workloads/gang-deadlock.json"), dir / "out",
                        extra, policy);
}

TEST(GangDeadlock, NonGangBaselineDeadlocksAndTheDetectorNamesTheJobs) {
  ScratchDir dir;
  const GcsimRun run = run_deadlock_scenario(dir, "piecemeal");
  EXPECT_EQ(run.exit_code, 5) << run.err;
  EXPECT_NE(run.err.find("deadlock"), std::string::npos);
  EXPECT_NE(run.err.find("'train-a' holds 2 of 4"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("'train-b' holds 2 of 4"), std::string::npos) << run.err;

  // The short jobs end at 60, 120, 180, 240 s; each freed GPU goes to the
  // holder with the fewest: a, b, a, b. At 240 s nothing runs any more.
  const nlohmann::json summary = read_summary(dir / "out");
  ASSERT_TRUE(summary["deadlock"].is_object());
  EXPECT_DOUBLE_EQ(summary["deadlock"]["detected_at_s"].get<double>(), 240);
  const auto& stuck = summary["deadlock"]["jobs"];
  ASSERT_EQ(stuck.size(), 2u);
  EXPECT_EQ(stuck[0]["id"], "train-a");
  EXPECT_EQ(stuck[0]["gpus"], "pcie4-0:0;pcie4-0:2");
  EXPECT_EQ(stuck[1]["id"], "train-b");
  EXPECT_EQ(stuck[1]["gpus"], "pcie4-0:1;pcie4-0:3");
  EXPECT_EQ(summary["jobs"]["unfinished"].get<int>(), 2);
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_EQ(rows.at("train-a").state, "waiting");
}

TEST(GangDeadlock, GangSchedulingCompletesTheSameScenario) {
  ScratchDir dir;
  const GcsimRun run = run_deadlock_scenario(dir, "gang");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  // train-a gets all four GPUs when the last short job ends, train-b after it.
  EXPECT_NEAR(rows.at("train-a").start, 240, 1e-6);
  EXPECT_NEAR(rows.at("train-a").end, 1440, 1e-6);
  EXPECT_NEAR(rows.at("train-b").start, 1440, 1e-6);
  EXPECT_NEAR(rows.at("train-b").end, 2640, 1e-6);
  EXPECT_TRUE(read_summary(dir / "out")["deadlock"].is_null());
}

TEST(GangDeadlock, HoldTimeoutBreaksTheDeadlock) {
  ScratchDir dir;
  const GcsimRun run = run_deadlock_scenario(dir, "piecemeal", {"--policy-opt", "hold_timeout=300"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  // train-a first held a GPU at 60 s: it releases at 360 s and backs off;
  // train-b takes the freed GPUs and runs 360-1560; train-a then 1560-2760.
  EXPECT_NEAR(rows.at("train-b").start, 360, 1e-6);
  EXPECT_NEAR(rows.at("train-b").end, 1560, 1e-6);
  EXPECT_NEAR(rows.at("train-a").start, 1560, 1e-6);
  EXPECT_NEAR(rows.at("train-a").end, 2760, 1e-6);
}

}  // namespace
}  // namespace gcsim::testing
