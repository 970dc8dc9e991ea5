// Jobs asking a fraction of a GPU (gpu_share), through `gcsim run`: they
// share GPUs, compute at their share, fit their memory beside each other, and
// policies that do not share GPUs refuse them. Every figure is counted by hand.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// One node of `gpus` GPUs of 1e12 FLOP/s and 32 GB.
std::string cluster_of(int gpus) {
  CraftedCluster cluster;
  cluster.gpus_per_node = gpus;
  return cluster.to_json();
}

nlohmann::json shared(nlohmann::json job, double share, const char* memory = nullptr) {
  job["gpu_share"] = share;
  if (memory) job["gpu_memory"] = memory;
  return job;
}

// The GPU label of a one-GPU job's placement ("n0:1" and the like).
std::string gpu_of(const JobRow& row) { return row.placement; }

class GpuSharing : public ::testing::Test {
 protected:
  GcsimRun run(int gpus, const std::vector<nlohmann::json>& jobs, const std::string& policy = "fifo",
               const std::vector<std::string>& extra = {}) {
    return run_simulation(dir_.write("cluster.json", cluster_of(gpus)), dir_.write("jobs.json", workload_json(jobs)),
                          dir_ / "out", extra, policy);
  }
  std::map<std::string, JobRow> rows() { return read_jobs_csv(dir_ / "out"); }
  ScratchDir dir_;
};

TEST_F(GpuSharing, TwoHalfGpuJobsShareOneGpuAndKeepTheirRecordedTimes) {
  // a and b (half a GPU each, 100 s measured at that share) pack onto one
  // GPU; w takes the other whole. All three run 0..100.
  const GcsimRun result = run(2, {shared(measured_job("a", 0, 1, 100), 0.5), shared(measured_job("b", 0, 1, 100), 0.5),
                                  measured_job("w", 0, 1, 100)});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto r = rows();
  EXPECT_EQ(gpu_of(r.at("a")), gpu_of(r.at("b")));
  EXPECT_NE(gpu_of(r.at("w")), gpu_of(r.at("a")));
  for (const char* id : {"a", "b", "w"}) {
    EXPECT_NEAR(r.at(id).start, 0, 1e-9) << id;
    EXPECT_NEAR(r.at(id).end, 100, 1e-6) << id;
  }
  EXPECT_DOUBLE_EQ(r.at("a").gpu_share, 0.5);
  EXPECT_DOUBLE_EQ(r.at("w").gpu_share, 1);
  // Both GPUs fully held and busy for the whole 100 s.
  const nlohmann::json summary = read_summary(dir_ / "out");
  EXPECT_NEAR(summary["gpu_utilization"]["allocated_share"].get<double>(), 1.0, 1e-9);
  EXPECT_NEAR(summary["gpu_utilization"]["busy_share"].get<double>(), 1.0, 1e-9);
}

