// Power states and caps: a capped GPU computes at its state's speed and draws
// its state's watts while computing (sim/core/gpu_power_states.hpp), each
// figure counted by hand on crafted clusters; a job's own power limit; the
// least of the cluster's caps; only computation stretching; the energy of a
// fixed amount of work lowest at an intermediate limit of a Zeus-shaped
// table; nothing changed without a cap; bad caps and tables refused.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

constexpr double kJoulesPerKwh = 3.6e6;

// One node of `gpus` GPUs of type "GPU" (1 TFLOP/s) idling at 50 W and
// computing at 300 W, with the states 300 W at full speed, 200 W at 0.8 and
// 100 W at 0.5.
nlohmann::json capped_cluster(int gpus = 1) {
  CraftedCluster crafted;
  crafted.gpus_per_node = gpus;
  nlohmann::json doc = nlohmann::json::parse(crafted.to_json());
  doc["gpu_types"][0]["power"] = {{"idle_watts", 50}, {"busy_watts", 300}};
  doc["gpu_types"][0]["power_states"] = {
      {{"watts", 300}, {"speed", 1.0}}, {{"watts", 200}, {"speed", 0.8}}, {{"watts", 100}, {"speed", 0.5}}};
  return doc;
}

// The field `column` of job `id`'s row of jobs.csv (no field holds a comma).
std::string jobs_csv_field(const std::string& out_dir, const std::string& id, const std::string& column) {
  std::istringstream in(read_text(out_dir + "/jobs.csv"));
  std::string header, line;
  std::getline(in, header);
  std::vector<std::string> names;
  std::istringstream header_in(header);
  for (std::string name; std::getline(header_in, name, ',');) names.push_back(name);
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::istringstream line_in(line);
    for (std::string field; std::getline(line_in, field, ',');) fields.push_back(field);
    if (fields.empty() || fields[0] != id) continue;
    for (std::size_t i = 0; i < names.size() && i < fields.size(); ++i)
      if (names[i] == column) return fields[i];
  }
  ADD_FAILURE() << "no column " << column << " for job " << id << " in " << out_dir << "/jobs.csv";
  return "";
}

struct Outcome {
  double jct = 0, job_kwh = 0, it_kwh = 0;
};

