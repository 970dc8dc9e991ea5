// `gcsim run --policy power-budget:fifo --policy-opt budget_kw=KW`: a job
// waits while starting it would take the projected IT power over the budget,
// counted by hand on one node of two GPUs (idle 50 W, busy 250 W, base 100 W);
// with over_budget=cap it starts at once in a lower power state instead,
// counted by hand on two nodes of two bundled V100s.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
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

// Two nodes of two V100s (the bundled power: idle and communicating 50 W,
// busy 300 W; states 300 W at full speed, 250 at 0.95, 200 at 0.85, 150 at
// 0.66, 100 at 0.4), 1 TFLOP/s each, 100 W of base a node: 400 W idle.
std::string v100_cluster(const ScratchDir& dir) {
  CraftedCluster crafted;
  crafted.nodes = 2;
  crafted.gpus_per_node = 2;
  nlohmann::json doc = nlohmann::json::parse(crafted.to_json());
  doc["gpu_types"][0]["name"] = "V100";
  doc["node_groups"][0]["gpu_type"] = "V100";
  doc["node_groups"][0]["base_watts"] = 100;
  return dir.write("v100.json", doc.dump());
}

// Two training jobs of 2 GPUs submitted at 0, each on one node: 10
// iterations of 0.5 s of compute at full speed and a 400 MB ring allreduce
// inside the node. Each adds 2 x 250 W to the projection at full speed.
std::string two_trainings(const ScratchDir& dir) {
  return dir.write("two.json",
                   workload_json({training_job("a", 0, 2, 5e11, 400e6, 10), training_job("b", 0, 2, 5e11, 400e6, 10)}));
}

// The greatest watts of power.csv's steps.
double most_watts(const std::string& out_dir) {
  std::istringstream in(read_text(out_dir + "/power.csv"));
  std::string line;
  std::getline(in, line);  // time,watts
  double most = 0;
  while (std::getline(in, line)) most = std::max(most, std::stod(line.substr(line.find(',') + 1)));
  return most;
}

// Job `id`'s energy_kwh: under --energy jobs.csv's rows end with
// energy_kwh,energy_kwh_per_gpu_hour (no field holds a comma).
double job_kwh(const std::string& out_dir, const std::string& id) {
  std::istringstream in(read_text(out_dir + "/jobs.csv"));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(id + ",", 0) != 0) continue;
    const std::size_t last = line.rfind(','), before = line.rfind(',', last - 1);
    return std::stod(line.substr(before + 1, last - before - 1));
  }
  ADD_FAILURE() << "no job " << id << " in " << out_dir << "/jobs.csv";
  return -1;
}

struct TwoTrainings {
  double compute = 0, exchange = 0, alone = 0;  // per iteration at full speed, and a's run time
};

TwoTrainings two_trainings_timing() {
  const CraftedCluster crafted;
  TwoTrainings t;
  t.compute = 5e11 / crafted.gpu_flops;
  t.exchange = 2.0 * (2 - 1) * (crafted.intra_latency + 400e6 / (2 * crafted.intra_bandwidth));
  t.alone = 10 * (t.compute + t.exchange);
  return t;
}

