// The same inputs and seed give byte-identical outputs.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

TEST(Determinism, RepeatedRunsWriteIdenticalFiles) {
  for (const std::string fidelity : {"job", "iteration"}) {
    SCOPED_TRACE(fidelity);
    ScratchDir dir;
    for (const std::string run : {"first", "second"}) {
      const GcsimRun result = run_simulation(scenario("clusters/rack-32gpu.json"), scenario("workloads/default.json"),
                                             dir / run, {"--seed", "7", "--fidelity", fidelity, "--no-wall-time"});
      ASSERT_EQ(result.exit_code, 0) << result.err;
    }
    for (const std::string file : {"summary.json", "jobs.csv", "timeline.csv"}) {
      const std::string first = read_text(dir / ("first/" + file));
      EXPECT_FALSE(first.empty()) << file;
      EXPECT_EQ(first, read_text(dir / ("second/" + file))) << file;
    }
  }
}

TEST(Determinism, OnlyWallTimeDiffersWhenItIsReported) {
  ScratchDir dir;
  for (const std::string run : {"first", "second"})
    ASSERT_EQ(
        run_simulation(scenario("clusters/rack-32gpu.json"), scenario("workloads/default.json"), dir / run).exit_code,
        0);
  nlohmann::json first = read_summary(dir / "first"), second = read_summary(dir / "second");
  ASSERT_TRUE(first.contains("wall_time_s"));
  first.erase("wall_time_s");
  second.erase("wall_time_s");
  EXPECT_EQ(first, second);
  EXPECT_EQ(read_text(dir / "first/jobs.csv"), read_text(dir / "second/jobs.csv"));
}

}  // namespace
}  // namespace gcsim::testing
