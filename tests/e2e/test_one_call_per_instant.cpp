// Everything that happens at one simulated instant reaches the policy in one
// call: the jobs ending then, however many activities each waits on, and the
// jobs arriving then. The planted policy one-call-per-instant
// (tests/plugin/planted_policies.cpp) throws when called twice at one
// instant, which gcsim reports as a policy error (exit status 3).
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// One node of 4 GPUs of 1e12 FLOP/s: a measured job's seconds are its run time.
GcsimRun run_on_four_gpus(const ScratchDir& dir, const std::vector<nlohmann::json>& jobs,
                          const std::vector<std::string>& extra = {}) {
  CraftedCluster cluster;
  cluster.gpus_per_node = 4;
  std::vector<std::string> flags = {"--plugin", GCSIM_PLANTED_POLICIES};
  flags.insert(flags.end(), extra.begin(), extra.end());
  return run_simulation(dir.write("cluster.json", cluster.to_json()), dir.write("jobs.json", workload_json(jobs)),
                        dir / "out", flags, "one-call-per-instant");
}

TEST(OneCallPerInstant, JobEndsAndAnArrivalAtOneInstantMakeOneCall) {
  const ScratchDir dir;
  // At 100 s: wide (3 GPUs, three computations to wait on) and narrow (1 GPU)
  // end, and next (all 4 GPUs) arrives; at 150 s next ends and last arrives.
  const GcsimRun run = run_on_four_gpus(dir, {measured_job("wide", 0, 3, 100), measured_job("narrow", 0, 1, 100),
                                              measured_job("next", 100, 4, 50), measured_job("last", 150, 2, 10)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_DOUBLE_EQ(rows.at("next").start, 100);
  EXPECT_DOUBLE_EQ(rows.at("next").end, 150);
  EXPECT_DOUBLE_EQ(rows.at("last").start, 150);
  EXPECT_DOUBLE_EQ(rows.at("last").end, 160);
}

TEST(OneCallPerInstant, TwoJobsEndingOnARingStepMakeOneCallThatStartsTheJobWaitingForBoth) {
  const ScratchDir dir;
  // Two identical 2-GPU training jobs on disjoint GPUs end together, each on
  // the transfers of its last ring step; the 4-GPU job waiting for both
  // starts then, in the one call that sees all 4 GPUs free.
  const nlohmann::json a = training_job("a", 0, 2, 1e12, 1e9, 3);
  const nlohmann::json b = training_job("b", 0, 2, 1e12, 1e9, 3);
  const GcsimRun run = run_on_four_gpus(dir, {a, b, measured_job("after", 0, 4, 10)}, {"--fidelity", "iteration"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_DOUBLE_EQ(rows.at("a").end, rows.at("b").end);
  EXPECT_DOUBLE_EQ(rows.at("after").start, rows.at("a").end);
  EXPECT_EQ(read_summary(dir / "out")["jobs"]["finished"], 3);
}

}  // namespace
}  // namespace gcsim::testing
