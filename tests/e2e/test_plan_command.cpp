// `gcsim plan` on the bundled default workload under fifo, rack-32gpu as the
// node template: the plan's size meets the SLO in a direct `gcsim run`, and
// one node fewer does not.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

double wait_p95_on(const ScratchDir& dir, int nodes) {
  nlohmann::json cluster = nlohmann::json::parse(read_text(scenario("clusters/rack-32gpu.json")));
  cluster["node_groups"][0]["count"] = nodes;
  const std::string name = "direct-" + std::to_string(nodes);
  const auto file = dir.write(name + ".json", cluster.dump());
  const GcsimRun run = run_simulation(file, scenario("workloads/default.json"), dir / name);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return read_summary(dir / name)["queueing_delay_s"]["p95"].get<double>();
}

TEST(Plan, ThePlansSizeMeetsTheSloInADirectRunAndOneNodeFewerDoesNot) {
  ScratchDir dir;
  const GcsimRun run = run_gcsim({"plan", "--workload", scenario("workloads/default.json"), "--policy", "fifo",
                                  "--node-template", scenario("clusters/rack-32gpu.json"), "--slo", "wait_p95<=1800",
                                  "--seeds", "2", "--gpu-cost", "2.5", "--out", dir / "plan", "--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json plan = nlohmann::json::parse(read_text(dir / "plan/plan.json"));
  const int nodes = plan["answer"]["nodes"];
  EXPECT_EQ(plan["answer"]["gpus"], nodes * 8);
  EXPECT_DOUBLE_EQ(plan["answer"]["cost_per_hour"].get<double>(), nodes * 8 * 2.5);
  EXPECT_LE(wait_p95_on(dir, nodes), 1800);
  EXPECT_GT(wait_p95_on(dir, nodes - 1), 1800);
  // Every size tried is reported, with both seeds' values.
  bool answer_listed = false;
  for (const nlohmann::json& size : plan["sizes"]) {
    if (size["nodes"] == nodes) answer_listed = size["meets_every_slo"].get<bool>();
    if (size["feasible"].get<bool>()) EXPECT_EQ(size["metrics"]["wait_p95<=1800"]["values"].size(), 2u);
  }
  EXPECT_TRUE(answer_listed);
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "plan/plan.md"));
}

TEST(Plan, NoSizeMeetingTheSloIsItsOwnExitStatusAndABadSloIsNamed) {
  ScratchDir dir;
  const GcsimRun none = run_gcsim({"plan", "--workload", scenario("workloads/default.json"), "--policy", "fifo",
                                   "--node-template", scenario("clusters/rack-32gpu.json"), "--slo", "makespan<=60",
                                   "--max-nodes", "6", "--out", dir / "none", "--plots", "no", "--quiet"});
  EXPECT_EQ(none.exit_code, 14) << none.err;
  EXPECT_TRUE(nlohmann::json::parse(read_text(dir / "none/plan.json"))["answer"].is_null());

  const GcsimRun bad =
      run_gcsim({"plan", "--workload", scenario("workloads/default.json"), "--policy", "fifo", "--node-template",
                 scenario("clusters/rack-32gpu.json"), "--slo", "wait_p95<3600", "--out", dir / "bad"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--slo"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "bad"));
}

}  // namespace
}  // namespace gcsim::testing
