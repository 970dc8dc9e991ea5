// GPU memory use past a job's ask: with isolation the job fails itself when
// it grows past its limit; without, whichever job's allocation does not fit
// beside its neighbours' at that moment fails. Counted by hand on one node of
// 8 GPUs of 32 GB under fifo, three jobs of 0.3 GPU packed on GPU 0.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json shared(const std::string& id, double submit, double seconds) {
  nlohmann::json job = measured_job(id, submit, 1, seconds);
  job["gpu_share"] = 0.3;
  job["gpu_memory"] = "8GB";
  return job;
}

// "greedy" asks 8 GB and uses 20 GB from 100 s into its run; "neighbour"
// (from 50 s) and "late" (from 200 s) use their 8 GB; "next" waits for greedy.
std::vector<nlohmann::json> workload() {
  nlohmann::json greedy = shared("greedy", 0, 1000);
  greedy["gpu_memory_use"] = {{{"at", 0}, {"bytes", "8GB"}}, {{"at", 100}, {"bytes", "20GB"}}};
  nlohmann::json next = measured_job("next", 0, 1, 10);
  next["after"] = {"greedy"};
  return {greedy, shared("neighbour", 50, 1000), shared("late", 200, 100), next};
}

GcsimRun run_with(const ScratchDir& dir, const std::string& isolation) {
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto jobs = dir.write("jobs.json", workload_json(workload()));
  return run_simulation(cluster, jobs, dir / "out", {"--gpu-memory-isolation", isolation});
}

TEST(GpuMemory, WithIsolationTheJobPastItsAskFailsAtThatInstantAndTakesItsDependantsWithIt) {
  ScratchDir dir;
  const GcsimRun run = run_with(dir, "on");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_EQ(rows.at("greedy").state, "failed");
  EXPECT_DOUBLE_EQ(rows.at("greedy").end, 100);
  EXPECT_EQ(rows.at("neighbour").state, "finished");
  EXPECT_EQ(rows.at("late").state, "finished");
  EXPECT_EQ(rows.at("next").state, "failed");
  EXPECT_NE(read_text(dir / "out/jobs.csv").find("dependency:greedy"), std::string::npos);
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["failures"]["out_of_memory"], 1);
  EXPECT_EQ(summary["failures"]["dependency"], 1);
  // 100 s of 0.3 GPU thrown away.
  EXPECT_NEAR(summary["failures"]["lost_gpu_hours"].get<double>(), 100 * 0.3 / 3600, 1e-12);
}

TEST(GpuMemory, WithoutIsolationTheGreedyJobGoesOnAndTheNeighbourThatArrivesFails) {
  ScratchDir dir;
  const GcsimRun run = run_with(dir, "off");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  // 20 + 8 GB fit in 32; at 200 s late's 8 GB more do not: it fails at its start.
  EXPECT_EQ(rows.at("greedy").state, "finished");
  EXPECT_EQ(rows.at("neighbour").state, "finished");
  EXPECT_EQ(rows.at("late").state, "failed");
  EXPECT_DOUBLE_EQ(rows.at("late").end, 200);
  EXPECT_EQ(rows.at("next").state, "finished");
  EXPECT_DOUBLE_EQ(rows.at("next").start, 1000);
}

TEST(GpuMemory, AProfileNoGpuCanHoldOrOutOfOrderIsRejected) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  nlohmann::json huge = measured_job("huge", 0, 1, 10);
  huge["gpu_memory_use"] = {{{"at", 0}, {"bytes", "8GB"}}, {{"at", 60}, {"bytes", "64GB"}}};
  GcsimRun run = run_simulation(cluster, dir.write("a.json", workload_json({huge})), dir / "out");
  EXPECT_EQ(run.exit_code, 1);
  for (const char* part : {"a.json", "huge", "gpu_memory_use", "largest GPU memory"})
    EXPECT_NE(run.err.find(part), std::string::npos) << part << ": " << run.err;
  nlohmann::json backwards = measured_job("backwards", 0, 1, 10);
  backwards["gpu_memory_use"] = {{{"at", 60}, {"bytes", "8GB"}}, {{"at", 30}, {"bytes", "9GB"}}};
  run = run_simulation(cluster, dir.write("b.json", workload_json({backwards})), dir / "out");
  EXPECT_EQ(run.exit_code, 1);
  for (const char* part : {"b.json", "backwards", "gpu_memory_use[1]", "at", "increasing"})
    EXPECT_NE(run.err.find(part), std::string::npos) << part << ": " << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

}  // namespace
}  // namespace gcsim::testing
