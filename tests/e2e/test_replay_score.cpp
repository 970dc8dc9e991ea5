// `gcsim validate --trace` scores a replay against the recorded schedule, and
// `--startup-latency` holds each run's GPUs idle before its work: crafted
// traces on one GPU whose schedules are counted by hand.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string one_gpu(const ScratchDir& dir) {
  CraftedCluster crafted;
  crafted.gpus_per_node = 1;
  return dir.write("cluster.json", crafted.to_json());
}

// Two jobs submitted at 0 on one GPU: a recorded running 10..110, b 110..160.
const std::string kRecorded = "id,submit,start,end,gpus\na,0,10,110,1\nb,0,110,160,1\n";
const std::string kRecordedMap = "map=id=id,submit=submit,start=start,end=end,gpus=gpus";

std::vector<std::string> score_args(const std::string& cluster, const std::string& trace, const std::string& out,
                                    const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"validate",     "--trace", trace, "--cluster",   cluster,      "--policy",
                                   "fifo",         "--out",   out,   "--trace-opt", kRecordedMap, "--trace-opt",
                                   "gpu_type=GPU", "--plots", "no",  "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(StartupLatency, TheSecondJobOnOneGpuWaitsForTheFirstsLatencyAndRunsAfterItsOwn) {
  ScratchDir dir;
  const std::string cluster = one_gpu(dir);
  const std::string trace = "csv:" + dir.write("jobs.csv", "id,submit,ran,gpus\na,0,100,1\nb,0,50,1\n");
  const std::vector<std::string> opts = {"--trace-opt", "map=id=id,submit=submit,duration=ran,gpus=gpus", "--trace-opt",
                                         "gpu_type=GPU"};
  const GcsimRun plain = run_simulation(cluster, trace, dir / "plain", opts);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  auto jobs = read_jobs_csv(dir / "plain");
  EXPECT_EQ(jobs.at("a").end, 100);
  EXPECT_EQ(jobs.at("b").start, 100);
  EXPECT_EQ(jobs.at("b").end, 150);

  std::vector<std::string> latency = opts;
  latency.insert(latency.end(), {"--startup-latency", "30"});
  const GcsimRun delayed = run_simulation(cluster, trace, dir / "delayed", latency);
  ASSERT_EQ(delayed.exit_code, 0) << delayed.err;
  jobs = read_jobs_csv(dir / "delayed");
  // a holds the GPU 0..130 (30 s starting, 100 s running); b gets it at 130, starts 30 s, runs 50 s.
  EXPECT_EQ(jobs.at("a").start, 0);
  EXPECT_EQ(jobs.at("a").end, 130);
  EXPECT_EQ(jobs.at("b").start, 130);
  EXPECT_EQ(jobs.at("b").wait, 130);
  EXPECT_EQ(jobs.at("b").end, 210);
}

TEST(StartupLatency, ZeroLatencyChangesNoOutput) {
  ScratchDir dir;
  const std::string cluster = one_gpu(dir);
  const std::string trace = "csv:" + dir.write("jobs.csv", kRecorded);
  const std::vector<std::string> opts = {"--trace-opt", kRecordedMap, "--trace-opt", "gpu_type=GPU", "--no-wall-time"};
  ASSERT_EQ(run_simulation(cluster, trace, dir / "plain", opts).exit_code, 0);
  std::vector<std::string> zero = opts;
  zero.insert(zero.end(), {"--startup-latency", "0"});
  ASSERT_EQ(run_simulation(cluster, trace, dir / "zero", zero).exit_code, 0);
  for (const char* file : {"jobs.csv", "timeline.csv", "summary.json"})
    EXPECT_EQ(read_text(dir / "plain" + "/" + file), read_text(dir / "zero" + "/" + file)) << file;
}

TEST(StartupLatency, DrawnModelsGiveTheirHandCountedFigures) {
  ScratchDir dir;
  const std::string cluster = one_gpu(dir);
  const std::string trace = "csv:" + dir.write("jobs.csv", "id,submit,ran,gpus\na,0,100,1\n");
  const std::vector<std::string> opts = {"--trace-opt", "map=id=id,submit=submit,duration=ran,gpus=gpus", "--trace-opt",
                                         "gpu_type=GPU"};
  // A lognormal of sigma 0 is its median e^MU: e^0 = 1 s.
  std::vector<std::string> lognormal = opts;
  lognormal.insert(lognormal.end(), {"--startup-latency", "lognormal:0:0", "--startup-seed", "3"});
  ASSERT_EQ(run_simulation(cluster, trace, dir / "lognormal", lognormal).exit_code, 0);
  EXPECT_DOUBLE_EQ(read_jobs_csv(dir / "lognormal").at("a").end, 101);
  // An empirical file of one latency draws it every time.
  const std::string file = dir.write("latency.txt", "# seconds\n20\n");
  std::vector<std::string> empirical = opts;
  empirical.insert(empirical.end(), {"--startup-latency", "empirical:" + file});
  ASSERT_EQ(run_simulation(cluster, trace, dir / "empirical", empirical).exit_code, 0);
  EXPECT_EQ(read_jobs_csv(dir / "empirical").at("a").end, 120);
}

