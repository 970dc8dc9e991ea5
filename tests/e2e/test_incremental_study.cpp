// A hyperparameter study grows as GPUs free up, shrinks to make room for a
// higher-priority job, and its preempted trials resume from their checkpoints.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

TEST(IncrementalStudy, GrowsShrinksAndResumesFromCheckpoints) {
  // 8 GPUs. Study "hpo" (priority -1): 8 one-GPU trials of 100 s, between 2
  // and 6 GPUs, a checkpoint every 20 s, 5 s to restore. Job "prod"
  // (priority 0) needs 4 GPUs for 50 s from t=30.
  ScratchDir dir;
  const GcsimRun run = run_simulation(scenario("clusters/node-8gpu-nvlink.json"), scenario("workloads/hpo-study.json"),
                                      dir / "out", {}, "incremental");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  auto expect = [&](const std::string& id, double start, double end) {
    SCOPED_TRACE(id);
    EXPECT_NEAR(rows.at(id).start, start, 1e-6);
    EXPECT_NEAR(rows.at(id).end, end, 1e-6);
  };
  // t=0: the study takes its maximum, six trials; two GPUs stay free.
  for (const char* id : {"hpo/trial-1", "hpo/trial-2", "hpo/trial-3", "hpo/trial-4"}) expect(id, 0, 100);
  // t=30: prod needs 4; the two youngest trials (5 and 6) are preempted, the
  // study keeps 4 >= its minimum. prod runs 30-80.
  expect("prod", 30, 80);
  // Trials 5 and 6 kept 20 s of work (checkpoint at 20 s, 10 s lost each) and
  // resume at 80 when prod ends: 5 s restore + 80 s of work = 165.
  expect("hpo/trial-5", 0, 165);
  expect("hpo/trial-6", 0, 165);
  // Trials 7 and 8 start when 1-4 end, at 100 (the study is at 4 of 6).
  expect("hpo/trial-7", 100, 200);
  expect("hpo/trial-8", 100, 200);
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["preemptions"]["count"].get<int>(), 2);
  EXPECT_NEAR(summary["preemptions"]["lost_gpu_hours"].get<double>(), 2 * 10 / 3600.0, 1e-12);
}

TEST(IncrementalStudy, WithoutCheckpointsPreemptedTrialsStartOver) {
  ScratchDir dir;
  nlohmann::json workload = nlohmann::json::parse(read_text(scenario("workloads/hpo-study.json")));
  workload["studies"][0].erase("checkpoint");
  const GcsimRun run = run_simulation(scenario("clusters/node-8gpu-nvlink.json"), dir.write("w.json", workload.dump()),
                                      dir / "out", {}, "incremental");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  // Preempted at 30 after 30 s of work, restarted at 80 from scratch: 80 + 100.
  EXPECT_NEAR(rows.at("hpo/trial-5").end, 180, 1e-6);
  EXPECT_NEAR(read_summary(dir / "out")["preemptions"]["lost_gpu_hours"].get<double>(), 2 * 30 / 3600.0, 1e-12);
}

}  // namespace
}  // namespace gcsim::testing
