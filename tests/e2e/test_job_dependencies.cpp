// A job that waits for others joins the queue when the last of them ends,
// plus its delay, and queues from then on: behind the jobs submitted before
// its release, whatever its own submit time.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json after(nlohmann::json job, std::vector<std::string> ids, double delay = 0) {
  job["after"] = std::move(ids);
  if (delay > 0) job["after_delay"] = delay;
  return job;
}

// One node of 8 GPUs, fifo. "other" holds 4 GPUs until 200 s; "prep" runs
// 10-60 s; "train" (8 GPUs, submitted at 0) is released at 60 + 5 = 65 s,
// after "mid" (8 GPUs) was submitted at 40 s, so "mid" runs first, 200-220,
// then "train", 220-320; "deploy" follows at 320 and ends at 350.
TEST(JobDependencies, AChainStartsWhenEachLinkEndsAndQueuesFromItsRelease) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload = dir.write(
      "jobs.json", workload_json({after(measured_job("train", 0, 8, 100), {"prep"}, 5), measured_job("prep", 10, 1, 50),
                                  measured_job("other", 0, 4, 200), measured_job("mid", 40, 8, 20),
                                  after(measured_job("deploy", 0, 1, 30), {"train"})}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out", {}, "fifo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_DOUBLE_EQ(rows.at("prep").start, 10);
  EXPECT_DOUBLE_EQ(rows.at("train").submit, 65);
  EXPECT_DOUBLE_EQ(rows.at("mid").start, 200);
  EXPECT_DOUBLE_EQ(rows.at("train").start, 220);
  EXPECT_DOUBLE_EQ(rows.at("train").wait, 155);
  EXPECT_DOUBLE_EQ(rows.at("train").jct, 255);
  EXPECT_DOUBLE_EQ(rows.at("deploy").submit, 320);
  EXPECT_DOUBLE_EQ(rows.at("deploy").end, 350);
}

// A job never released (what it waits for did not end by --until) stays pending.
TEST(JobDependencies, AJobWhoseDependencyNeverEndsIsNeverSubmitted) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload = dir.write(
      "jobs.json", workload_json({measured_job("long", 0, 1, 1000), after(measured_job("next", 0, 1, 10), {"long"})}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out", {"--until", "500"}, "fifo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_jobs_csv(dir / "out").at("next").state, "pending");
}

}  // namespace
}  // namespace gcsim::testing
