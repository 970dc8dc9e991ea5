// How a run ends when it cannot end well: a policy going round in circles at
// one instant (livelock), preemptions throwing work away while nothing
// finishes (thrashing), a policy that throws, and memory running out. Each
// ends with a message and an exit status of its own, never in SimGrid's
// abort; stopped runs write their outputs whole, failed ones write nothing.
// Policies that misbehave on purpose come from tests/plugin/planted_policies.cpp.
#include <algorithm>

#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

const std::string kPlanted = GCSIM_PLANTED_POLICIES;

// One node of 4 GPUs of 1e12 FLOP/s: a measured job's seconds are its run time.
std::string four_gpu_cluster(const ScratchDir& dir) {
  CraftedCluster cluster;
  cluster.gpus_per_node = 4;
  return dir.write("cluster.json", cluster.to_json());
}

GcsimRun run_planted(const ScratchDir& dir, const std::string& policy, const std::vector<nlohmann::json>& jobs) {
  return run_simulation(four_gpu_cluster(dir), dir.write("jobs.json", workload_json(jobs)), dir / "out",
                        {"--plugin", kPlanted}, policy);
}

TEST(RunGuards, APolicyTakingTurnsAtOneInstantStopsAsALivelockNamingTheJobsAndTheCycle) {
  ScratchDir dir;
  // a and b (4 GPUs each) arrive at 100 s. Call 1 starts a; every later call
  // preempts the running job and starts the other, a nanosecond later each:
  // a loses its GPUs at calls 2, 4, ..., its 11th time (one more than the
  // bound of 10) at call 22, b its 10th at call 21.
  const GcsimRun run = run_planted(dir, "ping-pong", {measured_job("a", 100, 4, 50), measured_job("b", 100, 4, 50)});
  EXPECT_EQ(run.exit_code, 9) << run.err;
  EXPECT_NE(run.err.find("livelock at t=100.000000 s"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("job 'a' lost its GPUs 11 times"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("job 'b' lost its GPUs 10 times"), std::string::npos) << run.err;
  // Call 22 preempted a and started b, call 21 the reverse.
  EXPECT_NE(run.err.find("the decisions that repeat: preempt 'b', allocate 'a', preempt 'a', allocate 'b'"),
            std::string::npos)
      << run.err;

  // The outputs are written whole, as they stood at the instant.
  std::vector<std::string> files = files_in(dir / "out");
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"jobs.csv", "summary.json", "timeline.csv"}));
  const nlohmann::json summary = read_summary(dir / "out");
  ASSERT_TRUE(summary["livelock"].is_object()) << summary.dump(2);
  EXPECT_DOUBLE_EQ(summary["livelock"]["detected_at_s"].get<double>(), 100);
  EXPECT_EQ(summary["livelock"]["policy_calls"], 22);
  EXPECT_EQ(summary["livelock"]["jobs"][0]["id"], "a");
  EXPECT_EQ(summary["livelock"]["jobs"][0]["gpus_taken_away"], 11);
  EXPECT_EQ(summary["livelock"]["decisions_repeat"], true);
  EXPECT_EQ(summary["livelock"]["decisions"].size(), 4u);
  EXPECT_TRUE(summary["deadlock"].is_null());
  EXPECT_TRUE(summary["thrashing"].is_null());
  EXPECT_EQ(summary["preemptions"]["count"], 21);  // 11 + 10
  // Both jobs were submitted at the stop's instant (give or take the calls'
  // nanoseconds): censored there, with a JCT of about 0.
  EXPECT_EQ(summary["jct_s"]["count"], 0);
  EXPECT_EQ(summary["jct_s_censored"]["count"], 2);
  EXPECT_NEAR(summary["jct_s_censored"]["max"].get<double>(), 0, 1e-6);
  EXPECT_EQ(summary["queueing_delay_s_censored"]["count"], 2);
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_EQ(rows.at("a").preemptions, 11);
  EXPECT_EQ(rows.at("b").state, "running");
}

