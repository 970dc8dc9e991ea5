// A serving deployment whose replicas the autoscaler adds and removes, its
// requests counted by hand: on one node of 8 GPUs under fifo, each replica
// takes 1 GPU and serves 100 requests a second (one at a time, 10 ms each).
// The autoscaler aims at 80 requests a second per ready replica, so it asks
// for ceil(rate / 80) replicas once their metric is in.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json deployment(const nlohmann::json& rates, double length) {
  return {{"id", "svc"},
          {"submit", 0},
          {"gpus", 1},
          {"serving",
           {{"length", length},
            {"rates", rates},
            {"throughput", 100},
            {"latency", 0.01},
            {"slo", 1},
            {"replicas", 2},
            {"autoscaler",
             {{"metric", "requests_per_replica"},
              {"target", 80},
              {"min_replicas", 1},
              {"max_replicas", 6},
              {"sync_period", 15},
              {"scale_down_window", 60}}}}}};
}

struct ServingRow {
  double time;
  int desired, replicas, ready;
};

std::vector<ServingRow> read_serving_csv(const std::string& out_dir) {
  std::istringstream in(read_text(out_dir + "/serving.csv"));
  std::string line;
  std::getline(in, line);
  std::vector<ServingRow> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream fields_in(line);
    for (std::string field; std::getline(fields_in, field, ',');) fields.push_back(field);
    rows.push_back({std::stod(fields[0]), std::stoi(fields[2]), std::stoi(fields[3]), std::stoi(fields[4])});
  }
  return rows;
}

ServingRow row_at(const std::vector<ServingRow>& rows, double time) {
  for (const ServingRow& row : rows)
    if (row.time == time) return row;
  ADD_FAILURE() << "no serving.csv row at " << time;
  return {};
}

const nlohmann::json kStep = {{{"at", 0}, {"rate", 100}}, {{"at", 300}, {"rate", 400}}, {{"at", 900}, {"rate", 100}}};