TEST(PowerBudget, WithWaitTheSecondJobWaitsForTheFirstToEnd) {
  // a: 400 + 500 = 900 W; b at full would make 1400 W > 1250 W.
  const ScratchDir dir;
  const TwoTrainings t = two_trainings_timing();
  const GcsimRun run = run_simulation(v100_cluster(dir), two_trainings(dir), dir / "wait",
                                      {"--energy", "--policy-opt", "budget_kw=1.25"}, "power-budget:fifo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "wait");
  EXPECT_NEAR(jobs.at("a").end, t.alone, t.alone * 1e-6);
  EXPECT_NEAR(jobs.at("b").start, t.alone, t.alone * 1e-6);
  EXPECT_NEAR(jobs.at("b").jct, 2 * t.alone, t.alone * 1e-6);
  EXPECT_NEAR(most_watts(dir / "wait"), 900, 1e-9);
}

TEST(PowerBudget, WithCapTheSecondJobStartsAtOnceInTheHighestStateThatFits) {
  // b adds 2 x 250 W at 300 W (1400 W), 2 x 200 at 250 W (1300 W), 2 x 150
  // at 200 W: 1200 W, within 1250 W. It computes at 0.85: each iteration's
  // 0.5 s of compute takes 0.5 / 0.85 s, its allreduce what it did.
  const ScratchDir dir;
  const TwoTrainings t = two_trainings_timing();
  const std::string cluster = v100_cluster(dir), workload = two_trainings(dir);
  const GcsimRun run = run_simulation(cluster, workload, dir / "cap",
                                      {"--energy", "--policy-opt", "budget_kw=1.25", "--policy-opt", "over_budget=cap"},
                                      "power-budget:fifo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "cap");
  EXPECT_NEAR(jobs.at("a").jct, t.alone, t.alone * 1e-6);
  EXPECT_DOUBLE_EQ(jobs.at("b").start, 0);
  const double capped = 10 * (t.compute / 0.85 + t.exchange);
  EXPECT_NEAR(jobs.at("b").jct, capped, capped * 1e-6);
  // Its two GPUs draw 200 W computing and 50 W exchanging.
  const double joules = 2 * 10 * (200 * t.compute / 0.85 + 50 * t.exchange);
  EXPECT_NEAR(job_kwh(dir / "cap", "b"), joules / 3.6e6, joules / 3.6e6 * 1e-5);
  // While both compute: 200 W of base, a's GPUs at 300 W, b's at 200 W.
  EXPECT_NEAR(most_watts(dir / "cap"), 1200, 1e-9);
  EXPECT_NEAR(read_summary(dir / "cap")["energy"]["peak_kw"].get<double>(), 1.2, 1e-12);

  // The same run as b's own power_limit_watts of 200 W gives it under plain fifo.
  nlohmann::json limited = training_job("b", 0, 2, 5e11, 400e6, 10);
  limited["power_limit_watts"] = 200;
  const GcsimRun own =
      run_simulation(cluster, dir.write("own.json", workload_json({training_job("a", 0, 2, 5e11, 400e6, 10), limited})),
                     dir / "own", {"--energy"});
  ASSERT_EQ(own.exit_code, 0) << own.err;
  const auto own_jobs = read_jobs_csv(dir / "own");
  EXPECT_DOUBLE_EQ(own_jobs.at("b").jct, jobs.at("b").jct);
  EXPECT_DOUBLE_EQ(job_kwh(dir / "own", "b"), job_kwh(dir / "cap", "b"));
}

TEST(PowerBudget, WithCapAStateBelowMinSpeedIsRefusedAndTheJobWaits) {
  // The state that fits, 200 W, computes at 0.85 < 0.9: b waits for a.
  const ScratchDir dir;
  const TwoTrainings t = two_trainings_timing();
  const GcsimRun run = run_simulation(v100_cluster(dir), two_trainings(dir), dir / "slow",
                                      {"--energy", "--policy-opt", "budget_kw=1.25", "--policy-opt", "over_budget=cap",
                                       "--policy-opt", "min_speed=0.9"},
                                      "power-budget:fifo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "slow");
  EXPECT_NEAR(jobs.at("b").start, t.alone, t.alone * 1e-6);
  EXPECT_NEAR(jobs.at("b").jct, 2 * t.alone, t.alone * 1e-6);
}

TEST(PowerBudget, ABadOverBudgetOrMinSpeedIsAnErrorNamingTheOption) {
  const ScratchDir dir;
  const std::string cluster = v100_cluster(dir), workload = two_trainings(dir);
  for (const std::string option : {"over_budget=throttle", "min_speed=1.5", "min_speed=0"}) {
    const GcsimRun run =
        run_simulation(cluster, workload, dir / "bad", {"--policy-opt", "budget_kw=1.25", "--policy-opt", option},
                       "power-budget:fifo");
    EXPECT_NE(run.exit_code, 0) << option;
    EXPECT_NE(run.err.find(option.substr(0, option.find('='))), std::string::npos) << run.err;
    EXPECT_FALSE(std::ifstream(dir / "bad/jobs.csv").good()) << option;
  }
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

TEST(PowerBudget, TheBundledEnergyScenarioWithCapStaysWithinItsBudgetAndItsJobsWaitLess) {
  const ScratchDir dir;
  const std::string cluster = scenario("energy/cluster-8x8-h100.json"), day = scenario("energy/day.json");
  for (const char* over : {"wait", "cap"}) {
    const GcsimRun run =
        run_simulation(cluster, day, dir / over,
                       {"--energy", "--policy-opt", "budget_kw=35", "--policy-opt", std::string("over_budget=") + over},
                       "power-budget:fifo");
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const nlohmann::json wait = read_summary(dir / "wait"), cap = read_summary(dir / "cap");
  EXPECT_LE(cap["energy"]["peak_kw"].get<double>(), 35);
  EXPECT_GT(cap["energy"]["peak_kw"].get<double>(), wait["energy"]["peak_kw"].get<double>());
  EXPECT_EQ(cap["jobs"]["finished"], wait["jobs"]["finished"]);
  EXPECT_LT(cap["queueing_delay_s"]["mean"].get<double>(), wait["queueing_delay_s"]["mean"].get<double>());
  EXPECT_LT(cap["jct_s"]["mean"].get<double>(), wait["jct_s"]["mean"].get<double>());
  EXPECT_LT(cap["energy"]["it_kwh"].get<double>(), wait["energy"]["it_kwh"].get<double>());
}

}  // namespace
}  // namespace gcsim::testing
