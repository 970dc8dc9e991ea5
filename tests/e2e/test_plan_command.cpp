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
    if (size["feasible"].get<bool>()) {
      EXPECT_EQ(size["metrics"]["wait_p95<=1800"]["values"].size(), 2u);
    }
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

// Two node types: rack-32gpu's 8-GPU node at 20 an hour, and a node of 4 of
// the same GPUs at 8 (cheaper per GPU). The cheapest mix meeting the SLO
// costs less than the 5 eight-GPU nodes the single type needs (100), meets
// it in a direct run, and no cheaper mix tried meets it.
TEST(Plan, SeveralNodeTypesGiveTheCheapestMixThatMeetsTheSlo) {
  ScratchDir dir;
  nlohmann::json half = nlohmann::json::parse(read_text(scenario("clusters/rack-32gpu.json")));
  half["node_groups"][0]["name"] = "half";
  half["node_groups"][0]["gpus_per_node"] = 4;
  half["node_groups"][0]["cpu_cores"] = 20;
  const auto half_file = dir.write("half.json", half.dump());
  const GcsimRun run =
      run_gcsim({"plan", "--workload", scenario("workloads/default.json"), "--policy", "fifo", "--node-template",
                 scenario("clusters/rack-32gpu.json") + "@20", "--node-template", half_file + "@8", "--slo",
                 "wait_p95<=1800", "--max-nodes", "12", "--out", dir / "plan", "--plots", "no", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json plan = nlohmann::json::parse(read_text(dir / "plan/plan.json"));
  const double cost = plan["answer"]["cost_per_hour"];
  EXPECT_LT(cost, 100);
  const int full = plan["answer"]["mix"][0]["nodes"], halves = plan["answer"]["mix"][1]["nodes"];
  EXPECT_DOUBLE_EQ(cost, full * 20.0 + halves * 8.0);
  for (const nlohmann::json& size : plan["sizes"]) {
    if (size["cost_per_hour"].get<double>() < cost) {
      EXPECT_FALSE(size["meets_every_slo"].get<bool>()) << size.dump();
    }
    // The answer's lower neighbour in the last type was tried, and fails.
    if (size["mix"][0]["nodes"] == full && size["mix"][1]["nodes"] == halves - 1) {
      EXPECT_FALSE(size["meets_every_slo"].get<bool>());
    }
  }
  const std::string mix = std::to_string(full) + "-" + std::to_string(halves);
  const GcsimRun direct =
      run_simulation(dir / ("plan/sizes/" + mix + "/cluster.json"), scenario("workloads/default.json"), dir / "direct");
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  EXPECT_LE(read_summary(dir / "direct")["queueing_delay_s"]["p95"].get<double>(), 1800);
}

}  // namespace
}  // namespace gcsim::testing