// At 100 requests a second 2 replicas hold (ceil(100 / 80)). The rate steps
// to 400 at 300 s: the sync at 315 s sees 200 per replica and asks for
// ceil(2 x 200 / 80) = 5, placed at once. Back at 100 from 900 s, each sync
// from 915 s recommends ceil(5 x 20 / 80) = 2, but the 60 s window keeps the
// highest recommendation of (now - 60, now]: 5 until 960 s, 2 then.
TEST(Serving, TheAutoscalerFollowsAStepInLoadAndScalesDownAfterItsWindow) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload = dir.write("jobs.json", workload_json({deployment(kStep, 1200)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<ServingRow> rows = read_serving_csv(dir / "out");
  EXPECT_EQ(row_at(rows, 300).desired, 2);
  EXPECT_EQ(row_at(rows, 315).desired, 5);
  EXPECT_EQ(row_at(rows, 330).ready, 5);
  EXPECT_EQ(row_at(rows, 945).desired, 5);
  EXPECT_EQ(row_at(rows, 960).desired, 2);
  EXPECT_EQ(row_at(rows, 975).ready, 2);

  const nlohmann::json svc = read_summary(dir / "out")["serving"][0];
  EXPECT_EQ(svc["deployment"], "svc");
  EXPECT_DOUBLE_EQ(svc["requests"].get<double>(), 100 * 300 + 400 * 600 + 100 * 300);
  EXPECT_NEAR(svc["served"].get<double>(), 300000, 1e-6);
  EXPECT_EQ(svc["dropped"].get<double>(), 0);
  EXPECT_EQ(svc["scale_ups"], 1);
  EXPECT_EQ(svc["scale_downs"], 1);
  // Late (over 1 s): 2 replicas serve 200 of 400 a second from 300 to 315 s,
  // so a request arriving at t waits t - 300 s (14 s of arrivals wait over
  // 1 s, plus 0.01 s of those just under it whose 10 ms service tips them
  // over: the integral of e^(-100 (1 - w)) over w in [0, 1]). Five replicas
  // then drain the 3,000 waiting at 100 a second: waits fall from 6 s to 0
  // over 30 s, over 1 s for 25 s (+ 0.05 s likewise). 400 x 39.06 = 15,624.
  EXPECT_NEAR(svc["late"].get<double>(), 15624, 1);
  // Replicas 1-2 serve 0-1200 s, replicas 3-5 from 315 to 960 s.
  EXPECT_NEAR(svc["gpu_hours"].get<double>(), (2 * 1200 + 3 * 645) / 3600.0, 1e-9);
}

// The same step with a 6-GPU job holding the rest of the node until 600 s:
// the three replicas asked for at 315 s wait for its GPUs, and the backlog
// grows 200 a second until then. At 400 a second to the end, five replicas
// drain its 60,000 requests by 1200 s.
TEST(Serving, ABusyClusterDelaysTheScaleUpAndTheLatencyShowsIt) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const nlohmann::json rates = {{{"at", 0}, {"rate", 100}}, {{"at", 300}, {"rate", 400}}};
  const auto workload =
      dir.write("jobs.json", workload_json({measured_job("big", 0, 6, 600), deployment(rates, 1200)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  for (const char* replica : {"svc#3", "svc#4", "svc#5"}) {
    EXPECT_DOUBLE_EQ(jobs.at(replica).submit, 315) << replica;
    EXPECT_DOUBLE_EQ(jobs.at(replica).start, 600) << replica;
  }
  const std::vector<ServingRow> rows = read_serving_csv(dir / "out");
  EXPECT_EQ(row_at(rows, 450).desired, 5);
  EXPECT_EQ(row_at(rows, 450).ready, 2);
  const nlohmann::json svc = read_summary(dir / "out")["serving"][0];
  // Late: waits t - 300 s until 600 s (299.01 s of arrivals over 1 s), then
  // (60,000 - 100 u) / 500 s at u s past 600 (595.05 s): 400 x 894.06.
  EXPECT_NEAR(svc["late"].get<double>(), 357624, 2);
  EXPECT_NEAR(svc["gpu_hours"].get<double>(), (2 * 1200 + 3 * 600) / 3600.0, 1e-9);
  EXPECT_GT(svc["latency_s"]["p95"].get<double>(), 60);
}

TEST(Serving, BadDeploymentsAreNamed) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  auto rejected = [&](nlohmann::json job, const std::vector<std::string>& parts) {
    const auto workload = dir.write("jobs.json", workload_json({std::move(job)}));
    const GcsimRun run = run_simulation(cluster, workload, dir / "out");
    EXPECT_EQ(run.exit_code, 1);
    for (const std::string& part : parts) EXPECT_NE(run.err.find(part), std::string::npos) << part << ": " << run.err;
    EXPECT_TRUE(files_in(dir / "out").empty());
  };
  nlohmann::json bounds = deployment(kStep, 1200);
  bounds["serving"]["autoscaler"]["min_replicas"] = 8;
  rejected(bounds, {"jobs[0] (id 'svc')", "min_replicas", "exceeds max_replicas (6)"});
  nlohmann::json negative = deployment({{{"at", 0}, {"rate", -5}}}, 1200);
  rejected(negative, {"svc", "rates[0]", "rate", "negative"});
  nlohmann::json order = deployment({{{"at", 100}, {"rate", 5}}, {{"at", 50}, {"rate", 5}}}, 1200);
  rejected(order, {"svc", "rates[1]", "at", "increasing"});
  nlohmann::json rollout = deployment(kStep, 1200);
  rollout["serving"]["rollouts"] = {{{"at", 100}, {"max_surge", 0}, {"max_unavailable", 0}}};
  rejected(rollout, {"svc", "rollouts[0]", "max_surge"});
}

TEST(Serving, RatesComeFromACsvFileNextToTheWorkload) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  dir.write("rates.csv", "time,rate\n0,100\n300,400\n900,100\n");
  nlohmann::json job = deployment(kStep, 1200);
  job["serving"].erase("rates");
  job["serving"]["rates_csv"] = "rates.csv";
  const auto workload = dir.write("jobs.json", workload_json({job}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NEAR(read_summary(dir / "out")["serving"][0]["late"].get<double>(), 15624, 1);

  dir.write("rates.csv", "time,rate\n0,100\n300,fast\n");
  const GcsimRun bad = run_simulation(cluster, workload, dir / "bad");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("rates.csv: line 3: field 'rate'"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace gcsim::testing
