// The progress line of `gcsim run`: on standard error when asked for (or,
// by default, when it is a terminal), ending with every job ended; never in
// a pipe by default, so that logs and tests read only what they expect.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

GcsimRun run_default(const ScratchDir& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run",
                                   "--cluster",
                                   scenario("clusters/rack-32gpu.json"),
                                   "--workload",
                                   scenario("workloads/default.json"),
                                   "--policy",
                                   "fifo",
                                   "--out",
                                   dir / "out"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_gcsim(args);
}

TEST(ProgressLine, AskedForItEndsWithEveryJobEnded) {
  ScratchDir dir;
  const GcsimRun run = run_default(dir, {"--quiet", "--progress", "always"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The default workload has 40 jobs; the last report ends the line.
  const std::string last = run.err.substr(run.err.rfind('\r') + 1);
  EXPECT_EQ(last.rfind("gcsim: simulated ", 0), 0u) << last;
  EXPECT_NE(last.find(" | jobs 40/40 | "), std::string::npos) << last;
  EXPECT_NE(last.find(" | done in "), std::string::npos) << last;
  EXPECT_EQ(last.back(), '\n');
}

TEST(ProgressLine, NotInAPipeByDefaultNorWhenToldNever) {
  ScratchDir dir;
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"--progress", "never"}}) {
    const GcsimRun run = run_default(dir, extra);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err.find("simulated "), std::string::npos) << run.err;
  }
  const GcsimRun bad = run_default(dir, {"--progress", "sometimes"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("'--progress' must be 'auto', 'always' or 'never'"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace gcsim::testing
