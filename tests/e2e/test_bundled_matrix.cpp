// Every bundled workload runs under every built-in policy that accepts it,
// on the bundled cluster it was written for: a run either succeeds, or is
// refused before simulating because the policy does not share GPUs (exit 1,
// naming gpu_share), or, for the non-gang baseline alone, ends in the
// deadlock it exists to show (exit 5). And the README's comparison of seven
// policies on the default scenario works without any option.
#include <gtest/gtest.h>

#include <map>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// Workload -> the bundled cluster it is written for.
const std::map<std::string, std::string> kBundled = {{"default", "rack-32gpu"},
                                                     {"fifo-hol", "node-8gpu-nvlink"},
                                                     {"frame-chain", "rack-32gpu"},
                                                     {"gang-deadlock", "node-4gpu-pcie"},
                                                     {"hpo-study", "rack-32gpu"},
                                                     {"shared-gpus", "node-8gpu-nvlink"},
                                                     {"inference-replicas", "node-8gpu-nvlink"}};
const char* const kPolicies[] = {"fifo", "fifo-backfill", "gang", "piecemeal", "incremental",
                                 "srtf", "tiresias",      "drf",  "capacity"};
const char* const kSharingPolicies[] = {"fifo", "fifo-backfill", "gang", "drf"};

bool shares_gpus(const std::string& policy) {
  for (const char* p : kSharingPolicies)
    if (policy == p) return true;
  return false;
}

TEST(BundledMatrix, EveryWorkloadRunsUnderEveryPolicyThatAcceptsIt) {
  std::size_t succeeded = 0;
  for (const auto& [workload, cluster] : kBundled) {
    for (const std::string policy : kPolicies) {
      SCOPED_TRACE(workload + " under " + policy);
      const ScratchDir dir;
      const GcsimRun run =
          run_gcsim({"run", "--cluster", scenario("clusters/" + cluster + ".json"), "--workload",
                     scenario("workloads/" + workload + ".json"), "--policy", policy, "--out", dir / "out", "--quiet"});
      if (run.exit_code == 0) {
        ++succeeded;
        EXPECT_EQ(files_in(dir / "out").size(), 3u);
        continue;
      }
      if (run.exit_code == 1) {
        EXPECT_FALSE(shares_gpus(policy)) << run.err;
        EXPECT_NE(run.err.find("'gpu_share'"), std::string::npos) << run.err;
        EXPECT_TRUE(files_in(dir / "out").empty());
        continue;
      }
      EXPECT_EQ(run.exit_code, 5) << run.err;
      EXPECT_EQ(policy, "piecemeal") << run.err;
    }
  }
  // 7 workloads x 9 policies, less the 5 that do not share GPUs on the 2
  // workloads of fractional jobs, less piecemeal's deadlocks (the default
  // scenario's multi-GPU jobs and gang-deadlock).
  EXPECT_EQ(succeeded, 7u * 9 - 5 * 2 - 2);
}

TEST(BundledMatrix, SevenPoliciesCompareOnTheDefaultScenarioOutOfTheBox) {
  const ScratchDir dir;
  const GcsimRun run =
      run_gcsim({"compare", "--policies", "fifo,fifo-backfill,gang,capacity,tiresias,drf,srtf", "--cluster",
                 scenario("clusters/rack-32gpu.json"), "--workload", scenario("workloads/default.json"), "--out",
                 dir / "cmp", "--plots", "no", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // capacity without a configuration: a queue per queue the jobs name
  // (research, production, dev), a third of the 32 GPUs guaranteed to each.
  const nlohmann::json summary = read_summary(dir / "cmp/runs/capacity");
  ASSERT_EQ(summary["queues"].size(), 3u);
  EXPECT_EQ(summary["queues"][0]["path"], "root.research");
  EXPECT_NEAR(summary["queues"][0]["guaranteed_gpus"].get<double>(), 32.0 / 3, 1e-9);
  EXPECT_NE(read_text(dir / "cmp/comparison.csv").find("capacity,"), std::string::npos);
}

}  // namespace
}  // namespace gcsim::testing