TEST(RunGuards, FortyThousandPreemptionsRunToTheEnd) {
  ScratchDir dir;
  // a and b (4 GPUs, 20000 s each, a checkpoint every 0.5 s) take turns a
  // second at a time. A run keeps at most its one second of work, so each job
  // runs at least 20000 times, every run but its last preempted while its
  // GPUs compute: at least 39998 preemptions. Each stops the run's actor; a
  // run keeping every stopped actor's stack (two memory mappings each) would
  // pass the kernel's default limit of 65530 mappings and abort.
  nlohmann::json a = measured_job("a", 0, 4, 20000), b = measured_job("b", 0, 4, 20000);
  a["checkpoint"] = b["checkpoint"] = {{"interval", 0.5}};
  const GcsimRun run = run_planted(dir, "time-slices", {a, b});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["jobs"]["finished"], 2);
  EXPECT_GE(summary["preemptions"]["count"].get<int>(), 39998);
  EXPECT_EQ(summary["preemptions"]["restarts_from_zero"], 0);
}

TEST(RunGuards, APolicyThatThrowsIsAPolicyErrorNamingItAndTheInstant) {
  ScratchDir dir;
  const GcsimRun run = run_planted(dir, "throws", {measured_job("a", 5, 4, 50)});
  EXPECT_EQ(run.exit_code, 3) << run.err;
  EXPECT_NE(run.err.find("gcsim: policy error: policy 'throws' failed at t=5"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("no plan today"), std::string::npos) << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

TEST(RunGuards, RunningOutOfMemoryWhileJobsRunIsAnErrorOfItsOwnNotAnAbort) {
  ScratchDir dir;
  // The planted policy starts a at 0 and throws std::bad_alloc at its wake-up at 1 s, while a runs.
  const GcsimRun run = run_planted(dir, "out-of-memory", {measured_job("a", 0, 4, 50)});
  EXPECT_EQ(run.exit_code, 11) << run.err;
  EXPECT_NE(run.err.find("gcsim: error: out of memory"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("policy error"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("xbt"), std::string::npos) << run.err;  // no SimGrid backtrace
  EXPECT_TRUE(files_in(dir / "out").empty());
}

// 64 GPUs as 8 nodes of 8 V100, and ten jobs asking all 64: job ti
// submitted at i x 997 s, a measured 30000 + 1300 i s on V100.
const char* kCluster64 = R"({"name":"c64","gpu_types":[{"name":"V100","flops":"15.7TFLOPS","memory":"32GB"}],
  "node_groups":[{"name":"dgx1","count":8,"gpus_per_node":8,"gpu_type":"V100","cpu_cores":40,"memory":"512GB",
    "intra_node":{"kind":"nvlink","bandwidth":"150GB/s","latency":"2us"},"nic":{"bandwidth":"100Gbps","latency":"5us"}}],
  "fabric":{"nodes_per_rack":16,"oversubscription":2,"uplink_latency":"1us"}})";

std::string ten_jobs_of_64_gpus(const nlohmann::json& checkpoint = nullptr) {
  std::vector<nlohmann::json> jobs;
  for (int i = 0; i < 10; ++i) {
    nlohmann::json job = {{"id", "t" + std::to_string(i)},
                          {"submit", i * 997},
                          {"gpus", 64},
                          {"duration", {{"seconds", 30000 + 1300 * i}, {"gpu_type", "V100"}}}};
    if (!checkpoint.is_null()) job["checkpoint"] = checkpoint;
    jobs.push_back(job);
  }
  return workload_json(jobs);
}

// Their whole work: 64 GPUs x (30000 + ... + 41700 s) = 64 x 358500 GPU-s.
constexpr double kTenJobsGpuHours = 64.0 * 358500 / 3600;

TEST(RunGuards, TiresiasOnJobsAsLargeAsTheClusterWithoutCheckpointsEndsWithTheThrashingReported) {
  ScratchDir dir;
  // Under tiresias' defaults a job crosses its 3600 GPU-s threshold 56.25 s
  // into a run; with ten jobs, each is due for promotion (8 x 56.25 s after
  // its preemption) before its turn comes back, so they take turns forever,
  // every run thrown away. Nothing finishes: the run stops once the thrown
  // away GPU time passes 3 times the jobs' whole work.
  const GcsimRun run = run_simulation(dir.write("c64.json", kCluster64), dir.write("jobs.json", ten_jobs_of_64_gpus()),
                                      dir / "out", {}, "tiresias");
  EXPECT_EQ(run.exit_code, 10) << run.err;
  EXPECT_NE(run.err.find("thrashing at t="), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--trace-opt checkpoint_interval=SECONDS"), std::string::npos) << run.err;

  const nlohmann::json summary = read_summary(dir / "out");
  const nlohmann::json& thrashing = summary["thrashing"];
  ASSERT_TRUE(thrashing.is_object()) << summary.dump(2);
  EXPECT_DOUBLE_EQ(thrashing["since_s"].get<double>(), 0);  // no job ever ended
  EXPECT_NEAR(thrashing["needed_gpu_hours"].get<double>(), kTenJobsGpuHours, 1e-9);
  EXPECT_EQ(thrashing["limit"], 3);
  EXPECT_EQ(thrashing["unfinished_jobs"], 10);
  // The guard looks after every preemption, and a run of the steady cycle
  // throws away one threshold, 3600 GPU-s: it stops within one GPU-hour past the limit.
  const double lost = thrashing["lost_gpu_hours_since"].get<double>();
  EXPECT_GT(lost, 3 * kTenJobsGpuHours);
  EXPECT_LE(lost, 3 * kTenJobsGpuHours + 1);

  EXPECT_EQ(summary["jobs"]["finished"], 0);
  const nlohmann::json& preemptions = summary["preemptions"];
  EXPECT_EQ(preemptions["restarts_from_zero"], preemptions["count"]);  // no checkpoints: every one
  EXPECT_NEAR(preemptions["lost_gpu_hours"].get<double>(), lost, 1e-6);
  EXPECT_EQ(preemptions["useful_gpu_hours"], 0);
  EXPECT_EQ(preemptions["lost_share"], 1);
  double submitted = 0, started = 0;
  for (const auto& [id, row] : read_jobs_csv(dir / "out")) {
    EXPECT_NE(row.state, "finished") << id;
    EXPECT_GT(row.preemptions, 1000) << id;  // they took turns about 1800 times each
    submitted += row.submit;
    started += row.start;
  }
  // Every job is censored at the stop: JCT = stop - submit, wait = first start - submit.
  const double stop = thrashing["detected_at_s"].get<double>();
  EXPECT_EQ(summary["jct_s_censored"]["count"], 10);
  EXPECT_NEAR(summary["jct_s_censored"]["mean"].get<double>(), stop - submitted / 10, 1e-6);
  EXPECT_NEAR(summary["queueing_delay_s_censored"]["mean"].get<double>(), (started - submitted) / 10, 1e-6);
}

TEST(RunGuards, WithACheckpointEvery30SecondsTheSameJobsFinishAndTheLostWorkIsReported) {
  ScratchDir dir;
  // The same turns, but each 56.25 s run keeps its first 30 s: every job
  // finishes. Useful work is then exactly the jobs' work; what each run did
  // after its checkpoint is lost, and far more than 10% of it: a notice.
  const GcsimRun run = run_gcsim({"run", "--cluster", dir.write("c64.json", kCluster64), "--workload",
                                  dir.write("jobs.json", ten_jobs_of_64_gpus({{"interval", 30}})), "--policy",
                                  "tiresias", "--out", dir / "out"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["jobs"]["finished"], 10);
  EXPECT_TRUE(summary["thrashing"].is_null());
  const nlohmann::json& preemptions = summary["preemptions"];
  EXPECT_EQ(preemptions["restarts_from_zero"], 0);
  EXPECT_NEAR(preemptions["useful_gpu_hours"].get<double>(), kTenJobsGpuHours, 1e-6);
  const double lost = preemptions["lost_gpu_hours"].get<double>();
  EXPECT_GT(lost, 0.1 * kTenJobsGpuHours);
  EXPECT_NEAR(preemptions["lost_share"].get<double>(), lost / (lost + kTenJobsGpuHours), 1e-12);
  EXPECT_NE(run.out.find("  preempted   " + std::to_string(preemptions["count"].get<int>()) + " times, 0 restarts"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.err.find("gcsim: notice: preemptions threw away"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("Checkpoint more often"), std::string::npos) << run.err;
}

// On the 4-GPU node: "long" (4 GPUs, 300 s) at 0 and "short" (4 GPUs, 50 s)
// at 100 s. srtf preempts long at 100 s for short (200 s left against 50),
// which ends at 150; long then runs again, from its last checkpoint if any.
std::vector<nlohmann::json> long_and_short() {
  return {measured_job("long", 0, 4, 300), measured_job("short", 100, 4, 50)};
}

// long and short as a Philly trace; ids name the trace's lines (philly-1, philly-2).
std::string long_and_short_trace(const ScratchDir& dir) {
  return dir.write("t.csv",
                   "timestamp,duration,num_gpus,gpu_time,cluster\n"
                   "2017-10-09 07:00:00,300,4,1200,vc\n"
                   "2017-10-09 07:01:40,50,4,200,vc\n");
}

TEST(RunGuards, WorkThrownAwayByAPreemptionIsCountedPrintedAndNoticed) {
  ScratchDir dir;
  const GcsimRun run =
      run_gcsim({"run", "--cluster", four_gpu_cluster(dir), "--workload",
                 dir.write("jobs.json", workload_json(long_and_short())), "--policy", "srtf", "--out", dir / "out"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // long starts over at 150 and ends at 450. Runs held 4 x (100 + 300) + 4 x
  // 50 = 1800 GPU-s, of which the first 100 s of long, 400 GPU-s, are lost:
  // 1400 useful, a lost share of 400 / 1800.
  const nlohmann::json preemptions = read_summary(dir / "out")["preemptions"];
  EXPECT_EQ(preemptions["count"], 1);
  EXPECT_EQ(preemptions["restarts_from_zero"], 1);
  EXPECT_DOUBLE_EQ(preemptions["lost_gpu_hours"].get<double>(), 400.0 / 3600);
  EXPECT_DOUBLE_EQ(preemptions["useful_gpu_hours"].get<double>(), 1400.0 / 3600);
  EXPECT_DOUBLE_EQ(preemptions["lost_share"].get<double>(), 400.0 / 1800);
  EXPECT_NE(run.out.find("  preempted   1 times, 1 restarts from zero, 0.11 GPU-hours lost (22.2% of the GPU time "
                         "jobs ran, the lost share)\n"),
            std::string::npos)
      << run.out;
  // The same lost share, 400 of the 1800 GPU-s jobs ran, over 10%.
  EXPECT_NE(run.err.find("gcsim: notice: preemptions threw away 0.11 GPU-hours, 22.2% of the 0.50 GPU-hours jobs ran "
                         "(the lost share; more than 10.0%); 1 of the 1 preemptions restarted a job from zero.\n"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("A job without checkpoints starts over"), std::string::npos) << run.err;
}

TEST(RunGuards, ARunWithoutPreemptionsPrintsNoPreemptionLineAndNoNotice) {
  ScratchDir dir;
  const GcsimRun run =
      run_gcsim({"run", "--cluster", four_gpu_cluster(dir), "--workload",
                 dir.write("jobs.json", workload_json(long_and_short())), "--policy", "fifo", "--out", dir / "out"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.find("preempted"), std::string::npos) << run.out;
  EXPECT_EQ(run.err.find("notice"), std::string::npos) << run.err;
  const nlohmann::json preemptions = read_summary(dir / "out")["preemptions"];
  EXPECT_EQ(preemptions["count"], 0);
  EXPECT_DOUBLE_EQ(preemptions["useful_gpu_hours"].get<double>(), 1400.0 / 3600);  // 4 x 300 + 4 x 50 GPU-s
  EXPECT_EQ(preemptions["lost_share"], 0);
}

TEST(RunGuards, ATraceOptionGivesEveryJobOfATraceACheckpointInterval) {
  ScratchDir dir;
  // With a checkpoint every 90 s, long keeps 90 s of the 100 it ran when
  // short preempts it (10 s x 4 GPUs lost, under the notice's 10% of 1400),
  // and runs the 210 s left from 150 to 360.
  const std::string trace = long_and_short_trace(dir);
  const GcsimRun run = run_simulation(four_gpu_cluster(dir), "philly:" + trace, dir / "out",
                                      {"--trace-opt", "gpu_type=GPU", "--trace-opt", "checkpoint_interval=90"}, "srtf");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("gcsim: checkpoints: every job checkpoints every 90 s of work"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("notice"), std::string::npos) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_DOUBLE_EQ(rows.at("philly-2").end, 360);  // ids name the trace line
  const nlohmann::json preemptions = read_summary(dir / "out")["preemptions"];
  EXPECT_EQ(preemptions["restarts_from_zero"], 0);
  EXPECT_DOUBLE_EQ(preemptions["lost_gpu_hours"].get<double>(), 40.0 / 3600);

  const GcsimRun bad = run_simulation(four_gpu_cluster(dir), "philly:" + trace, dir / "bad",
                                      {"--trace-opt", "checkpoint_interval=0"}, "srtf");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("trace setting 'checkpoint_interval' expects a time > 0"), std::string::npos) << bad.err;
}

// long and short again, long saving its work when preempted at 100 s: it
// resumes at 150 with 200 s left and ends at 350, having lost nothing. With
// a 10 s save and a 5 s restore it keeps the 90 s done before its save
// began (10 s x 4 GPUs lost), restores from 150 to 155 and runs the 210 s
// left: it ends at 365.
TEST(RunGuards, AJobSavingAtPreemptionResumesWhereItsSaveBegan) {
  ScratchDir dir;
  struct Case {
    nlohmann::json checkpoint;
    double long_end, lost_gpu_seconds;
  };
  for (const Case& c : {Case{{{"at_preemption", true}}, 350, 0},
                        Case{{{"at_preemption", true}, {"save_cost", 10}, {"restore_cost", 5}}, 365, 40}}) {
    std::vector<nlohmann::json> jobs = long_and_short();
    jobs[0]["checkpoint"] = c.checkpoint;
    const GcsimRun run =
        run_simulation(four_gpu_cluster(dir), dir.write("jobs.json", workload_json(jobs)), dir / "out", {}, "srtf");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto rows = read_jobs_csv(dir / "out");
    EXPECT_DOUBLE_EQ(rows.at("long").end, c.long_end) << c.checkpoint;
    EXPECT_DOUBLE_EQ(rows.at("short").end, 150) << c.checkpoint;
    const nlohmann::json preemptions = read_summary(dir / "out")["preemptions"];
    EXPECT_EQ(preemptions["count"], 1);
    EXPECT_EQ(preemptions["restarts_from_zero"], 0);
    EXPECT_DOUBLE_EQ(preemptions["lost_gpu_hours"].get<double>(), c.lost_gpu_seconds / 3600) << c.checkpoint;
  }
}

TEST(RunGuards, ATraceOptionMakesEveryJobOfATraceSaveAtPreemption) {
  ScratchDir dir;
  const std::string trace = long_and_short_trace(dir);
  const GcsimRun run =
      run_simulation(four_gpu_cluster(dir), "philly:" + trace, dir / "out",
                     {"--trace-opt", "gpu_type=GPU", "--trace-opt", "checkpoint_at_preemption=true"}, "srtf");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("gcsim: checkpoints: every job saves its work when preempted"), std::string::npos) << run.err;
  EXPECT_DOUBLE_EQ(read_jobs_csv(dir / "out").at("philly-2").end, 350);

  const GcsimRun bad = run_simulation(four_gpu_cluster(dir), "philly:" + trace, dir / "bad",
                                      {"--trace-opt", "checkpoint_at_preemption=1"}, "srtf");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("trace setting 'checkpoint_at_preemption' expects true or false"), std::string::npos)
      << bad.err;
}

TEST(RunGuards, RunningOutOfMemoryBuildingAHugeClusterIsAnErrorOfItsOwn) {
  ScratchDir dir;
  const std::size_t limit = 400u << 20;  // 400 MiB of address space
  const std::string jobs = dir.write("jobs.json", workload_json({measured_job("a", 0, 4, 50)}));
  // A small run fits in the limit (not, for instance, under a sanitizer reserving its shadow memory).
  const GcsimRun small = run_gcsim_with_memory_limit({"run", "--cluster", four_gpu_cluster(dir), "--workload", jobs,
                                                      "--policy", "fifo", "--out", dir / "small", "--quiet"},
                                                     limit);
  if (small.exit_code != 0) GTEST_SKIP() << "gcsim does not start within 400 MiB here: " << small.err;

  CraftedCluster huge;  // 16 million GPUs: their layout alone outgrows the limit
  huge.nodes = 2000000;
  huge.nodes_per_rack = 16;
  const GcsimRun run = run_gcsim_with_memory_limit({"run", "--cluster", dir.write("huge.json", huge.to_json()),
                                                    "--workload", jobs, "--policy", "fifo", "--out", dir / "out"},
                                                   limit);
  EXPECT_EQ(run.exit_code, 11) << run.err;
  EXPECT_NE(run.err.find("gcsim: error: out of memory"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("policy error"), std::string::npos) << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

}  // namespace
}  // namespace gcsim::testing
