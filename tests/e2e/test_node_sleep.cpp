// Nodes that sleep (a node group's sleep_after, sleep_watts, wake_up): a
// node no run has held for sleep_after seconds draws sleep_watts in all, and
// a run that starts on it waits wake_up first; counted by hand on two nodes
// of one GPU (idle 50 W, busy 250 W, base 100 W; asleep after 100 s at 20 W,
// waking in 30 s), jobs placed by pack (node 0 first).
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

constexpr double kJoulesPerKwh = 3.6e6;

std::string sleepy_cluster(const ScratchDir& dir) {
  CraftedCluster crafted;
  crafted.nodes = 2;
  crafted.gpus_per_node = 1;
  nlohmann::json doc = nlohmann::json::parse(crafted.to_json());
  doc["gpu_types"][0]["power"] = {{"idle_watts", 50}, {"busy_watts", 250}};
  doc["node_groups"][0]["base_watts"] = 100;
  doc["node_groups"][0]["sleep_after"] = 100;
  doc["node_groups"][0]["sleep_watts"] = 20;
  doc["node_groups"][0]["wake_up"] = 30;
  return dir.write("sleepy.json", doc.dump());
}

TEST(NodeSleep, ANodeIdlePastSleepAfterDrawsItsSleepWatts) {
  // a holds node 0 for 1000 s; node 1 idles at 150 W until 100, then sleeps at 20 W.
  const ScratchDir dir;
  const GcsimRun run =
      run_simulation(sleepy_cluster(dir), dir.write("w.json", workload_json({measured_job("a", 0, 1, 1000)})),
                     dir / "out", {"--energy"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json energy = read_summary(dir / "out")["energy"];
  EXPECT_NEAR(energy["jobs_kwh"].get<double>(), 250.0 * 1000 / kJoulesPerKwh, 1e-12);
  EXPECT_NEAR(energy["idle_gpu_kwh"].get<double>(), 50.0 * 100 / kJoulesPerKwh, 1e-12);
  EXPECT_NEAR(energy["base_kwh"].get<double>(), (100.0 * 1000 + 100.0 * 100) / kJoulesPerKwh, 1e-12);
  EXPECT_NEAR(energy["sleep_kwh"].get<double>(), 20.0 * 900 / kJoulesPerKwh, 1e-12);
  EXPECT_NEAR(energy["it_kwh"].get<double>(), 383000 / kJoulesPerKwh, 1e-12);
  const std::string power = read_text(dir / "out/power.csv");
  EXPECT_EQ(power.rfind("time,watts\n0,500\n100,370\n", 0), 0u) << power;
}

TEST(NodeSleep, AJobOnASleepingNodeStartsItsWorkAfterTheWakeUp) {
  // b (t = 50) finds node 1 awake and ends at 150; c (t = 500) finds it
  // asleep since 250: it waits 30 s, then runs its 100 s.
  const ScratchDir dir;
  const GcsimRun run =
      run_simulation(sleepy_cluster(dir),
                     dir.write("w.json", workload_json({measured_job("a", 0, 1, 1000), measured_job("b", 50, 1, 100),
                                                        measured_job("c", 500, 1, 100)})),
                     dir / "out", {"--energy"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  EXPECT_DOUBLE_EQ(jobs.at("b").end, 150);
  EXPECT_DOUBLE_EQ(jobs.at("c").start, 500);
  EXPECT_DOUBLE_EQ(jobs.at("c").end, 630);
  // Node 1 slept from 250 to 500, and from 730 until a ends at 1000; c held
  // its GPU 130 s, 100 of them busy.
  const nlohmann::json energy = read_summary(dir / "out")["energy"];
  EXPECT_NEAR(energy["sleep_kwh"].get<double>(), 20.0 * (250 + 270) / kJoulesPerKwh, 1e-12);
  const double jobs_joules = 250.0 * 1000 + 250.0 * 100 + (50.0 * 30 + 250.0 * 100);
  EXPECT_NEAR(energy["jobs_kwh"].get<double>(), jobs_joules / kJoulesPerKwh, 1e-12);
}

TEST(NodeSleep, SleepFieldsWithoutSleepAfterAreRefused) {
  const ScratchDir dir;
  CraftedCluster crafted;
  nlohmann::json doc = nlohmann::json::parse(crafted.to_json());
  doc["node_groups"][0]["wake_up"] = 30;
  const GcsimRun run = run_simulation(dir.write("c.json", doc.dump()),
                                      dir.write("w.json", workload_json({measured_job("a", 0, 1, 10)})), dir / "out");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("field 'wake_up'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("no sleep_after"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace gcsim::testing
