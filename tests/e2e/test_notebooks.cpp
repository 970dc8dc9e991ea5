// Notebooks hold their GPUs for their session and use them in bursts; with
// an idle timeout they give them back after a long gap and queue again for
// their next burst. Counted by hand on one node of 8 GPUs under fifo.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// Idle 600 s, busy 300; idle 1200, busy 600; idle 300: 3000 s, 900 busy.
nlohmann::json notebook(const std::string& id, double idle_timeout = 0) {
  nlohmann::json activity = {{{"idle", 600}, {"busy", 300}}, {{"idle", 1200}, {"busy", 600}}, {{"idle", 300}}};
  nlohmann::json job = {{"id", id}, {"submit", 0}, {"gpus", 2}, {"notebook", {{"activity", activity}}}};
  if (idle_timeout > 0) job["notebook"]["idle_timeout"] = idle_timeout;
  return job;
}

TEST(Notebooks, ANotebookHoldsItsGpusForItsSessionAndIdlesBetweenBursts) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload = dir.write("jobs.json", workload_json({notebook("nb")}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_DOUBLE_EQ(read_jobs_csv(dir / "out").at("nb").end, 3000);
  const nlohmann::json summary = read_summary(dir / "out");
  // 2 GPUs x 3000 s held, x 900 s busy: 6000 and 1800 GPU-seconds.
  EXPECT_NEAR(summary["notebooks"]["held_gpu_hours"].get<double>(), 6000 / 3600.0, 1e-12);
  EXPECT_NEAR(summary["notebooks"]["busy_gpu_hours"].get<double>(), 1800 / 3600.0, 1e-12);
  EXPECT_NEAR(summary["notebooks"]["idle_gpu_hours"].get<double>(), 4200 / 3600.0, 1e-12);
  EXPECT_NEAR(summary["gpu_utilization"]["busy_gpu_hours"].get<double>(), 1800 / 3600.0, 1e-12);
}

// With a 900 s timeout the notebook gives its GPUs back at 300 + 600 + 900
// = 1800 s; its next burst is due at 2100 s, but a 7-GPU job took 7 of the
// node's 8 GPUs at 1900 s until 2400 s: the burst waits 300 s, and the second
// hold runs 2400-3300 s. Held: 2 x (1800 + 900) = 5400 GPU-seconds.
TEST(Notebooks, AnIdleTimeoutReleasesTheGpusAndTheNextBurstQueuesForThem) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload =
      dir.write("jobs.json", workload_json({notebook("nb", 900), measured_job("other", 1900, 7, 500)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_DOUBLE_EQ(rows.at("nb").end, 1800);
  EXPECT_DOUBLE_EQ(rows.at("nb#2").submit, 2100);
  EXPECT_DOUBLE_EQ(rows.at("nb#2").start, 2400);
  EXPECT_DOUBLE_EQ(rows.at("nb#2").end, 3300);
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["notebooks"]["sessions"], 1);
  EXPECT_EQ(summary["notebooks"]["requeued_holds"], 1);
  EXPECT_DOUBLE_EQ(summary["notebooks"]["requeue_wait_mean_s"].get<double>(), 300);
  EXPECT_NEAR(summary["notebooks"]["held_gpu_hours"].get<double>(), 5400 / 3600.0, 1e-12);
  EXPECT_NEAR(summary["notebooks"]["idle_gpu_hours"].get<double>(), 3600 / 3600.0, 1e-12);
}

TEST(Notebooks, BadSessionsAreNamed) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  auto rejected = [&](const nlohmann::json& job, const std::vector<std::string>& parts) {
    expect_job_rejected(dir, cluster, job, parts);
  };
  nlohmann::json both = notebook("both");
  both["notebook"]["length"] = 100;
  rejected(both, {"both", "notebook", "length", "exactly one"});
  nlohmann::json share = {{"id", "share"},
                          {"submit", 0},
                          {"gpus", 1},
                          {"notebook", {{"length", "1h"}, {"busy_fraction", 1.5}, {"burst", "5min"}}}};
  rejected(share, {"share", "busy_fraction", "(0, 1]"});
  nlohmann::json timeout = notebook("timeout", 0);
  timeout["notebook"]["idle_timeout"] = 0;
  rejected(timeout, {"timeout", "idle_timeout"});
  nlohmann::json checkpoint = notebook("ckpt");
  checkpoint["checkpoint"] = {{"interval", 60}};
  rejected(checkpoint, {"ckpt", "checkpoint", "starts over"});
  checkpoint["checkpoint"] = {{"at_preemption", true}};
  rejected(checkpoint, {"ckpt", "checkpoint", "starts over"});
}

}  // namespace
}  // namespace gcsim::testing
