// `gcsim run --policy power-budget:fifo --policy-opt budget_kw=KW`: a job
// waits while starting it would take the projected IT power over the budget,
// counted by hand on one node of two GPUs (idle 50 W, busy 250 W, base 100 W).
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

std::string powered_cluster(const ScratchDir& dir) {
  CraftedCluster crafted;
  crafted.gpus_per_node = 2;
  nlohmann::json doc = nlohmann::json::parse(crafted.to_json());
  doc["gpu_types"][0]["power"] = {{"idle_watts", 50}, {"busy_watts", 250}};
  doc["node_groups"][0]["base_watts"] = 100;
  return dir.write("powered.json", doc.dump());
}

TEST(PowerBudget, ASecondJobWaitsForTheFirstWhenBothWouldExceedTheBudget) {
  // Idle: 200 W. a alone: 400 W; a and b: 600 W > 450 W, so b starts at 100.
  const ScratchDir dir;
  const std::string cluster = powered_cluster(dir);
  const std::string workload =
      dir.write("w.json", workload_json({measured_job("a", 0, 1, 100), measured_job("b", 0, 1, 100)}));
  const GcsimRun budgeted = run_simulation(cluster, workload, dir / "budget",
                                           {"--energy", "--policy-opt", "budget_kw=0.45"}, "power-budget:fifo");
  ASSERT_EQ(budgeted.exit_code, 0) << budgeted.err;
  const auto jobs = read_jobs_csv(dir / "budget");
  EXPECT_DOUBLE_EQ(jobs.at("a").start, 0);
  EXPECT_DOUBLE_EQ(jobs.at("b").start, 100);
  EXPECT_DOUBLE_EQ(jobs.at("b").end, 200);
  EXPECT_NEAR(read_summary(dir / "budget")["energy"]["peak_kw"].get<double>(), 0.4, 1e-12);

  // Plain fifo starts both at once, at 600 W.
  const GcsimRun plain = run_simulation(cluster, workload, dir / "plain", {"--energy"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_DOUBLE_EQ(read_jobs_csv(dir / "plain").at("b").start, 0);
  EXPECT_NEAR(read_summary(dir / "plain")["energy"]["peak_kw"].get<double>(), 0.6, 1e-12);
}

TEST(PowerBudget, AMissingBudgetIsAUsageErrorNamingTheOption) {
  const ScratchDir dir;
  const GcsimRun run =
      run_simulation(powered_cluster(dir), dir.write("w.json", workload_json({measured_job("a", 0, 1, 100)})),
                     dir / "out", {}, "power-budget:fifo");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("budget_kw"), std::string::npos) << run.err;
}

TEST(PowerBudget, TheBundledEnergyScenarioStaysWithinItsBudgetAndItsJobsWait) {
  const ScratchDir dir;
  const std::string cluster = scenario("energy/cluster-8x8-h100.json"), day = scenario("energy/day.json");
  ASSERT_EQ(run_simulation(cluster, day, dir / "fifo", {"--energy"}).exit_code, 0);
  const GcsimRun budgeted =
      run_simulation(cluster, day, dir / "budget", {"--energy", "--policy-opt", "budget_kw=35"}, "power-budget:fifo");
  ASSERT_EQ(budgeted.exit_code, 0) << budgeted.err;
  const nlohmann::json fifo = read_summary(dir / "fifo"), budget = read_summary(dir / "budget");
  EXPECT_GT(fifo["energy"]["peak_kw"].get<double>(), 35);
  EXPECT_LE(budget["energy"]["peak_kw"].get<double>(), 35);
  EXPECT_EQ(budget["jobs"]["finished"], fifo["jobs"]["finished"]);
  EXPECT_GT(budget["jct_s"]["mean"].get<double>(), fifo["jct_s"]["mean"].get<double>());
}

}  // namespace
}  // namespace gcsim::testing