TEST(StartupLatency, ABadModelIsAUsageErrorNamingTheFlag) {
  ScratchDir dir;
  const std::string cluster = one_gpu(dir);
  const std::string trace = "csv:" + dir.write("jobs.csv", kRecorded);
  for (const char* bad : {"-5", "lognormal:1", "lognormal:x:1", "soon", "empirical:"}) {
    const GcsimRun run =
        run_simulation(cluster, trace, dir / "out", {"--trace-opt", kRecordedMap, "--startup-latency", bad});
    EXPECT_EQ(run.exit_code, 2) << bad;
    EXPECT_TRUE(has(run.err, "'--startup-latency'")) << run.err;
  }
  const std::string empty = dir.write("empty.txt", "# nothing\n");
  const GcsimRun run = run_simulation(cluster, trace, dir / "out",
                                      {"--trace-opt", kRecordedMap, "--startup-latency", "empirical:" + empty});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(has(run.err, "empty.txt")) << run.err;
}

TEST(StartupLatency, ARunPreemptedWhileStartingLosesNoWorkAndStartsUpAgain) {
  // One GPU, latency 30 s. The spot job a is placed at 0 and still starting
  // when the guaranteed b arrives at 10 and takes its GPU: b starts up until
  // 40 and runs to 90; a gets the GPU back at 90, starts up again to 120 and
  // runs its 100 s to 220. It had done no work: nothing is lost.
  ScratchDir dir;
  const std::string cluster = one_gpu(dir);
  const std::string trace = "csv:" + dir.write("jobs.csv", "id,submit,ran,gpus,qos\na,0,100,1,BE\nb,10,50,1,LS\n");
  const GcsimRun run = run_simulation(cluster, trace, dir / "out",
                                      {"--trace-opt", "map=id=id,submit=submit,duration=ran,gpus=gpus,qos=qos",
                                       "--trace-opt", "gpu_type=GPU", "--startup-latency", "30"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  EXPECT_EQ(jobs.at("b").start, 10);
  EXPECT_EQ(jobs.at("b").end, 90);
  EXPECT_EQ(jobs.at("a").start, 0);
  EXPECT_EQ(jobs.at("a").preemptions, 1);
  EXPECT_EQ(jobs.at("a").end, 220);
  EXPECT_EQ(read_summary(dir / "out")["preemptions"]["lost_gpu_hours"], 0);
}

TEST(ReplayScore, WaitsOfTwoJobsOnOneGpuScoredAgainstTheRecordedSchedule) {
  ScratchDir dir;
  const std::string cluster = one_gpu(dir);
  const std::string trace = "csv:" + dir.write("jobs.csv", kRecorded);
  const GcsimRun run = run_gcsim(score_args(cluster, trace, dir / "out"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // Simulated: a waits 0 and runs 100 s, b waits 100; recorded 10 and 110.
  const nlohmann::json score = nlohmann::json::parse(read_text(dir / "out/score.json"));
  const nlohmann::json& waits = score["waits"];
  EXPECT_EQ(waits["jobs"], 2);
  EXPECT_DOUBLE_EQ(waits["mean_wait_s"]["simulated"].get<double>(), 50);
  EXPECT_DOUBLE_EQ(waits["mean_wait_s"]["recorded"].get<double>(), 60);
  EXPECT_DOUBLE_EQ(waits["mean_wait_relative_error"].get<double>(), -10.0 / 60);
  EXPECT_DOUBLE_EQ(waits["abs_wait_error_s"]["p90"].get<double>(), 10);
  EXPECT_DOUBLE_EQ(waits["within_60s"].get<double>(), 1);
  // At 0 the simulated CDF is 1/2, the recorded 0.
  EXPECT_DOUBLE_EQ(waits["ks_distance"].get<double>(), 0.5);
  EXPECT_EQ(read_text(dir / "out/score_jobs.csv"),
            "id,user,queue,gpus,submit,recorded_wait,simulated_wait,abs_error\n"
            "a,unknown,unknown,1,0,10,0,10\n"
            "b,unknown,unknown,1,0,110,100,10\n");
  // Recorded GPUs: 1 from 10 to 160; simulated: 1 from 0 to 150.
  EXPECT_EQ(read_text(dir / "out/score_gpus.csv"), "time,simulated,recorded\n0,1,0\n10,1,1\n150,0,1\n160,0,0\n");
  EXPECT_TRUE(has(read_text(dir / "out/score.md"), "| all | 2 | 50.0 | 60.0 | -16.7% |"));
}

TEST(ReplayScore, AStartUpLatencyCountsInTheSimulatedWaitAndTheNextJobs) {
  ScratchDir dir;
  const std::string cluster = one_gpu(dir);
  const std::string trace = "csv:" + dir.write("jobs.csv", kRecorded);
  const GcsimRun run = run_gcsim(score_args(cluster, trace, dir / "out", {"--startup-latency", "10"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // a begins its work at 10, ends 110; b gets the GPU at 110, begins at 120: waits 10 and 120.
  EXPECT_EQ(read_text(dir / "out/score_jobs.csv"),
            "id,user,queue,gpus,submit,recorded_wait,simulated_wait,abs_error\n"
            "a,unknown,unknown,1,0,10,10,0\n"
            "b,unknown,unknown,1,0,110,120,10\n");
  const nlohmann::json score = nlohmann::json::parse(read_text(dir / "out/score.json"));
  EXPECT_DOUBLE_EQ(score["waits"]["mean_wait_relative_error"].get<double>(), 5.0 / 60);
  EXPECT_EQ(score["startup_latency"], "10");
}

TEST(ReplayScore, ATraceWithoutRecordedStartsIsAnInputErrorNamingTheFile) {
  ScratchDir dir;
  const std::string cluster = one_gpu(dir);
  const std::string trace = "csv:" + dir.write("durations.csv", "id,submit,ran,gpus\na,0,100,1\n");
  const GcsimRun run = run_gcsim({"validate", "--trace", trace, "--cluster", cluster, "--policy", "fifo", "--out",
                                  dir / "out", "--trace-opt", "map=id=id,submit=submit,duration=ran,gpus=gpus",
                                  "--trace-opt", "gpu_type=GPU", "--plots", "no"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(has(run.err, "durations.csv")) << run.err;
  EXPECT_TRUE(has(run.err, "records no job's start")) << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

TEST(ReplayScore, TraceFitWritesTheRecordedWaitsAsAStartUpLatencyFile) {
  ScratchDir dir;
  const std::string trace =
      dir.write("jobs.csv", "id,submit,start,end,gpus\na,0,10,110,1\nb,0,110,160,1\nc,5,5,50,1\n");
  const GcsimRun fit =
      run_gcsim({"trace", "fit", trace, "--format", "csv", "--map", "id=id,submit=submit,start=start,end=end,gpus=gpus",
                 "--out", dir / "gen.json", "--startup-latency-out", dir / "latency.txt"});
  ASSERT_EQ(fit.exit_code, 0) << fit.err;
  // The waits 10, 110 and 0, sorted, after two comment lines.
  const std::string file = read_text(dir / "latency.txt");
  EXPECT_EQ(file.substr(file.find("\n", file.find("\n") + 1) + 1), "0\n10\n110\n");
  // A trace recording no start has none to give.
  const std::string durations = dir.write("durations.csv", "id,submit,ran,gpus\na,0,100,1\nb,5,10,1\n");
  const GcsimRun none =
      run_gcsim({"trace", "fit", durations, "--format", "csv", "--map", "id=id,submit=submit,duration=ran,gpus=gpus",
                 "--out", dir / "gen2.json", "--startup-latency-out", dir / "latency2.txt"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_TRUE(has(none.err, "durations.csv")) << none.err;
  EXPECT_TRUE(has(none.err, "records no job's start")) << none.err;
}

TEST(ReplayScore, ANativeWorkloadIsNotATraceToScore) {
  ScratchDir dir;
  const std::string cluster = one_gpu(dir);
  const GcsimRun run = run_gcsim({"validate", "--trace", dir / "w.json", "--cluster", cluster, "--policy", "fifo"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(has(run.err, "'--trace' expects FORMAT:FILE")) << run.err;
}

TEST(ReplayScore, TheMicrobenchmarksOptionsAndTheScoresDoNotMix) {
  const GcsimRun scored = run_gcsim({"validate", "--trace", "csv:jobs.csv", "--quick"});
  EXPECT_EQ(scored.exit_code, 2);
  EXPECT_TRUE(has(scored.err, "option '--quick' applies to the microbenchmarks, not with --trace")) << scored.err;
  const GcsimRun benchmarks = run_gcsim({"validate", "--cluster", "c.json"});
  EXPECT_EQ(benchmarks.exit_code, 2);
  EXPECT_TRUE(has(benchmarks.err, "option '--cluster' applies with --trace FORMAT:FILE only")) << benchmarks.err;
}

}  // namespace
}  // namespace gcsim::testing