TEST_F(GpuSharing, WholeGpusMakeTheThirdJobWait) {
  // The same jobs with --whole-gpus: a and b take a GPU each, w waits for a.
  const GcsimRun result = run(2,
                              {shared(measured_job("a", 0, 1, 100), 0.5), shared(measured_job("b", 0, 1, 100), 0.5),
                               measured_job("w", 0, 1, 100)},
                              "fifo", {"--whole-gpus"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("--whole-gpus: 2 jobs"), std::string::npos) << result.err;
  const auto r = rows();
  EXPECT_NE(gpu_of(r.at("a")), gpu_of(r.at("b")));
  EXPECT_NEAR(r.at("w").start, 100, 1e-6);
  EXPECT_NEAR(r.at("w").end, 200, 1e-6);
  EXPECT_DOUBLE_EQ(r.at("a").gpu_share, 1);
}

TEST_F(GpuSharing, AJobComputesAtItsShareWhateverItsNeighbours) {
  // One GPU of 1e12 FLOP/s. q: 10 iterations of 1e12 FLOPs at a quarter of
  // it = 40 s; t: 30 iterations at three quarters = 40 s. Together they fill
  // the GPU and neither slows the other; alone, q still takes 40 s.
  const GcsimRun result =
      run(1,
          {shared(training_job("q", 0, 1, 1e12, 0, 10), 0.25), shared(training_job("t", 0, 1, 1e12, 0, 30), 0.75),
           shared(training_job("alone", 50, 1, 1e12, 0, 10), 0.25)},
          "fifo", {"--fidelity", "iteration"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto r = rows();
  EXPECT_NEAR(r.at("q").end, 40, 1e-6);
  EXPECT_NEAR(r.at("t").end, 40, 1e-6);
  EXPECT_NEAR(r.at("alone").start, 50, 1e-9);
  EXPECT_NEAR(r.at("alone").end, 90, 1e-6);
  // Busy GPU time: 40 s of a full GPU, then 40 s of a quarter.
  EXPECT_NEAR(read_summary(dir_ / "out")["gpu_utilization"]["busy_gpu_hours"].get<double>(), 50.0 / 3600, 1e-9);
}

TEST_F(GpuSharing, SharesBeyondTheGpuWaitAndTheTimelineCountsShares) {
  // One GPU. a (0.6) runs 0..100; b (0.6) does not fit beside it and waits;
  // c (0.4) would fit, but fifo's head b blocks it: b and c run 100..200.
  const std::vector<nlohmann::json> jobs = {shared(measured_job("a", 0, 1, 100), 0.6),
                                            shared(measured_job("b", 1, 1, 100), 0.6),
                                            shared(measured_job("c", 2, 1, 100), 0.4)};
  ASSERT_EQ(run(1, jobs).exit_code, 0);
  auto r = rows();
  EXPECT_NEAR(r.at("b").start, 100, 1e-6);
  EXPECT_NEAR(r.at("c").start, 100, 1e-6);
  EXPECT_NEAR(r.at("c").end, 200, 1e-6);
  std::istringstream timeline(read_text(dir_ / "out/timeline.csv"));
  std::string line, all;
  while (std::getline(timeline, line)) all += line + "\n";
  EXPECT_NE(all.find("\n0.000000,0.6,0.6,"), std::string::npos) << all;
  EXPECT_NE(all.find("\n100.000000,1,1,"), std::string::npos) << all;

  // gang does not let the head block: c fills the GPU beside a at once.
  ASSERT_EQ(run(1, jobs, "gang").exit_code, 0);
  r = rows();
  EXPECT_NEAR(r.at("c").start, 2, 1e-9);
  EXPECT_NEAR(r.at("c").end, 102, 1e-6);
  EXPECT_NEAR(r.at("b").start, 100, 1e-6);
  EXPECT_EQ(gpu_of(r.at("a")), gpu_of(r.at("c")));
}

TEST_F(GpuSharing, BackfillKeepsTheHeadsReservationInShares) {
  // 2 GPUs. r (whole, 0..100) and h1 (half, 0..50) run; the head (both GPUs,
  // at 1) can start once both end: shadow time 100. b1 (half, 200 s, at 2)
  // fits beside h1 but would still hold half a GPU at 100: refused. b2 (half,
  // 40 s, at 3) ends before 100: it backfills at 3. The head runs 100..200,
  // then b1 200..400. Estimates are the oracle's (exact here).
  const std::vector<nlohmann::json> jobs = {measured_job("r", 0, 1, 100), shared(measured_job("h1", 0, 1, 50), 0.5),
                                            measured_job("head", 1, 2, 100), shared(measured_job("b1", 2, 1, 200), 0.5),
                                            shared(measured_job("b2", 3, 1, 40), 0.5)};
  ASSERT_EQ(run(2, jobs, "fifo-backfill").exit_code, 0);
  auto r = rows();
  EXPECT_NEAR(r.at("b2").start, 3, 1e-9);
  EXPECT_NEAR(r.at("b2").end, 43, 1e-6);
  EXPECT_NEAR(r.at("head").start, 100, 1e-6);
  EXPECT_NEAR(r.at("b1").start, 200, 1e-6);
  // fifo: b2 waits behind the head, then shares a GPU with b1 from 200.
  ASSERT_EQ(run(2, jobs, "fifo").exit_code, 0);
  EXPECT_NEAR(rows().at("b2").start, 200, 1e-6);
}

TEST_F(GpuSharing, BackfillLetsAJobShareTheHeadsGpuWhenItsShareStillFits) {
  // 1 GPU. r (0.75, 0..100) runs; the head (0.5, at 1) waits for r: shadow
  // time 100. b (0.25, 500 s, at 2) outlives the shadow time, but 0.25 beside
  // the head's 0.5 still fits once r is gone: it starts at 2. c (0.5, at 3)
  // finds no room now. At 100 the head starts beside b; c waits for the head.
  const std::vector<nlohmann::json> jobs = {
      shared(measured_job("r", 0, 1, 100), 0.75), shared(measured_job("head", 1, 1, 100), 0.5),
      shared(measured_job("b", 2, 1, 500), 0.25), shared(measured_job("c", 3, 1, 10), 0.5)};
  ASSERT_EQ(run(1, jobs, "fifo-backfill").exit_code, 0);
  const auto r = rows();
  EXPECT_NEAR(r.at("b").start, 2, 1e-9);
  EXPECT_NEAR(r.at("head").start, 100, 1e-6);
  EXPECT_NEAR(r.at("c").start, 200, 1e-6);
}

TEST_F(GpuSharing, MemoryMustFitBesideTheOtherHolders) {
  // 32 GB GPUs. Two half-GPU jobs of 20 GB each cannot share one: on a single
  // GPU the second waits for the first; 10 GB ones share.
  const auto pair_of = [](const char* memory) {
    return std::vector<nlohmann::json>{shared(measured_job("a", 0, 1, 100), 0.5, memory),
                                       shared(measured_job("b", 0, 1, 100), 0.5, memory)};
  };
  ASSERT_EQ(run(1, pair_of("20GB")).exit_code, 0);
  EXPECT_NEAR(rows().at("b").start, 100, 1e-6);
  ASSERT_EQ(run(1, pair_of("10GB")).exit_code, 0);
  EXPECT_NEAR(rows().at("b").start, 0, 1e-9);
}

TEST_F(GpuSharing, AMultiWorkerFractionalJobTakesItsShareOfDistinctGpus) {
  // Two workers at half a GPU each: on two GPUs, beside a one-worker half job.
  const GcsimRun result =
      run(2, {shared(measured_job("pair", 0, 2, 100), 0.5), shared(measured_job("one", 0, 1, 100), 0.5)});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto r = rows();
  EXPECT_NE(r.at("pair").placement.find(';'), std::string::npos) << r.at("pair").placement;
  EXPECT_NE(r.at("pair").placement.find(r.at("one").placement), std::string::npos);
  EXPECT_NEAR(r.at("one").start, 0, 1e-9);
}

TEST_F(GpuSharing, APolicyThatDoesNotShareGpusRefusesFractionalJobs) {
  const std::vector<nlohmann::json> jobs = {measured_job("whole", 0, 1, 100),
                                            shared(measured_job("half", 0, 1, 100), 0.5)};
  const GcsimRun refused = run(2, jobs, "srtf");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("jobs.json"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("jobs[1] (id 'half')"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("gpu_share"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("policy 'srtf' does not share GPUs"), std::string::npos) << refused.err;
  EXPECT_TRUE(files_in(dir_ / "out").empty());

  const GcsimRun whole = run(2, jobs, "srtf", {"--whole-gpus"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_NEAR(rows().at("half").end, 100, 1e-6);
}

TEST_F(GpuSharing, ADagJobOrAShareAboveOneIsAnInputError) {
  nlohmann::json over = shared(measured_job("over", 0, 1, 100), 1.5);
  GcsimRun result = run(1, {over});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("gpu_share"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("(0, 1]"), std::string::npos) << result.err;

  nlohmann::json zero = shared(measured_job("zero", 0, 1, 100), 0);
  result = run(1, {zero});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("gpu_share"), std::string::npos) << result.err;

  const nlohmann::json dag = {{"id", "dag"},
                              {"submit", 0},
                              {"gpu_share", 0.5},
                              {"frame_chain", {{"frames", 2}, {"elements", 1}, {"schedule", "serial"}}}};
  result = run(1, {dag});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("a DAG job's workers use whole GPUs"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace gcsim::testing
