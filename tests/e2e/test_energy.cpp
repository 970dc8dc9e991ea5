// `gcsim run --energy` and `gcsim compare --energy`: a crafted cluster's
// energy counted by hand, the bundled rack's agreeing with its own timeline,
// the other files left as they were, and a GPU type without power refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::istringstream in(read_text(path));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Each row of a two-column numeric CSV (power.csv, or two columns of timeline.csv).
std::vector<std::pair<double, double>> steps(const std::string& path, std::size_t first_column,
                                             std::size_t second_column) {
  std::vector<std::pair<double, double>> rows;
  const std::vector<std::string> lines = lines_of(path);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> fields;
    std::istringstream in(lines[i]);
    for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
    rows.emplace_back(std::stod(fields[first_column]), std::stod(fields[second_column]));
  }
  return rows;
}

// The integral of a step function over [0, end].
double integral(const std::vector<std::pair<double, double>>& rows, double end) {
  double sum = 0;
  for (std::size_t i = 0; i < rows.size(); ++i)
    sum += rows[i].second * ((i + 1 < rows.size() ? rows[i + 1].first : end) - rows[i].first);
  return sum;
}

// One node of two GPUs idling at 50 W and computing at 250 W, the node's
// base 100 W, PUE 1.5.
std::string powered_cluster(const ScratchDir& dir) {
  CraftedCluster crafted;
  crafted.gpus_per_node = 2;
  nlohmann::json doc = nlohmann::json::parse(crafted.to_json());
  doc["gpu_types"][0]["power"] = {{"idle_watts", 50}, {"busy_watts", 250}};
  doc["node_groups"][0]["base_watts"] = 100;
  doc["pue"] = 1.5;
  return dir.write("powered.json", doc.dump());
}

