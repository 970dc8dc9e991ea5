// The bundled scenarios run to completion and their outputs are consistent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <utility>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// The summary.json of a fifo run of the bundled `workload` on the bundled
// `cluster`, with `extra` options, written to `out`.
nlohmann::json fifo_summary(const std::string& out, const std::string& cluster, const std::string& workload,
                            const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run",      "--cluster", scenario(cluster), "--workload", scenario(workload),
                                   "--policy", "fifo",      "--out",           out};
  args.insert(args.end(), extra.begin(), extra.end());
  const GcsimRun run = run_gcsim(args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return read_summary(out);
}

TEST(BundledScenarios, DefaultScenarioFinishesEveryJobAndPrintsASummary) {
  ScratchDir dir;
  const GcsimRun run = run_gcsim({"run", "--cluster", scenario("clusters/rack-32gpu.json"), "--workload",
                                  scenario("workloads/default.json"), "--policy", "fifo", "--out", dir / "out"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("makespan"), std::string::npos);
  const nlohmann::json summary = read_summary(dir / "out");
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_EQ(summary["jobs"]["total"].get<std::size_t>(), rows.size());
  EXPECT_EQ(summary["jobs"]["finished"].get<std::size_t>(), rows.size());
  double last_end = 0;
  for (const auto& [id, row] : rows) {
    SCOPED_TRACE(id);
    EXPECT_GE(row.start, row.submit);
    EXPECT_GT(row.end, row.start);
    EXPECT_NEAR(row.jct, row.end - row.submit, 1e-5);
    last_end = std::max(last_end, row.end);
  }
  EXPECT_NEAR(summary["makespan_s"].get<double>(), last_end, 1e-5);
  const double allocated = summary["gpu_utilization"]["allocated_share"].get<double>();
  const double busy = summary["gpu_utilization"]["busy_share"].get<double>();
  EXPECT_GT(allocated, 0);
  EXPECT_LE(allocated, 1.0 + 1e-12);
  EXPECT_LE(busy, allocated + 1e-12);
}

TEST(BundledScenarios, SharedGpusScenarioHalvesTheMakespanOfWholeGpus) {
  // 8 GPUs. train-a (4 GPUs), 16 quarter-GPU servers and 4 half-GPU notebooks
  // at 0, train-b (2 GPUs) at 1 min, all 60 min. Shared: train-a and the
  // servers (4 GPUs' worth) fill the first hour, the notebooks (2 GPUs) and
  // train-b the second: 2 h, 12 of 16 GPU-hours held. Whole GPUs: 4 servers,
  // then 8, then 4 and the notebooks, then train-b: 4 h, 26 of 32 GPU-hours.
  for (const bool whole : {false, true}) {
    SCOPED_TRACE(whole ? "--whole-gpus" : "shared");
    ScratchDir dir;
    std::vector<std::string> args{"run",
                                  "--cluster",
                                  scenario("clusters/node-8gpu-nvlink.json"),
                                  "--workload",
                                  scenario("workloads/shared-gpus.json"),
                                  "--policy",
                                  "fifo",
                                  "--out",
                                  dir / "out"};
    if (whole) args.push_back("--whole-gpus");
    const GcsimRun run = run_gcsim(args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const nlohmann::json summary = read_summary(dir / "out");
    EXPECT_NEAR(summary["makespan_s"].get<double>(), whole ? 4 * 3600 : 2 * 3600, 1e-6);
    EXPECT_NEAR(summary["gpu_utilization"]["allocated_share"].get<double>(), whole ? 26.0 / 32 : 12.0 / 16, 1e-9);
    EXPECT_NEAR(read_jobs_csv(dir / "out").at("train-b").start, whole ? 3 * 3600 : 3600, 1e-6);
  }
}

TEST(BundledScenarios, InferenceReplicasHoldFractionalGpuCounts) {
  // 8 GPUs. train (4 GPUs, 90 min) and nine 0.3-GPU replicas (60 min), all at
  // 0: train takes 4 GPUs, the replicas three to a GPU on 3 more (0.9 each),
  // so 4 + 9 x 0.3 = 6.7 GPUs are allocated for an hour, then 4 until 90 min.
  // Allocated share: (6.7 x 60 + 4 x 30) / (8 x 90) = 522 / 720 = 0.725.
  ScratchDir dir;
  const GcsimRun run = run_simulation(scenario("clusters/node-8gpu-nvlink.json"),
                                      scenario("workloads/inference-replicas.json"), dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_NEAR(summary["makespan_s"].get<double>(), 5400, 1e-6);
  EXPECT_NEAR(summary["gpu_utilization"]["allocated_share"].get<double>(), 0.725, 1e-9);
  std::istringstream timeline(read_text(dir / "out/timeline.csv"));
  std::string header, first;
  std::getline(timeline, header);
  std::getline(timeline, first);
  double time = -1, allocated = -1;
  ASSERT_EQ(std::sscanf(first.c_str(), "%lf,%lf", &time, &allocated), 2) << first;
  EXPECT_EQ(time, 0);
  EXPECT_NEAR(allocated, 6.7, 1e-9) << first;
}

TEST(BundledScenarios, ParameterServersFallBehindTheRingAsTheJobGrowsAndTheHierarchyGainsOnIt) {
  // ResNet-50-sized training (3.149 TFLOP per GPU, 102.4 MB of gradients,
  // 500 iterations) on 15.7 TFLOP/s V100s, nodes of 8 (NVLink 150 GB/s),
  // 100 Gb/s NICs; each job alone. On 1 and 2 GPUs the two exchanges move
  // the same bytes; from 4 GPUs the servers' ports, then NICs, carry more.
  ScratchDir dir;
  const GcsimRun run = run_gcsim({"run", "--cluster", scenario("clusters/rack-32gpu.json"), "--workload",
                                  scenario("workloads/ps-vs-ring.json"), "--policy", "fifo", "--out", dir / "out"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  auto jct = [&](const std::string& id) { return rows.at(id).jct; };
  EXPECT_NEAR(jct("ps-01gpu"), jct("ring-01gpu"), 1e-9);
  EXPECT_NEAR(jct("ps-02gpu"), jct("ring-02gpu"), 1e-6);
  for (const char* n : {"04", "08", "16", "32"})
    EXPECT_GT(jct(std::string("ps-") + n + "gpu"), jct(std::string("ring-") + n + "gpu")) << n;
  // 32 GPUs on 4 nodes, servers on GPUs 0 and 16 (nodes 0 and 2): each takes
  // S/2 from the 24 workers of the three other nodes through its NIC, 12 S at
  // 12.5 GB/s per push and again per pull.
  const double compute = 3.149e12 / 15.7e12, phase = 12 * 102.4e6 / 12.5e9;
  EXPECT_NEAR(jct("ps-32gpu"), 500 * (compute + 2 * phase), 500 * (compute + 2 * phase) * 0.005);
  // The ring sends 2(31/32) S per GPU across the NICs.
  const double ring = 2 * 31.0 / 32 * 102.4e6 / 12.5e9;
  EXPECT_NEAR(jct("ring-32gpu"), 500 * (compute + ring), 500 * (compute + ring) * 0.005);
  // Hierarchical on 4 nodes of 8: 14 steps of S/8 over NVLink, 6 of S/32 on
  // each of 8 rings sharing each NIC, and their latencies (2 us inside a
  // node, 12 us across): faster than the flat ring.
  const double hierarchical = 14 * (2e-6 + 102.4e6 / 8 / 150e9) + 6 * (12e-6 + 102.4e6 / 32 * 8 / 12.5e9);
  EXPECT_NEAR(jct("hier-32gpu"), 500 * (compute + hierarchical), 500 * (compute + hierarchical) * 0.005);
  EXPECT_LT(jct("hier-32gpu"), jct("ring-32gpu"));
}

TEST(BundledScenarios, TheInputPipelineGapGrowsAsTheCoresPerGpuFall) {
  // ResNet-50-sized training (3.149 TFLOP per GPU, 0.2006 s on a V100), 64
  // images per GPU per iteration decoded at 38 images/s per core; each job
  // asks 4 cores plus 4 per GPU, alone on nodes of 8 GPUs.
  ScratchDir dir;
  const GcsimRun run = run_gcsim({"run", "--cluster", scenario("clusters/rack-32gpu.json"), "--workload",
                                  scenario("workloads/input-pipeline.json"), "--policy", "fifo", "--out", dir / "out"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  auto gap = [&](const std::string& id) {
    return 1 - rows.at(id).real_iterations_per_s / rows.at(id).synthetic_iterations_per_s;
  };
  // 1 GPU, 8 cores: 64 / (8 x 38) = 0.2105 s of decoding against 0.2006 s of compute.
  const double compute = 3.149e12 / 15.7e12;
  EXPECT_NEAR(gap("resnet-01gpu"), 1 - compute / (64 / (8 * 38.0)), 1e-9);
  EXPECT_GT(gap("resnet-01gpu"), 0.04);
  EXPECT_LT(gap("resnet-01gpu"), 0.06);
  double previous = 0;
  for (const char* n : {"01", "02", "04", "08", "16", "32"}) {
    EXPECT_GT(gap(std::string("resnet-") + n + "gpu"), previous) << n;
    previous = gap(std::string("resnet-") + n + "gpu");
  }
  EXPECT_GT(previous, 0.40);
  // 32 GPUs on 4 nodes: 33 cores a node decode 8 x 64 images in 0.4083 s,
  // then the ring's 62 steps of S/32 across the NICs (12 us, 12.5 GB/s).
  const double decode = 8 * 64 / (33 * 38.0), ring = 62 * (12e-6 + 102.4e6 / 32 / 12.5e9);
  EXPECT_NEAR(rows.at("resnet-32gpu").jct, 200 * (decode + ring), 200 * (decode + ring) * 1e-6);
}

TEST(BundledScenarios, ReleasingIdleNotebooksCutsTheirIdleGpuHoursAndTheTrainingWaits) {
  // 24 one-GPU notebooks of 8 h, busy 15% in bursts, beside 12 training jobs
  // of 8 GPUs on 32 GPUs; the same sessions with a 30 min idle timeout.
  auto run_workload = [](const ScratchDir& dir, const std::string& name) {
    const GcsimRun run = run_gcsim({"run", "--cluster", scenario("clusters/rack-32gpu.json"), "--workload",
                                    scenario("workloads/" + name + ".json"), "--policy", "fifo", "--out", dir / name});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    double training_wait = 0;
    for (const auto& [id, row] : read_jobs_csv(dir / name))
      if (id.rfind("train-", 0) == 0) training_wait += row.wait / 12;
    return std::pair{read_summary(dir / name)["notebooks"], training_wait};
  };
  ScratchDir dir;
  const auto [hold, hold_training_wait] = run_workload(dir, "notebooks-hold");
  const auto [release, release_training_wait] = run_workload(dir, "notebooks-release");
  // Held for the whole session: 24 x 8 GPU-hours.
  EXPECT_NEAR(hold["held_gpu_hours"].get<double>(), 192, 1e-9);
  EXPECT_EQ(hold["holds"], 24);
  // The same bursts either way; the timeout gives back most of the idle time.
  EXPECT_NEAR(release["busy_gpu_hours"].get<double>(), hold["busy_gpu_hours"].get<double>(), 1e-9);
  EXPECT_LT(release["idle_gpu_hours"].get<double>(), hold["idle_gpu_hours"].get<double>() / 2);
  EXPECT_LT(release_training_wait, hold_training_wait / 2);
  // The price: bursts that come back to a busy cluster wait for a GPU.
  EXPECT_GT(release["requeued_holds"].get<int>(), 0);
  EXPECT_GT(release["requeue_wait_mean_s"].get<double>(), 0);
}

// A day of requests, 100 a second at night to 1,000 at midday, on 1-GPU
// replicas serving 100 a second each (50 ms a request, 100 waiting per ready
// replica at most, 60 s to load the model), beside training jobs on 32 GPUs:
// three of 8 GPUs and one of 4 until 9 h, two of 8 from 10 h to 18 h, two
// from 18 h. Under fifo; serving-autoscaled.json's autoscaler keeps 2 to 16
// replicas busy 70% of the time, serving-fixed.json runs 12 throughout.
GcsimRun run_serving_day(const ScratchDir& dir, const std::string& workload) {
  return run_gcsim({"run", "--cluster", scenario("clusters/rack-32gpu.json"), "--workload",
                    scenario("workloads/" + workload + ".json"), "--policy", "fifo", "--out", dir / workload});
}

TEST(BundledScenarios, TheAutoscalerWaitsForTheTrainingGpusInTheMorningThenFollowsTheLoad) {
  ScratchDir dir;
  const GcsimRun run = run_serving_day(dir, "serving-autoscaled");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<ServingRow> rows = read_serving_csv(dir / "serving-autoscaled");
  auto at = [&](double time) {
    for (const ServingRow& row : rows)
      if (row.time == time) return row;
    ADD_FAILURE() << "no serving.csv row at " << time;
    return ServingRow{};
  };
  // The night on the minimum, beside 28 training GPUs: 2 GPUs stay free.
  EXPECT_EQ(at(5 * 3600).desired, 2);
  EXPECT_EQ(at(5 * 3600).ready, 2);
  // From 7 h the load outgrows the 4 replicas those GPUs allow: 6 are asked
  // for, 2 wait for GPUs, and the autoscaler asks for no more: 4 ready at
  // 100% busy against a 70% target ask for 5.7, no more than the 6 it has
  // (the waiting ones count at 0).
  for (const ServingRow& row : rows)
    if (row.time > 25215 && row.time <= 9 * 3600) {
      SCOPED_TRACE(row.time);
      EXPECT_EQ(row.desired, 6);
      EXPECT_EQ(row.replicas, 6);
      EXPECT_EQ(row.ready, 4);
    }
  // The training ends at 9 h: the two start, ready at 32,460 s, a sync, at
  // which they have served nothing and report nothing yet. At the next sync
  // all 6 report 100% busy and it asks for ceil(6 / 0.7) = 9; once those
  // have served a sync period, ceil(9 / 0.7) = 13. 900 a second on 13 is
  // 69% busy, within the tolerance: 13 is the most it asks for.
  EXPECT_EQ(at(32460).desired, 6);
  EXPECT_EQ(at(32475).desired, 9);
  EXPECT_EQ(at(32535).desired, 9);
  EXPECT_EQ(at(32550).desired, 13);
  EXPECT_EQ(at(32610).ready, 13);
  EXPECT_EQ(at(32625).desired, 13);
  // Then it follows the load down, 300 s (its window) after each hourly
  // step: at 16 h 800 a second on 13 replicas is 62% busy, so ceil(13 x
  // 0.62 / 0.7) = 12; at 23 h, 200 on 3 is 67%, within the tolerance.
  const std::pair<double, int> down[] = {{57900, 12}, {61500, 10}, {65100, 8}, {68700, 7},
                                         {72300, 5},  {79500, 4},  {83100, 3}, {86400, 3}};
  for (const auto& [time, desired] : down) EXPECT_EQ(at(time).desired, desired) << time;

  const nlohmann::json svc = read_summary(dir / "serving-autoscaled")["serving"][0];
  EXPECT_EQ(svc["most_ready_replicas"], 13);
  // Dropped, arrivals past 100 waiting per ready replica: the first minute's
  // 150 a second before any model is loaded (9,000); 250 a second on 2 from
  // 6 h, full at 6 h + 4 s until a third, asked for at 6 h + 15 s, is ready
  // at 6 h + 75 s (50 x 71); 450 on 4 from 7 h, full at 7 h + 8 s (50 x
  // 3,592); 700 on 4 (300 x 3,600); 900 on 4 until the two waiting are ready
  // (500 x 60); on 6 for 75 s, until the three asked for at 32,475 s are
  // ready, full after 2/3 s (300 x 74 1/3); then capacity enough.
  EXPECT_NEAR(svc["dropped"].get<double>(), 9000 + 50 * 71 + 50 * 3592 + 300 * 3600 + 500 * 60 + 300 * (75 - 2.0 / 3),
              1e-3);
}

TEST(BundledScenarios, AutoscalingServesTheDayOnFewerGpuHoursAndTheTrainingWaitsLessButRequestsAreLate) {
  ScratchDir dir;
  ASSERT_EQ(run_serving_day(dir, "serving-autoscaled").exit_code, 0);
  ASSERT_EQ(run_serving_day(dir, "serving-fixed").exit_code, 0);
  const nlohmann::json autoscaled = read_summary(dir / "serving-autoscaled")["serving"][0];
  const nlohmann::json fixed = read_summary(dir / "serving-fixed")["serving"][0];
  // 12 replicas all day.
  EXPECT_NEAR(fixed["gpu_hours"].get<double>(), 12 * 24, 1e-9);
  // The autoscaled replicas, ranked by start, each run until the count
  // falls below its rank (the newest go first) or the day ends, as in the
  // test above: a fourth asked for at 6 h + 90 s, once the third, ready at
  // the sync of 6 h + 75 s, has served a period; 13 at most.
  const double starts[] = {0, 0, 21615, 21690, 32400, 32400, 32475, 32475, 32475, 32550, 32550, 32550, 32550};
  const std::pair<double, int> falls[] = {{57900, 12}, {61500, 10}, {65100, 8}, {68700, 7},
                                          {72300, 5},  {79500, 4},  {83100, 3}};
  double replica_seconds = 0;
  for (int rank = 1; rank <= 13; ++rank) {
    double end = 86400;
    for (const auto& [time, count] : falls)
      if (count < rank) {
        end = time;
        break;
      }
    replica_seconds += end - starts[rank - 1];
  }
  EXPECT_NEAR(autoscaled["gpu_hours"].get<double>(), replica_seconds / 3600, 1e-9);
  EXPECT_LT(autoscaled["gpu_hours"].get<double>(), 0.6 * fixed["gpu_hours"].get<double>());

  // The GPUs the autoscaler gives back go to the training: none waits. Beside
  // 12 replicas, train-03 and train-04 wait until the first two end at 9 h,
  // train-06 until 18 h and train-08 until 24 h.
  for (const auto& [id, row] : read_jobs_csv(dir / "serving-autoscaled"))
    if (id.rfind("train-", 0) == 0) {
      EXPECT_EQ(row.wait, 0) << id;
    }
  const auto fixed_jobs = read_jobs_csv(dir / "serving-fixed");
  const std::map<std::string, double> fixed_waits = {{"train-01", 0},     {"train-02", 0},    {"train-03", 32400},
                                                     {"train-04", 32400}, {"train-05", 0},    {"train-06", 28800},
                                                     {"train-07", 0},     {"train-08", 21600}};
  for (const auto& [id, wait] : fixed_waits) EXPECT_DOUBLE_EQ(fixed_jobs.at(id).wait, wait) << id;

  // The price: the morning's overload. Fixed, a request is late (over 0.5 s)
  // almost only when its service alone, exponential of mean 50 ms, takes
  // that long: e^-10 of them, and a few that waited.
  const double served = fixed["served"].get<double>();
  EXPECT_GT(fixed["late"].get<double>(), served * std::exp(-10));
  EXPECT_LT(fixed["late"].get<double>(), 1.01 * served * std::exp(-10));
  EXPECT_DOUBLE_EQ(fixed["dropped"].get<double>(), 150 * 60);  // before the models are loaded
  // Autoscaled, the 2 hours on 4 replicas fill their queues: the 400 requests
  // a second admitted then wait 1 s each (400 waiting, served 400 a second).
  EXPECT_GT(autoscaled["late"].get<double>(), 400 * 2 * 3600);
  EXPECT_GT(autoscaled["latency_s"]["p95"].get<double>(), 1);
  EXPECT_LT(fixed["latency_s"]["p99"].get<double>(), 0.5);
}

TEST(BundledScenarios, WithoutGpuMemoryIsolationAMisconfiguredJobMakesItsNeighboursFail) {
  // 24 replicas of 0.3 GPU asking 8 GB each, one a minute, and a job asking
  // 8 GB that uses 24 GB from 30 s on, packed with the first replica on GPU 0
  // of 32 GB; a report waits for that job.
  auto run_with = [](const ScratchDir& dir, const std::string& isolation) {
    const GcsimRun run = run_gcsim({"run", "--cluster", scenario("clusters/node-8gpu-nvlink.json"), "--workload",
                                    scenario("workloads/gpu-memory.json"), "--policy", "fifo", "--out", dir / isolation,
                                    "--gpu-memory-isolation", isolation});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return read_jobs_csv(dir / isolation);
  };
  ScratchDir dir;
  const auto isolated = run_with(dir, "on");
  EXPECT_EQ(isolated.at("misconfigured").state, "failed");
  EXPECT_DOUBLE_EQ(isolated.at("misconfigured").end, 30);
  EXPECT_EQ(isolated.at("report").state, "failed");
  for (const auto& [id, row] : isolated)
    if (id.rfind("replica-", 0) == 0) {
      EXPECT_EQ(row.state, "finished") << id;
    }
  // Unfenced, 24 + 8 GB fill GPU 0; every later replica is packed there, asks
  // 8 GB more at its start and fails, one a minute.
  const auto open = run_with(dir, "off");
  EXPECT_EQ(open.at("misconfigured").state, "finished");
  EXPECT_EQ(open.at("replica-01").state, "finished");
  for (int i = 2; i <= 24; ++i) {
    const std::string id = std::string("replica-") + (i < 10 ? "0" : "") + std::to_string(i);
    EXPECT_EQ(open.at(id).state, "failed") << id;
    EXPECT_DOUBLE_EQ(open.at(id).end, 60.0 * (i - 1)) << id;
  }
}

TEST(BundledScenarios, TheMixedWorkloadRunsUnderFifoCapacityAndGangWithFiguresPerJobType) {
  // Every job type on 512 GPUs over two days (scripts/make_mixed_workload.py).
  const std::vector<std::vector<std::string>> policies = {
      {"fifo"}, {"gang"}, {"capacity", "--policy-opt", "config=" + scenario("capacity/yarn-two-queues.json")}};
  for (const std::vector<std::string>& policy : policies) {
    ScratchDir dir;
    std::vector<std::string> args = {"run",
                                     "--cluster",
                                     scenario("clusters/cluster-512gpu.json"),
                                     "--workload",
                                     scenario("workloads/mixed-512gpu.json"),
                                     "--out",
                                     dir / "out",
                                     "--policy"};
    args.insert(args.end(), policy.begin(), policy.end());
    const GcsimRun run = run_gcsim(args);
    ASSERT_EQ(run.exit_code, 0) << policy[0] << ": " << run.err;
    const nlohmann::json summary = read_summary(dir / "out");
    const nlohmann::json& types = summary["job_types"];
    for (const char* type : {"training", "measured", "dag", "notebook", "cpu"})
      EXPECT_GT(types[type]["finished"].get<int>(), 0) << policy[0] << " " << type;
    const auto rows = read_jobs_csv(dir / "out");
    int replicas = 0;  // serving replicas are reported by their deployments, not per job type
    for (const auto& [id, row] : rows) replicas += id.rfind("serve-", 0) == 0 || id.rfind("deploy-", 0) == 0;
    EXPECT_EQ(types["training"]["jobs"].get<int>() + types["measured"]["jobs"].get<int>() +
                  types["dag"]["jobs"].get<int>() + types["notebook"]["jobs"].get<int>() +
                  types["cpu"]["jobs"].get<int>() + replicas,
              summary["jobs"]["total"].get<int>());
    // Two deployments serve both days, and four more serve for 6 h after their workflow's evaluation.
    ASSERT_EQ(summary["serving"].size(), 6u) << policy[0];
    for (const nlohmann::json& deployment : summary["serving"]) {
      EXPECT_GT(deployment["served"].get<double>(), 0) << deployment["deployment"];
      EXPECT_GT(deployment["latency_s"]["p99"].get<double>(), 0) << deployment["deployment"];
    }
    // The two misconfigured inference jobs fail 20 min into their run.
    EXPECT_EQ(summary["failures"]["out_of_memory"], 2) << policy[0];
    for (const char* id : {"infer-000", "infer-001"}) EXPECT_NEAR(rows.at(id).end - rows.at(id).start, 1200, 1e-6);
    // Each workflow's evaluation starts after its training, which starts after its preparation.
    for (int i = 0; i < 20; ++i) {
      const std::string n = (i < 10 ? "00" : "0") + std::to_string(i);
      EXPECT_GE(rows.at("wf-train-" + n).start, rows.at("prepare-" + n).end + 60) << n;
      EXPECT_GE(rows.at("evaluate-" + n).start, rows.at("wf-train-" + n).end) << n;
      if (i < 4) {
        EXPECT_GE(rows.at("deploy-" + n).start, rows.at("evaluate-" + n).end) << n;
      }
    }
  }
}

TEST(BundledScenarios, NodeFailuresDrawnFromAnMtbfCostTheMixedWorkloadGoodput) {
  // Weibull failures (MTBF 100 h, shape 0.8, 2 h repairs) on the 64 nodes
  // over 4 days; the mixed workload keeps no checkpoints.
  ScratchDir dir;
  const auto run_with = [&](const std::string& name, const std::vector<std::string>& extra) {
    return fifo_summary(dir / name, "clusters/cluster-512gpu.json", "workloads/mixed-512gpu.json", extra);
  };
  const nlohmann::json steady = run_with("steady", {});
  const nlohmann::json failing = run_with("failing", {"--node-failures", scenario("failures/mtbf-100h.json")});
  EXPECT_FALSE(steady.contains("node_failures"));
  EXPECT_GT(failing["node_failures"]["failures"].get<int>(), 0);
  EXPECT_EQ(failing["node_failures"]["restarts"], failing["preemptions"]["count"]);
  EXPECT_LT(failing["node_failures"]["goodput"].get<double>(), 1);
  EXPECT_GT(failing["node_failures"]["lost_gpu_hours"].get<double>(), 0);
  // Every job still ends as it did, the training ones later; the serving
  // deployments' autoscalers, answering the replicas the failures took, may
  // ask for other replicas than without them (jobs never asked for are not
  // finished), so the jobs are counted per type, which leaves replicas out.
  EXPECT_EQ(failing["jobs"]["total"], steady["jobs"]["total"]);
  EXPECT_EQ(failing["jobs"]["failed"], steady["jobs"]["failed"]);
  for (const auto& [type, figures] : steady["job_types"].items()) {
    EXPECT_EQ(failing["job_types"][type]["jobs"], figures["jobs"]) << type;
    EXPECT_EQ(failing["job_types"][type]["finished"], figures["finished"]) << type;
  }
  EXPECT_GT(failing["job_types"]["training"]["jct_s"]["mean"].get<double>(),
            steady["job_types"]["training"]["jct_s"]["mean"].get<double>());
}

TEST(BundledScenarios, TwoListedNodeOutagesTakeTheirGpusAwayForTheirDurations) {
  // dgx1-1 is down from 1 h to 1.5 h, dgx1-3 from 2 h to 3 h: 24 of the rack's
  // 32 GPUs are left during each outage, and the jobs on the failed node run again.
  ScratchDir dir;
  const auto run_with = [&](const std::string& name, const std::vector<std::string>& extra) {
    return fifo_summary(dir / name, "clusters/rack-32gpu.json", "workloads/default.json", extra);
  };
  const nlohmann::json steady = run_with("steady", {});
  const nlohmann::json failing =
      run_with("failing", {"--node-failures", scenario("failures/rack-32gpu-two-outages.json")});
  EXPECT_EQ(failing["node_failures"]["failures"], 2);
  EXPECT_GE(failing["node_failures"]["restarts"].get<int>(), 1);
  EXPECT_EQ(failing["jobs"], steady["jobs"]);
  EXPECT_GT(failing["makespan_s"].get<double>(), steady["makespan_s"].get<double>());
  std::istringstream timeline(read_text(dir / "failing/timeline.csv"));
  std::string line;
  std::getline(timeline, line);
  int most_in_outages = 0, most_outside = 0;
  while (std::getline(timeline, line)) {
    double time = 0;
    int allocated = 0, busy = 0, queued = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%d,%d,%d", &time, &allocated, &busy, &queued), 4) << line;
    const bool in_outage = (time >= 3600 && time < 5400) || (time >= 7200 && time < 10800);
    (in_outage ? most_in_outages : most_outside) = std::max(in_outage ? most_in_outages : most_outside, allocated);
  }
  EXPECT_LE(most_in_outages, 24);
  EXPECT_EQ(most_outside, 32);
}

TEST(BundledScenarios, TimelineNeverExceedsTheClusterAndEndsIdle) {
  ScratchDir dir;
  ASSERT_EQ(
      run_simulation(scenario("clusters/rack-32gpu.json"), scenario("workloads/default.json"), dir / "out").exit_code,
      0);
  std::istringstream timeline(read_text(dir / "out/timeline.csv"));
  std::string line;
  std::getline(timeline, line);
  EXPECT_EQ(line, "time,allocated_gpus,busy_gpus,queued_jobs");
  double previous = -1;
  int allocated = -1, busy = -1, queued = -1;
  while (std::getline(timeline, line)) {
    double time = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%d,%d,%d", &time, &allocated, &busy, &queued), 4) << line;
    EXPECT_GE(queued, 0);
    EXPECT_GT(time, previous);
    EXPECT_LE(allocated, 32);
    EXPECT_LE(busy, allocated);
    previous = time;
  }
  EXPECT_EQ(allocated, 0);
  EXPECT_EQ(queued, 0);
}

TEST(BundledScenarios, EveryBundledClusterRunsASmallWorkload) {
  for (const std::string cluster : {"node-8gpu-nvlink.json", "rack-32gpu.json", "cluster-512gpu.json",
                                    "hetero-2types.json", "h100-rails-1024gpu.json", "h100-rails-16k-gpu.json"}) {
    SCOPED_TRACE(cluster);
    ScratchDir dir;
    const std::string cluster_file = scenario("clusters/" + cluster);
    const std::string type = nlohmann::json::parse(read_text(cluster_file))["gpu_types"][0]["name"];
    std::vector<nlohmann::json> jobs{measured_job("a", 0, 4, 60), measured_job("b", 10, 8, 60)};
    for (auto& job : jobs) job["duration"]["gpu_type"] = type;
    const GcsimRun run = run_simulation(cluster_file, dir.write("w.json", workload_json(jobs)), dir / "out");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(read_summary(dir / "out")["jobs"]["finished"].get<int>(), 2);
  }
}

TEST(BundledScenarios, ACpuJobHoldingANodesCoresDelaysATrainingJobOfTheWorkflows) {
  // Two workflows (prepare on CPUs, train on 16 GPUs with 16 cores a node,
  // evaluate, serve from CPU replicas) beside a CPU ETL job holding all 40
  // cores of one node for 2 h, on rack-32gpu under fifo. At 1860 s train-a
  // takes two whole nodes; train-b fits only on the one node whose cores are
  // free, and waits until train-a ends at 5460 s. Without the ETL job it
  // starts with train-a.
  const std::string cluster = scenario("clusters/rack-32gpu.json");
  ScratchDir dir;
  const GcsimRun run = run_simulation(cluster, scenario("workloads/workflows.json"), dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  EXPECT_DOUBLE_EQ(jobs.at("train-a").start, 1860);
  EXPECT_DOUBLE_EQ(jobs.at("train-b").submit, 1860);
  EXPECT_DOUBLE_EQ(jobs.at("train-b").start, 5460);
  EXPECT_DOUBLE_EQ(jobs.at("evaluate-b").start, 9060);
  EXPECT_DOUBLE_EQ(jobs.at("serve-b").start, 9960);
  // prepare-a and prepare-b (32 cores each) take dgx1-0 and dgx1-1; the ETL job the next whole node.
  EXPECT_EQ(jobs.at("etl-nightly").placement, "dgx1-2");
  EXPECT_DOUBLE_EQ(jobs.at("etl-nightly").end, 7200);  // 288,000 core-seconds on 40 cores

  nlohmann::json without_etl = nlohmann::json::parse(read_text(scenario("workloads/workflows.json")));
  auto& list = without_etl["jobs"];
  list.erase(std::remove_if(list.begin(), list.end(), [](const nlohmann::json& j) { return j["id"] == "etl-nightly"; }),
             list.end());
  const auto workload = dir.write("no-etl.json", without_etl.dump());
  ASSERT_EQ(run_simulation(cluster, workload, dir / "no-etl").exit_code, 0);
  EXPECT_DOUBLE_EQ(read_jobs_csv(dir / "no-etl").at("train-b").start, 1860);
}

}  // namespace
}  // namespace gcsim::testing
