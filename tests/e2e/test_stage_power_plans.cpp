// Per-stage power plans of an llm_training job, end to end at both
// fidelities: unequal stages follow the 1F1B DAG, a stage under a lower
// limit stretches the whole pipeline by the DAG's time and each GPU draws
// its stage's watts; Perseus's rule picks the same states with enough slack
// and none without; a type without a power-state table is refused.
//
// The crafted job: 2 GPUs (t = d = 1, p = 2), measured layer times 1 s
// forward and 2 s backward at the GPU's 1 TFLOP/s, stage_layers [1, 3],
// m = 3 micro-batches, 4 iterations. Stage 0 keeps ahead of stage 1, so the
// pipeline computes 1 + 3 x 9 + 2 = 30 s an iteration. With stage 0 at
// 200 W (speed 0.8): 1.25 + 27 + 2.5 = 30.75 s. Each GPU idles (and
// communicates) at 50 W and computes at its state's watts: per iteration
// the computing draw over the idle one is 2 x 250 x 30 = 15000 J at full
// power, (150 + 250) x 30.75 = 12300 J planned, and the idle draw of both
// GPUs 100 W over 0.75 s more: 2625 J less an iteration, 10500 J in all.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

constexpr double kJoulesPerKwh = 3.6e6;

// One node of 2 GPUs of type "GPU" (1 TFLOP/s), 50 W idle, 300 W busy, states 300 W x 1, 200 W x 0.8, 100 W x 0.5.
nlohmann::json tabled_cluster() {
  CraftedCluster crafted;
  crafted.gpus_per_node = 2;
  nlohmann::json doc = nlohmann::json::parse(crafted.to_json());
  doc["gpu_types"][0]["power"] = {{"idle_watts", 50}, {"busy_watts", 300}};
  doc["gpu_types"][0]["power_states"] = {
      {{"watts", 300}, {"speed", 1.0}}, {{"watts", 200}, {"speed", 0.8}}, {{"watts", 100}, {"speed", 0.5}}};
  return doc;
}

nlohmann::json pipeline_job(const nlohmann::json& plan) {
  nlohmann::json llm = {
      {"model", {{"parameters", 1000}, {"layers", 4}, {"hidden_size", 1}, {"sequence_length", 1}, {"global_batch", 3}}},
      {"parallel", {{"pipeline", 2}}},
      {"compute",
       {{"rule", "layer_times"}, {"layer_forward_seconds", 1}, {"layer_backward_seconds", 2}, {"gpu_flops", 1e12}}},
      {"stage_layers", {1, 3}},
      {"iterations", 4}};
  for (const auto& [field, value] : plan.items()) llm[field] = value;
  return {{"id", "llm"}, {"submit", 0}, {"gpus", 2}, {"llm_training", llm}};
}

struct Outcome {
  double jct = 0, joules = 0;
  nlohmann::json energy;
};

Outcome run_plan(const ScratchDir& dir, const std::string& name, const nlohmann::json& plan,
                 const std::string& fidelity, const nlohmann::json& cluster = tabled_cluster()) {
  const std::string out = dir / name;
  const GcsimRun run = run_simulation(dir.write(name + "-cluster.json", cluster.dump()),
                                      dir.write(name + "-jobs.json", workload_json({pipeline_job(plan)})), out,
                                      {"--energy", "--fidelity", fidelity});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  if (run.exit_code != 0) return {};
  const nlohmann::json summary = read_summary(out);
  return {read_jobs_csv(out).at("llm").jct, summary["energy"]["jobs_kwh"].get<double>() * kJoulesPerKwh,
          summary["energy"]};
}

class StagePowerPlans : public ::testing::TestWithParam<std::string> {};

TEST_P(StagePowerPlans, ALowerLimitOnTheLightStageStretchesThePipelineByItsDagTime) {
  const ScratchDir dir;
  const Outcome full = run_plan(dir, "full", nlohmann::json::object(), GetParam());
  const Outcome planned = run_plan(dir, "planned", {{"stage_power_limits_watts", {250, 300}}}, GetParam());
  EXPECT_NEAR(planned.jct - full.jct, 4 * 0.75, 1e-6);
  EXPECT_NEAR(full.joules - planned.joules, 10500, 1e-3);
  EXPECT_FALSE(full.energy.contains("stage_power_states"));
  const nlohmann::json& shown = planned.energy["stage_power_states"][0];
  EXPECT_EQ(shown["job"], "llm");
  EXPECT_EQ(shown["stage_watts"], nlohmann::json({200, 300}));
  EXPECT_EQ(shown["stage_speeds"], nlohmann::json({0.8, 1.0}));
  EXPECT_DOUBLE_EQ(shown["stretch"].get<double>(), 30.75 / 30);
}

TEST_P(StagePowerPlans, PerseusLowersTheLightStageOnlyWithinItsSlack) {
  // Slack 0: every stage's first forward and last backward lie on the critical path, nothing drops.
  // Slack 0.05 (31.5 s): stage 0 at 0.8 takes 30.75 s, at 0.5 2 + 27 + 4 = 33 s; stage 1 at 0.8 36.75 s.
  const ScratchDir dir;
  const Outcome full = run_plan(dir, "full", nlohmann::json::object(), GetParam());
  const Outcome tight = run_plan(dir, "tight", {{"stage_power_plan", "perseus"}}, GetParam());
  EXPECT_NEAR(tight.jct, full.jct, 1e-9);
  EXPECT_NEAR(tight.joules, full.joules, 1e-6);
  EXPECT_EQ(tight.energy["stage_power_states"][0]["stage_watts"], nlohmann::json({300, 300}));
  const Outcome slack =
      run_plan(dir, "slack", {{"stage_power_plan", "perseus"}, {"stage_power_slack", 0.05}}, GetParam());
  EXPECT_EQ(slack.energy["stage_power_states"][0]["stage_watts"], nlohmann::json({200, 300}));
  EXPECT_NEAR(slack.jct - full.jct, 4 * 0.75, 1e-6);
  EXPECT_NEAR(full.joules - slack.joules, 10500, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(BothFidelities, StagePowerPlans, ::testing::Values("job", "iteration"));

TEST(StagePowerPlans, UnequalStagesRunTheDagsTime) {
  // No plan: 4 x 30 s of computation, where a balanced 1F1B at the heavy stage's pace would take
  // 4 x (3 + 1) x 9 = 144 s. The PP messages of 2 bytes each slot add microseconds.
  const ScratchDir dir;
  const double jct = run_plan(dir, "dag", nlohmann::json::object(), "iteration").jct;
  EXPECT_GT(jct, 120);
  EXPECT_LT(jct, 120.01);
}

TEST(StagePowerPlans, ATypeWithoutAPowerStateTableIsRefused) {
  const ScratchDir dir;
  CraftedCluster crafted;
  crafted.gpus_per_node = 2;
  nlohmann::json cluster = nlohmann::json::parse(crafted.to_json());
  cluster["gpu_types"][0]["power"] = {{"idle_watts", 50}, {"busy_watts", 300}};
  nlohmann::json job = pipeline_job({{"stage_power_plan", "perseus"}});
  expect_job_rejected(dir, dir.write("cluster.json", cluster.dump()), job,
                      {"llm_training.stage_power_plan", "no power-state table"});
}

}  // namespace
}  // namespace gcsim::testing