TEST(Energy, AJobOnBothGpusOfACraftedNodeDrawsWhatIsCountedByHand) {
  const ScratchDir dir;
  // a: both GPUs for an hour; b: one GPU for the next half hour, the other idle.
  const std::string workload =
      dir.write("w.json", workload_json({measured_job("a", 0, 2, 3600), measured_job("b", 3600, 1, 1800)}));
  const GcsimRun run = run_simulation(powered_cluster(dir), workload, dir / "out", {"--energy"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json energy = read_summary(dir / "out")["energy"];
  const double a = 2 * 250 * 3600 / 3.6e6, b = 250 * 1800 / 3.6e6;  // 0.5 and 0.125 kWh
  const double idle = 50 * 1800 / 3.6e6, base = 100 * 5400 / 3.6e6;
  EXPECT_NEAR(energy["jobs_kwh"].get<double>(), a + b, 1e-9);
  EXPECT_NEAR(energy["idle_gpu_kwh"].get<double>(), idle, 1e-9);
  EXPECT_NEAR(energy["base_kwh"].get<double>(), base, 1e-9);
  EXPECT_NEAR(energy["it_kwh"].get<double>(), a + b + idle + base, 1e-9);
  EXPECT_NEAR(energy["facility_kwh"].get<double>(), 1.5 * (a + b + idle + base), 1e-9);
  EXPECT_NEAR(energy["peak_kw"].get<double>(), 0.6, 1e-12);
  EXPECT_NEAR(energy["lost_work_kwh"].get<double>(), 0, 1e-12);
  EXPECT_NEAR(energy["per_user_kwh"]["default"].get<double>(), a + b, 1e-9);
  const std::vector<std::string> jobs = lines_of(dir / "out/jobs.csv");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_NE(jobs[0].find(",energy_kwh,energy_kwh_per_gpu_hour"), std::string::npos) << jobs[0];
  EXPECT_EQ(jobs[1].substr(jobs[1].size() - 9), ",0.5,0.25");  // 0.5 kWh over 2 GPU-hours
  const std::vector<std::pair<double, double>> power = steps(dir / "out/power.csv", 0, 1);
  const std::vector<std::pair<double, double>> expected{{0, 600}, {3600, 400}, {5400, 200}};
  EXPECT_EQ(power, expected);
}

TEST(Energy, TheBundledRackDrawsItsIdlePowerPlusTheBusyGpusOfItsTimeline) {
  const ScratchDir dir;
  const GcsimRun run = run_simulation(scenario("clusters/rack-32gpu.json"), scenario("workloads/default.json"),
                                      dir / "out", {"--energy"}, "srtf");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json summary = read_summary(dir / "out");
  const double end = summary["simulated_time_s"].get<double>();
  const nlohmann::json energy = summary["energy"];
  // 32 V100 (defaults: idle 50 W, busy 300 W, communicating at idle), no base.
  const double busy_gpu_seconds = integral(steps(dir / "out/timeline.csv", 0, 2), end);
  const double it_kwh = (32 * 50 * end + 250 * busy_gpu_seconds) / 3.6e6;
  EXPECT_NEAR(energy["it_kwh"].get<double>(), it_kwh, 1e-6 * it_kwh);
  EXPECT_NEAR(integral(steps(dir / "out/power.csv", 0, 1), end) / 3.6e6, it_kwh, 1e-6 * it_kwh);
  EXPECT_LE(energy["peak_kw"].get<double>(), 32 * 0.3 + 1e-9);
  EXPECT_GT(energy["lost_work_kwh"].get<double>(), 0);  // srtf preempts jobs without checkpoints
  double jobs_kwh = 0;
  const std::vector<std::string> jobs = lines_of(dir / "out/jobs.csv");
  for (std::size_t i = 1; i < jobs.size(); ++i) {
    const std::string before_last = jobs[i].substr(0, jobs[i].rfind(','));
    jobs_kwh += std::stod(before_last.substr(before_last.rfind(',') + 1));
  }
  EXPECT_NEAR(jobs_kwh, energy["jobs_kwh"].get<double>(), 1e-9 * jobs_kwh);
}

TEST(Energy, WithoutTheFlagNothingChangesAndWithItOnlyAdditionsAppear) {
  const ScratchDir dir;
  for (const char* policy : {"fifo", "srtf"}) {
    const std::string plain = dir / (std::string(policy) + "-plain"), with = dir / (std::string(policy) + "-energy");
    ASSERT_EQ(run_simulation(scenario("clusters/rack-32gpu.json"), scenario("workloads/default.json"), plain,
                             {"--no-wall-time"}, policy)
                  .exit_code,
              0);
    ASSERT_EQ(run_simulation(scenario("clusters/rack-32gpu.json"), scenario("workloads/default.json"), with,
                             {"--no-wall-time", "--energy"}, policy)
                  .exit_code,
              0);
    std::vector<std::string> plain_files = files_in(plain), energy_files = files_in(with);
    std::sort(plain_files.begin(), plain_files.end());
    std::sort(energy_files.begin(), energy_files.end());
    EXPECT_EQ(plain_files, (std::vector<std::string>{"jobs.csv", "summary.json", "timeline.csv"}));
    EXPECT_EQ(energy_files, (std::vector<std::string>{"jobs.csv", "power.csv", "summary.json", "timeline.csv"}));
    EXPECT_EQ(read_text(plain + "/timeline.csv"), read_text(with + "/timeline.csv"));
    nlohmann::json summary = read_summary(with);
    EXPECT_FALSE(read_summary(plain).contains("energy"));
    summary.erase("energy");
    EXPECT_EQ(summary, read_summary(plain));
    const std::vector<std::string> before = lines_of(plain + "/jobs.csv"), after = lines_of(with + "/jobs.csv");
    ASSERT_EQ(before.size(), after.size());
    for (std::size_t i = 0; i < before.size(); ++i) {
      const std::string row = after[i].substr(0, after[i].rfind(','));
      EXPECT_EQ(row.substr(0, row.rfind(',')), before[i]);
    }
  }
}

TEST(Energy, CompareAddsKwhAndPeakColumnsOnlyWithTheFlag) {
  const ScratchDir dir;
  for (const bool energy : {false, true}) {
    std::vector<std::string> args{"compare",
                                  "--policies",
                                  "fifo,srtf",
                                  "--cluster",
                                  scenario("clusters/rack-32gpu.json"),
                                  "--workload",
                                  scenario("workloads/default.json"),
                                  "--out",
                                  dir / (energy ? "with" : "without"),
                                  "--plots",
                                  "no",
                                  "--quiet",
                                  "--no-wall-time"};
    if (energy) args.push_back("--energy");
    const GcsimRun run = run_gcsim(args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const std::vector<std::string> without = lines_of(dir / "without/comparison.csv");
  const std::vector<std::string> with = lines_of(dir / "with/comparison.csv");
  ASSERT_EQ(without.size(), 3u);
  ASSERT_EQ(with.size(), 3u);
  EXPECT_EQ(without[0].find("energy"), std::string::npos);
  EXPECT_EQ(with[0], without[0] + ",energy_kwh,facility_kwh,peak_kw");
  for (std::size_t i = 1; i < 3; ++i) EXPECT_EQ(with[i].substr(0, without[i].size()), without[i]);
  // fifo's row carries its run's IT energy as the run wrote it.
  const std::string fifo_it = read_summary(dir / "with/runs/fifo")["energy"]["it_kwh"].dump();
  EXPECT_EQ(with[1].substr(without[1].size() + 1, fifo_it.size()), fifo_it);
  EXPECT_NE(read_text(dir / "with/comparison.md").find("| energy (kWh) | peak (kW) |"), std::string::npos);
  EXPECT_EQ(read_text(dir / "without/comparison.md").find("energy (kWh)"), std::string::npos);
}

TEST(Energy, AGpuTypeWithoutPowerOrDefaultIsRefusedNamingTheFileAndField) {
  const ScratchDir dir;
  const std::string cluster = dir.write("c.json", CraftedCluster{}.to_json());
  const std::string workload = dir.write("w.json", workload_json({measured_job("a", 0, 1, 10)}));
  const GcsimRun refused = run_simulation(cluster, workload, dir / "out", {"--energy"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find(cluster), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("'power'"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("'GPU'"), std::string::npos) << refused.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
  EXPECT_EQ(run_simulation(cluster, workload, dir / "plain").exit_code, 0);  // it needs power only for --energy
}

}  // namespace
}  // namespace gcsim::testing
