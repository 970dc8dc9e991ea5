// A serving deployment whose replicas the autoscaler adds and removes, or a
// rollout replaces, its requests and replicas counted by hand: on one node of
// 8 GPUs under fifo, each replica takes 1 GPU and serves 100 requests a second
// (one at a time, 10 ms each). The autoscaler aims at 80 requests a second
// per ready replica, so it asks for ceil(rate / 80) replicas once their
// metric is in.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

// jobs.csv's rows of a deployment's replicas. The load steps up at 300 s
// (5 replicas asked for at 315 s), down at 600 s (2 again at 660 s, once the
// 60 s window holds no 5), and up at 900 s (5 at 915 s): svc#3 to svc#5 run
// 315-660 s and 915-1500 s, svc#6 is never asked for.
TEST(Serving, EachReplicaRowSaysWhenItWasAskedForAndHowLongItRan) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const nlohmann::json rates = {{{"at", 0}, {"rate", 100}},
                                {{"at", 300}, {"rate", 400}},
                                {{"at", 600}, {"rate", 100}},
                                {{"at", 900}, {"rate", 400}}};
  const auto workload = dir.write("jobs.json", workload_json({deployment(rates, 1500)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  for (const char* first : {"svc", "svc#2"}) {
    SCOPED_TRACE(first);
    const JobRow& row = jobs.at(first);
    EXPECT_EQ(row.state, "finished");
    EXPECT_DOUBLE_EQ(row.submit, 0);
    EXPECT_DOUBLE_EQ(row.start, 0);
    EXPECT_DOUBLE_EQ(row.end, 1500);
    EXPECT_DOUBLE_EQ(row.jct, 1500);
    EXPECT_DOUBLE_EQ(row.uncontended, 1500);
  }
  // Asked for at 315 s, let go at 660 s, asked for again at 915 s: one row
  // from the first ask to the last stop, uncontended its 345 + 585 s of runs.
  for (const char* added : {"svc#3", "svc#4", "svc#5"}) {
    SCOPED_TRACE(added);
    const JobRow& row = jobs.at(added);
    EXPECT_EQ(row.state, "finished");
    EXPECT_DOUBLE_EQ(row.submit, 315);
    EXPECT_DOUBLE_EQ(row.start, 315);
    EXPECT_DOUBLE_EQ(row.wait, 0);
    EXPECT_DOUBLE_EQ(row.end, 1500);
    EXPECT_DOUBLE_EQ(row.jct, 1500 - 315);
    EXPECT_DOUBLE_EQ(row.uncontended, (660 - 315) + (1500 - 915));
  }
  // Never asked for: never submitted, as a job whose dependency never ended.
  const JobRow& unused = jobs.at("svc#6");
  EXPECT_EQ(unused.state, "pending");
  EXPECT_EQ(unused.submit, -1);  // empty
  EXPECT_EQ(unused.start, -1);
  EXPECT_EQ(unused.end, -1);
  EXPECT_EQ(unused.wait, -1);
  EXPECT_EQ(unused.jct, -1);
  EXPECT_DOUBLE_EQ(unused.uncontended, 0);
  // The replicas' run times add up to the GPU time the deployment held.
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_NEAR(summary["serving"][0]["gpu_hours"].get<double>(), (2 * 1500 + 3 * 930) / 3600.0, 1e-9);
  EXPECT_EQ(summary["jobs"]["total"], 6);
  EXPECT_EQ(summary["jobs"]["finished"], 5);
  EXPECT_EQ(summary["jobs"]["unfinished"], 1);

  // Cut at 1000 s: svc#3 to svc#5 are running again, their runs so far counted.
  const GcsimRun cut = run_simulation(cluster, workload, dir / "cut", {"--until", "1000"});
  ASSERT_EQ(cut.exit_code, 0) << cut.err;
  const auto cut_jobs = read_jobs_csv(dir / "cut");
  const JobRow& again = cut_jobs.at("svc#3");
  EXPECT_EQ(again.state, "running");
  EXPECT_DOUBLE_EQ(again.submit, 315);
  EXPECT_DOUBLE_EQ(again.start, 315);
  EXPECT_EQ(again.end, -1);
  EXPECT_EQ(again.jct, -1);
  EXPECT_DOUBLE_EQ(again.uncontended, (660 - 315) + (1000 - 915));
  EXPECT_EQ(cut_jobs.at("svc").state, "running");
  EXPECT_DOUBLE_EQ(cut_jobs.at("svc").uncontended, 1000);
  EXPECT_EQ(cut_jobs.at("svc#6").state, "pending");
}

// A 6-GPU job holds the node's other GPUs until 1100 s. The replicas asked
// for at 315 s wait for them; the load falls at 600 s and the autoscaler
// lets them go at 660 s, before any started: they are `waiting`, from their
// ask to when they were let go, with no start, wait or JCT.
TEST(Serving, ReplicasLetGoBeforeTheyGotGpusAreWaitingRows) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const nlohmann::json rates = {{{"at", 0}, {"rate", 100}}, {{"at", 300}, {"rate", 400}}, {{"at", 600}, {"rate", 100}}};
  const auto workload =
      dir.write("jobs.json", workload_json({measured_job("big", 0, 6, 1100), deployment(rates, 1200)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  for (const char* added : {"svc#3", "svc#4", "svc#5"}) {
    SCOPED_TRACE(added);
    const JobRow& row = jobs.at(added);
    EXPECT_EQ(row.state, "waiting");
    EXPECT_DOUBLE_EQ(row.submit, 315);
    EXPECT_DOUBLE_EQ(row.end, 660);
    EXPECT_EQ(row.start, -1);
    EXPECT_EQ(row.wait, -1);
    EXPECT_EQ(row.jct, -1);
    EXPECT_DOUBLE_EQ(row.uncontended, 0);
    EXPECT_EQ(row.placement, "");
  }
  EXPECT_EQ(jobs.at("svc#6").state, "pending");
  EXPECT_EQ(jobs.at("svc#6").submit, -1);
  for (const char* first : {"svc", "svc#2"}) {
    EXPECT_EQ(jobs.at(first).state, "finished") << first;
    EXPECT_DOUBLE_EQ(jobs.at(first).uncontended, 1200) << first;
  }
  // big, svc and svc#2 finished; the four replicas never started are not.
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["jobs"]["total"], 7);
  EXPECT_EQ(summary["jobs"]["finished"], 3);
  EXPECT_EQ(summary["jobs"]["unfinished"], 4);
  // The JCT figures are big's alone, as before: replicas complete nothing.
  EXPECT_EQ(summary["jct_s"]["mean"], 1100);
  EXPECT_FALSE(summary["job_types"].contains("serving"));
}

TEST(Serving, BadDeploymentsAreNamed) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  auto rejected = [&](const nlohmann::json& job, const std::vector<std::string>& parts) {
    expect_job_rejected(dir, cluster, job, parts);
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
  for (const nlohmann::json& checkpoint : {nlohmann::json{{"interval", 60}}, nlohmann::json{{"at_preemption", true}}}) {
    nlohmann::json saving = deployment(kStep, 1200);
    saving["checkpoint"] = checkpoint;
    rejected(saving, {"svc", "checkpoint", "no progress to lose"});
  }
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

// Six replicas without an autoscaler (sampled once a minute), each loading
// its model for 60 s, and a rollout at 330 s.
nlohmann::json rolled_out(const nlohmann::json& rollout) {
  return {{"id", "svc"},
          {"submit", 0},
          {"gpus", 1},
          {"serving",
           {{"length", 1200},
            {"rate", 400},
            {"throughput", 100},
            {"latency", 0.01},
            {"slo", 1},
            {"startup", 60},
            {"replicas", 6},
            {"rollouts", nlohmann::json::array({rollout})}}}};
}

// timeline.csv's (time, allocated GPUs) rows: here, the replicas holding GPUs.
std::vector<std::pair<double, double>> allocated_gpus(const std::string& out_dir) {
  std::istringstream in(read_text(out_dir + "/timeline.csv"));
  std::string line;
  std::getline(in, line);
  std::vector<std::pair<double, double>> rows;
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string time, allocated;
    std::getline(fields, time, ',');
    std::getline(fields, allocated, ',');
    rows.emplace_back(std::stod(time), std::stod(allocated));
  }
  return rows;
}

// max_surge 2, max_unavailable 1: at most 8 replicas, at least 5 ready. By
// the rules of serving_controller.hpp, in waves a startup apart:
//   330 s: 6 old ready; one goes (5 ready stay), three new start (8 in all);
//   390 s: the three are ready (8 ready): three old go (5 ready), three new start;
//   450 s: those are ready (8): the last two old go; 6 new, ready.
// Done in two startups, 120 s. The samples at 360 and 420 s fall mid-wave:
// 8 replicas, 5 ready.
TEST(Serving, ARollingUpdateReplacesEveryReplicaWithinItsSurgeAndUnavailability) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload =
      dir.write("jobs.json", workload_json({rolled_out({{"at", 330}, {"max_surge", 2}, {"max_unavailable", 1}})}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<ServingRow> rows = read_serving_csv(dir / "out");
  for (const ServingRow& row : rows) {
    SCOPED_TRACE(row.time);
    EXPECT_EQ(row.desired, 6);
    EXPECT_LE(row.replicas, 6 + 2);
    EXPECT_GE(row.ready, 6 - 1);  // from 60 s, the first models loaded
  }
  for (double mid_wave : {360, 420}) {
    EXPECT_EQ(row_at(rows, mid_wave).replicas, 8) << mid_wave;
    EXPECT_EQ(row_at(rows, mid_wave).ready, 5) << mid_wave;
  }
  EXPECT_EQ(row_at(rows, 480).replicas, 6);
  EXPECT_EQ(row_at(rows, 480).ready, 6);
  // The replicas holding GPUs: 6, 8 from 330 s (at 390 s three go as three
  // come), 6 from 450 s.
  const std::vector<std::pair<double, double>> expected = {{0, 6}, {330, 8}, {450, 6}, {1200, 0}};
  EXPECT_EQ(allocated_gpus(dir / "out"), expected);
  // The two slots beyond the six ran nothing before the rollout.
  const auto jobs = read_jobs_csv(dir / "out");
  EXPECT_DOUBLE_EQ(jobs.at("svc#7").start, 330);
  EXPECT_DOUBLE_EQ(jobs.at("svc#8").start, 330);
  // Each slot's row spans its first submission to its last stop: the two
  // old replicas let go at 450 s and never used again end then, the six
  // serving to the end at 1200 s; none waited before its first start.
  int ended_at_450 = 0, ended_at_1200 = 0;
  for (const auto& [id, row] : jobs) {
    EXPECT_GE(row.wait, 0) << id;
    ended_at_450 += row.end == 450;
    ended_at_1200 += row.end == 1200;
  }
  EXPECT_EQ(ended_at_450, 2);
  EXPECT_EQ(ended_at_1200, 6);

  const nlohmann::json svc = read_summary(dir / "out")["serving"][0];
  ASSERT_EQ(svc["rollout_seconds"].size(), 1u);
  EXPECT_DOUBLE_EQ(svc["rollout_seconds"][0].get<double>(), 2 * 60);
  // Old replicas: one to 330 s, three to 390 s, two to 450 s; new ones: three
  // from 330 s and three from 390 s to the end.
  EXPECT_NEAR(svc["gpu_hours"].get<double>(), (330 + 3 * 390 + 2 * 450 + 3 * 870 + 3 * 810) / 3600.0, 1e-9);
  // Five ready replicas serve 500 a second: only the first minute's requests,
  // before any model was loaded, are dropped.
  EXPECT_DOUBLE_EQ(svc["dropped"].get<double>(), 400 * 60);
}

// max_surge 1 alone, beside a 2-GPU job holding the node's last GPUs until
// 630 s: the surge replica waits for them, then the old replicas go one at a
// time, each when a new one is ready:
//   330 s: 6 ready; a new one queues (7 in all);
//   630 s: it gets its GPU; 690 s: it is ready, an old one goes, a new one starts;
//   750, 810, 870, 930 s: likewise;
//   990 s: the sixth new one is ready and the last old one goes.
// 660 s: 300 s waiting for a GPU, then six startups. Never fewer than 6 ready.
TEST(Serving, ARollingUpdateWithoutUnavailabilityWaitsForAGpuForItsSurge) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload = dir.write(
      "jobs.json", workload_json({rolled_out({{"at", 330}, {"max_surge", 1}}), measured_job("big", 0, 2, 630)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  EXPECT_DOUBLE_EQ(jobs.at("svc#7").submit, 330);
  EXPECT_DOUBLE_EQ(jobs.at("svc#7").start, 630);
  const std::vector<ServingRow> rows = read_serving_csv(dir / "out");
  for (const ServingRow& row : rows) {
    SCOPED_TRACE(row.time);
    EXPECT_EQ(row.ready, 6);                                            // from 60 s
    EXPECT_EQ(row.replicas, row.time > 330 && row.time < 990 ? 7 : 6);  // never above 6 + 1
  }
  const nlohmann::json svc = read_summary(dir / "out")["serving"][0];
  ASSERT_EQ(svc["rollout_seconds"].size(), 1u);
  EXPECT_DOUBLE_EQ(svc["rollout_seconds"][0].get<double>(), 300 + 6 * 60);
  // Six replicas throughout, and a seventh during each of the six startups.
  EXPECT_NEAR(svc["gpu_hours"].get<double>(), (6 * 1200 + 6 * 60) / 3600.0, 1e-9);
  EXPECT_DOUBLE_EQ(svc["dropped"].get<double>(), 400 * 60);
}

// Replicas withdrawn from the queue as the autoscaler scales down: every
// policy keeping its own order of the waiting jobs drops them and never
// allocates to one (srtf and drf once did, and the plan was rejected).
TEST(Serving, EveryPolicyRunsTheBundledAutoscaledDeployment) {
  for (const char* policy : {"fifo", "fifo-backfill", "gang", "srtf", "drf", "capacity", "tiresias", "incremental"}) {
    ScratchDir dir;
    const GcsimRun run = run_simulation(scenario("clusters/rack-32gpu.json"),
                                        scenario("workloads/serving-autoscaled.json"), dir / "out", {}, policy);
    EXPECT_EQ(run.exit_code, 0) << policy << ": " << run.err;
  }
}

// A deployment that starts at a time no rate step divides: each step is
// found in absolute time, so no span of no length repeats forever.
TEST(Serving, RateStepsOfADeploymentStartingAtAnyTimeEachEndOneSpan) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  nlohmann::json job =
      deployment({{{"at", 0}, {"rate", 100}}, {{"at", 3600}, {"rate", 300}}, {{"at", 7200}, {"rate", 100}}}, 10800);
  job["submit"] = 3833.131;  // (3833.131 + 3600) - 3833.131 rounds to just below 3600
  const auto workload = dir.write("jobs.json", workload_json({job}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NEAR(read_summary(dir / "out")["serving"][0]["requests"].get<double>(), 3600 * (100 + 300 + 100), 1e-3);
}

// Replicas on CPUs ("gpus": 0, 8 cores each) on two nodes of 16 cores. A
// GPU job holds n-0's 16 cores until 600 s, so the first two replicas take
// n-1. The step to 300 a second at 300 s: the sync at 315 s sees 150 per
// replica and asks for ceil(2 x 150 / 80) = 4; the two new ones fit nowhere
// until the GPU job ends, then take n-0 at 600 s.
TEST(Serving, ReplicasOnCpusWaitForCoresAsGpuReplicasWaitForGpus) {
  ScratchDir dir;
  CraftedCluster crafted;
  crafted.nodes = 2;
  const auto cluster = dir.write("cluster.json", crafted.to_json());
  nlohmann::json svc = deployment({{{"at", 0}, {"rate", 100}}, {{"at", 300}, {"rate", 300}}}, 1200);
  svc["gpus"] = 0;
  svc["cpu_cores"] = 8;
  nlohmann::json big = measured_job("big", 0, 1, 600);
  big["cpu_cores"] = 16;
  const auto workload = dir.write("jobs.json", workload_json({big, svc}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  for (const char* first : {"svc", "svc#2"}) {
    EXPECT_DOUBLE_EQ(jobs.at(first).start, 0) << first;
    EXPECT_EQ(jobs.at(first).placement, "n-1") << first;
    EXPECT_EQ(jobs.at(first).gpus, 0) << first;
  }
  for (const char* added : {"svc#3", "svc#4"}) {
    EXPECT_DOUBLE_EQ(jobs.at(added).submit, 315) << added;
    EXPECT_DOUBLE_EQ(jobs.at(added).start, 600) << added;
    EXPECT_EQ(jobs.at(added).placement, "n-0") << added;
  }
  const std::vector<ServingRow> rows = read_serving_csv(dir / "out");
  EXPECT_EQ(row_at(rows, 450).desired, 4);
  EXPECT_EQ(row_at(rows, 450).ready, 2);
  EXPECT_EQ(row_at(rows, 615).ready, 4);
  const nlohmann::json summary = read_summary(dir / "out")["serving"][0];
  EXPECT_DOUBLE_EQ(summary["gpu_hours"].get<double>(), 0);
  // No queue limit: the requests that piled up while two replicas served 200
  // of 300 a second are all served once four drain them.
  EXPECT_DOUBLE_EQ(summary["requests"].get<double>(), 100 * 300 + 300 * 900);
  EXPECT_NEAR(summary["served"].get<double>(), summary["requests"].get<double>(), 1e-6);
  EXPECT_DOUBLE_EQ(summary["dropped"].get<double>(), 0);

  nlohmann::json shared = svc;
  shared["gpu_share"] = 0.5;
  const auto bad = dir.write("bad.json", workload_json({shared}));
  const GcsimRun rejected = run_simulation(cluster, bad, dir / "bad");
  EXPECT_EQ(rejected.exit_code, 1);
  EXPECT_NE(rejected.err.find("gpu_share"), std::string::npos) << rejected.err;
}

}  // namespace
}  // namespace gcsim::testing