Outcome run_one(const ScratchDir& dir, const std::string& name, const nlohmann::json& cluster,
                const nlohmann::json& job) {
  const std::string out = dir / name;
  const GcsimRun run = run_simulation(dir.write(name + "-cluster.json", cluster.dump()),
                                      dir.write(name + "-jobs.json", workload_json({job})), out, {"--energy"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  if (run.exit_code != 0) return {};
  const std::string id = job["id"].get<std::string>();
  return {read_jobs_csv(out).at(id).jct, std::stod(jobs_csv_field(out, id, "energy_kwh")),
          read_summary(out)["energy"]["it_kwh"].get<double>()};
}

TEST(PowerCaps, AJobOnACappedGpuTakesItsComputeOverTheStateSpeedAndDrawsTheStateWatts) {
  const ScratchDir dir;
  nlohmann::json cluster = capped_cluster();
  cluster["gpu_types"][0]["power_cap_watts"] = 250;  // the highest state within: 200 W at 0.8
  const Outcome capped = run_one(dir, "capped", cluster, measured_job("a", 0, 1, 800));
  EXPECT_NEAR(capped.jct, 800 / 0.8, 1e-9);
  EXPECT_NEAR(capped.job_kwh, 200 * 1000 / kJoulesPerKwh, 1e-12);
  EXPECT_NEAR(capped.it_kwh, 200 * 1000 / kJoulesPerKwh, 1e-12);  // the one GPU, no base
  const std::string power = read_text(dir / "capped/power.csv");
  EXPECT_NE(power.find("\n0,200\n1000,50\n"), std::string::npos) << power;
}

TEST(PowerCaps, AJobsOwnPowerLimitCapsTheGpusItRunsOn) {
  const ScratchDir dir;
  nlohmann::json job = measured_job("a", 0, 1, 800);
  job["power_limit_watts"] = 150;  // 100 W at 0.5
  const Outcome limited = run_one(dir, "limited", capped_cluster(), job);
  EXPECT_NEAR(limited.jct, 1600, 1e-9);
  EXPECT_NEAR(limited.job_kwh, 100 * 1600 / kJoulesPerKwh, 1e-12);
  // The next job, without a limit, runs at full speed on the same GPU.
  const Outcome free = run_one(dir, "free", capped_cluster(), measured_job("b", 0, 1, 800));
  EXPECT_NEAR(free.jct, 800, 1e-9);
  EXPECT_NEAR(free.job_kwh, 300 * 800 / kJoulesPerKwh, 1e-12);
}

TEST(PowerCaps, TheLeastOfTheClustersTheTypesAndTheGroupsCapHolds) {
  const ScratchDir dir;
  nlohmann::json cluster = capped_cluster();
  cluster["power_cap_watts"] = 250;
  cluster["gpu_types"][0]["power_cap_watts"] = 1000;
  cluster["node_groups"][0]["power_cap_watts"] = 120;  // 100 W at 0.5
  const Outcome capped = run_one(dir, "least", cluster, measured_job("a", 0, 1, 800));
  EXPECT_NEAR(capped.jct, 1600, 1e-9);
  // A cap below the lowest state runs the GPU in the lowest state.
  cluster["node_groups"][0]["power_cap_watts"] = 50;
  EXPECT_NEAR(run_one(dir, "below", cluster, measured_job("a", 0, 1, 800)).jct, 1600, 1e-9);
  // A cap at or above the highest state leaves the GPU at full speed.
  nlohmann::json high = capped_cluster();
  high["power_cap_watts"] = 300;
  EXPECT_NEAR(run_one(dir, "high", high, measured_job("a", 0, 1, 800)).jct, 800, 1e-9);
}

TEST(PowerCaps, OnlyTheComputeOfATrainingJobStretchesNotItsCommunication) {
  // Two GPUs in one node, 10 iterations of 5e11 FLOPs and a 400 MB ring
  // allreduce: per iteration F / (flops x speed) + 2(n-1)(alpha + S/(n B)).
  const CraftedCluster crafted;
  const double compute = 5e11 / crafted.gpu_flops, speed = 0.8, iterations = 10;
  const double exchange = 2.0 * (2 - 1) * (crafted.intra_latency + 400e6 / (2 * crafted.intra_bandwidth));
  const ScratchDir dir;
  nlohmann::json cluster = capped_cluster(2);
  cluster["gpu_types"][0]["power_cap_watts"] = 200;
  const Outcome capped = run_one(dir, "train", cluster, training_job("t", 0, 2, 5e11, 400e6, 10));
  const double expected = iterations * (compute / speed + exchange);
  EXPECT_NEAR(capped.jct, expected, expected * 1e-6);
  // Each GPU draws 200 W computing and its idle 50 W while exchanging.
  const double joules = 2 * iterations * (200 * compute / speed + 50 * exchange);
  EXPECT_NEAR(capped.job_kwh, joules / kJoulesPerKwh, joules / kJoulesPerKwh * 1e-6);
}

TEST(PowerCaps, TheEnergyOfAFixedWorkIsLowestAtAnIntermediateLimitOfAZeusShapedTable) {
  // The bundled V100 table: 300 W at 1, 250 at 0.95, 200 at 0.85, 150 at
  // 0.66, 100 at 0.4. A job of T seconds at full speed draws P x T / s: per
  // second of work 300, 263.2, 235.3, 227.3 and 250 W, least at 150 W.
  CraftedCluster crafted;
  crafted.gpus_per_node = 1;
  nlohmann::json cluster = nlohmann::json::parse(crafted.to_json());
  cluster["gpu_types"][0]["name"] = "V100";
  cluster["node_groups"][0]["gpu_type"] = "V100";
  const std::vector<std::pair<double, double>> states = {{300, 1.0}, {250, 0.95}, {200, 0.85}, {150, 0.66}, {100, 0.4}};
  const ScratchDir dir;
  std::vector<double> kwh;
  for (const auto& [watts, speed] : states) {
    nlohmann::json job = {
        {"id", "z"}, {"submit", 0}, {"gpus", 1}, {"duration", {{"seconds", 3600}, {"gpu_type", "V100"}}}};
    job["power_limit_watts"] = watts;
    const Outcome run = run_one(dir, "limit-" + std::to_string(static_cast<int>(watts)), cluster, job);
    EXPECT_NEAR(run.jct, 3600 / speed, 1e-6) << watts << " W";
    EXPECT_NEAR(run.job_kwh, watts * 3600 / speed / kJoulesPerKwh, 1e-9) << watts << " W";
    kwh.push_back(run.job_kwh);
  }
  ASSERT_EQ(kwh.size(), states.size());
  const std::size_t least = static_cast<std::size_t>(std::min_element(kwh.begin(), kwh.end()) - kwh.begin());
  EXPECT_EQ(states[least].first, 150);  // neither the highest limit nor the lowest
}

TEST(PowerCaps, ATableWithoutAnyCapChangesNoOutput) {
  const ScratchDir dir;
  nlohmann::json plain = capped_cluster(2);
  plain["gpu_types"][0].erase("power_states");
  const std::string workload =
      dir.write("w.json", workload_json({measured_job("a", 0, 2, 100), training_job("t", 5, 2, 5e11, 400e6, 10),
                                         measured_job("b", 7, 1, 50)}));
  for (const std::vector<std::string>& flags : {std::vector<std::string>{}, std::vector<std::string>{"--energy"}}) {
    const std::string suffix = flags.empty() ? "" : "-energy";
    ASSERT_EQ(
        run_simulation(dir.write("plain.json", plain.dump()), workload, dir / ("plain" + suffix), flags).exit_code, 0);
    ASSERT_EQ(
        run_simulation(dir.write("table.json", capped_cluster(2).dump()), workload, dir / ("table" + suffix), flags)
            .exit_code,
        0);
    for (const char* file : {"jobs.csv", "timeline.csv"})
      EXPECT_EQ(read_text(dir / ("plain" + suffix) + "/" + file), read_text(dir / ("table" + suffix) + "/" + file))
          << file;
  }
  EXPECT_EQ(read_text(dir / "plain-energy/power.csv"), read_text(dir / "table-energy/power.csv"));
}

TEST(PowerCaps, ACapOnAGpuTypeWithoutATableIsRefusedNamingTheField) {
  const ScratchDir dir;
  nlohmann::json cluster = capped_cluster();
  cluster["gpu_types"][0].erase("power_states");  // "GPU" has no bundled table
  cluster["power_cap_watts"] = 200;
  const GcsimRun run = run_simulation(dir.write("c.json", cluster.dump()),
                                      dir.write("w.json", workload_json({measured_job("a", 0, 1, 10)})), dir / "out");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("field 'power_cap_watts'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("power_states"), std::string::npos) << run.err;
}

TEST(PowerCaps, StatesOutOfOrderAndBadLimitsAreRefusedNamingTheField) {
  const ScratchDir dir;
  const std::string workload = dir.write("w.json", workload_json({measured_job("a", 0, 1, 10)}));
  nlohmann::json rising = capped_cluster();
  rising["gpu_types"][0]["power_states"][1]["watts"] = 400;
  GcsimRun run = run_simulation(dir.write("rising.json", rising.dump()), workload, dir / "o1");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("power_states[1]"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("field 'watts'"), std::string::npos) << run.err;
  nlohmann::json fast = capped_cluster();
  fast["gpu_types"][0]["power_states"][2]["speed"] = 1.5;
  run = run_simulation(dir.write("fast.json", fast.dump()), workload, dir / "o2");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("field 'speed'"), std::string::npos) << run.err;
  nlohmann::json job = measured_job("a", 0, 1, 10);
  job["power_limit_watts"] = -5;
  run = run_simulation(dir.write("c.json", capped_cluster().dump()), dir.write("neg.json", workload_json({job})),
                       dir / "o3");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("field 'power_limit_watts'"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace gcsim::testing
