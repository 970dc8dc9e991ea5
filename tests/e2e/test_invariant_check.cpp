// gcsim run --check audits every instant's events and every plan: a broken
// invariant stops the run with status 16, a message naming the invariant,
// what it followed, the time and the jobs, and no outputs. The planted
// policy miscounts (tests/plugin/planted_policies.cpp) keeps a count of the
// GPUs its jobs hold that forgets ended jobs.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

TEST(InvariantCheck, APolicysBrokenBookkeepingStopsTheRunNamingTheInvariantTimeAndJobs) {
  const ScratchDir dir;
  // One node of 8 GPUs: a (4 GPUs) runs 0..100, b (2 GPUs) 0..300. At 100 s
  // the policy still counts a's GPUs: 6 counted, 2 held, by b.
  const GcsimRun run = run_simulation(
      dir.write("cluster.json", CraftedCluster{}.to_json()),
      dir.write("jobs.json", workload_json({measured_job("a", 0, 4, 100), measured_job("b", 0, 2, 300)})), dir / "out",
      {"--plugin", GCSIM_PLANTED_POLICIES, "--check"}, "miscounts");
  EXPECT_EQ(run.exit_code, 16) << run.err;
  EXPECT_NE(run.err.find("invariant 'queue-usage' broken after the policy's call at t=100 s"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("counts 6 GPUs held; 2 are; jobs: 'b'"), std::string::npos) << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

TEST(InvariantCheck, TheSamePolicyRunsToItsEndUnchecked) {
  const ScratchDir dir;
  // What --check found is the policy's own bookkeeping: the schedule itself
  // is a possible one, and without the audit the run ends as usual.
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const std::string jobs =
      dir.write("jobs.json", workload_json({measured_job("a", 0, 4, 100), measured_job("b", 0, 2, 300)}));
  const GcsimRun run = run_gcsim({"run", "--cluster", cluster, "--workload", jobs, "--policy", "miscounts", "--plugin",
                                  GCSIM_PLANTED_POLICIES, "--out", dir / "out", "--quiet"},
                                 /*audited=*/false);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_DOUBLE_EQ(read_jobs_csv(dir / "out").at("b").end, 300);
}

}  // namespace
}  // namespace gcsim::testing
