// The run of `gcsim validate` without the real tools: the plan of what runs
// or is skipped and why, measurements set against simulations on crafted
// CSV rows, and how the outcome is decided.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "sim/core/usage_error.hpp"
#include "validation/validation_run.hpp"

namespace gcsim::validation {
namespace {

constexpr double kMiB = 1048576.0;

// Tools in build folder "B", scripts in "S"; `built` names what was built.
ValidationTools tools(std::set<std::string> built) {
  ValidationTools t;
  t.gcsim = "B/app/gcsim";
  t.build = "B";
  t.scripts = "S";
  t.is_built = [built](const std::string& path) { return built.count(path) > 0; };
  return t;
}

const std::set<std::string> kEverything{"B/real/real_allreduce", "B/real/renderfarm", "B/real/cuda_ring_allreduce",
                                        "B/real/nccl_allreduce"};

std::vector<std::string> running(const std::vector<PlannedProgram>& plan) {
  std::vector<std::string> names;
  for (const PlannedProgram& p : plan)
    if (p.runs) names.push_back(p.name);
  return names;
}

TEST(ValidationPlan, EverythingBuiltRunsEveryPartInOrder) {
  const auto plan = validation_plan({}, tools(kEverything));
  EXPECT_EQ(running(plan), (std::vector<std::string>{"shaped ring allreduce", "loopback ring allreduce", "render farm",
                                                     "CUDA ring", "NCCL allreduce"}));
  EXPECT_EQ(plan[0].program, "S/real-allreduce.sh");
  EXPECT_EQ(plan[2].program, "B/real/renderfarm");
}

TEST(ValidationPlan, APartNamedBySkipIsLeftOutWithoutANote) {
  ValidationOptions options;
  options.skip = {"gpu", "shaped"};
  const auto plan = validation_plan(options, tools(kEverything));
  EXPECT_EQ(running(plan), (std::vector<std::string>{"loopback ring allreduce", "render farm"}));
  for (const PlannedProgram& p : plan) EXPECT_EQ(p.skip_note, "") << p.name;
}

TEST(ValidationPlan, AProgramNotBuiltIsSkippedSayingWhichFile) {
  const auto plan = validation_plan({}, tools({"B/real/renderfarm"}));
  ASSERT_FALSE(plan[1].runs);
  EXPECT_EQ(plan[1].skip_note, "loopback ring allreduce skipped: B/real/real_allreduce was not built");
  EXPECT_TRUE(plan[2].runs);
}

TEST(ValidationPlan, GpuProgramsNotBuiltSayWhatTheyNeedAtConfigureTime) {
  const auto plan = validation_plan({}, tools({}));
  EXPECT_EQ(plan[3].skip_note, "CUDA ring skipped: not built (needs nvcc at configure time)");
  EXPECT_EQ(plan[4].skip_note, "NCCL allreduce skipped: not built (needs nvcc and NCCL at configure time)");
}

TEST(ValidationPlan, TheShapedScriptRunsUnlessSkippedItDecidesItselfWhetherItCan) {
  const auto plan = validation_plan({}, tools({}));
  EXPECT_TRUE(plan[0].runs);
}

const std::string kHeader = "impl,ranks,bytes,iterations,time_median_s,hop_latency_s,goodput_Bps,errors\n";

// A simulation answering 1 s for every configuration, recording what it was asked.
struct FakeRing {
  std::vector<std::string> names;
  std::vector<double> goodputs;
  RingSimulation simulation() {
    return [this](const std::string& name, std::uint32_t, double, int, const RingCalibration& link) {
      names.push_back(name);
      goodputs.push_back(link.goodput_Bps);
      return 1.0;
    };
  }
};

// compare_allreduce on kHeader and `rows`, simulated by `fake`.
AllreduceComparison compare(FakeRing& fake, const std::string& rows, const std::string& experiment = "allreduce-shaped",
                            bool bounded = true, double nominal_Bps = 0) {
  return compare_allreduce(CsvTable(kHeader + rows, "crafted.csv"), experiment, bounded, nominal_Bps,
                           fake.simulation());
}

TEST(CompareAllreduce, ARingRowBecomesMeasuredAgainstSimulatedAndGcsimAgainstTheClosedForm) {
  FakeRing fake;
  const AllreduceComparison result = compare(fake, "tcp-ring,3,16777216,5,1.25,0.001,1000000,0\n");
  ASSERT_EQ(result.rows.size(), 2u);
  EXPECT_EQ(result.rows[0].experiment, "allreduce-shaped");
  EXPECT_EQ(result.rows[0].configuration, "N=3 S=16MiB");
  EXPECT_EQ(result.rows[0].reference, 1.25);
  EXPECT_EQ(result.rows[0].simulated, 1.0);
  ASSERT_TRUE(result.rows[0].bound.has_value());
  EXPECT_EQ(result.rows[0].bound->limit_pct, 2);
  // 2 (N-1) (alpha + S / (N B)) = 4 (0.001 + 16 MiB / 3 MB/s)
  EXPECT_EQ(result.rows[1].reference_kind, "closed-form");
  EXPECT_NEAR(result.rows[1].reference, 4 * (0.001 + 16 * kMiB / 3e6), 1e-9);
  EXPECT_EQ(fake.names, (std::vector<std::string>{"allreduce-shaped-3-16MiB"}));
}

TEST(CompareAllreduce, AnUnboundedExperimentHasNoBoundOnItsMeasuredRows) {
  FakeRing fake;
  const AllreduceComparison result =
      compare(fake, "tcp-ring,3,16777216,5,1.25,0.001,1000000,0\n", "allreduce-loopback", false);
  EXPECT_FALSE(result.rows[0].bound.has_value());
}

TEST(CompareAllreduce, ANominalRateAddsASimulationOnItUnbounded) {
  FakeRing fake;
  const AllreduceComparison result =
      compare(fake, "tcp-ring,2,1048576,5,0.5,0.001,1000000,0\n", "allreduce-shaped", true, 25e6);
  ASSERT_EQ(result.rows.size(), 3u);
  EXPECT_EQ(result.rows[2].experiment, "allreduce-shaped-nominal");
  EXPECT_FALSE(result.rows[2].bound.has_value());
  EXPECT_EQ(fake.goodputs, (std::vector<double>{1e6, 25e6}));
}

TEST(CompareAllreduce, AnotherImplementationOfTheSameRanksAndSizeGoesSideBySide) {
  FakeRing fake;
  const AllreduceComparison result = compare(fake,
                                             "tcp-ring,3,1048576,5,0.5,0.001,1000000,0\n"
                                             "mpi,3,1048576,5,0.4,0,0,0\n"
                                             "mpi,4,1048576,5,0.6,0,0,0\n");
  ASSERT_EQ(result.side_by_side.size(), 1u);
  EXPECT_EQ(result.side_by_side[0].configuration, "N=3 S=1MiB");
  EXPECT_EQ(result.side_by_side[0].ring_s, 0.5);
  EXPECT_EQ(result.side_by_side[0].other_s, 0.4);
  EXPECT_EQ(result.other_allreduce, "MPI_Allreduce (Open MPI)");
}

TEST(CompareAllreduce, WrongElementsAreNamedPerRow) {
  FakeRing fake;
  const AllreduceComparison result = compare(fake,
                                             "tcp-ring,3,1048576,5,0.5,0.001,1000000,2\n"
                                             "mpi,3,1048576,5,0.4,0,0,1\n");
  EXPECT_EQ(result.wrong_results,
            (std::vector<std::string>{"allreduce-shaped N=3 S=1MiB: the real allreduce produced wrong elements",
                                      "mpi N=3 S=1MiB: wrong elements in the result"}));
}

BoundCheck check(bool holds) { return {"c", "max abs error", 1, 1, 2, holds}; }

TEST(ValidationOutcome, AMissingRequiredPlotComesFirstThenAFailedRunThenABrokenBound) {
  EXPECT_EQ(validation_outcome(true, true, {check(false)}), ValidationOutcome::kNoPlot);
  EXPECT_EQ(validation_outcome(false, true, {check(false)}), ValidationOutcome::kRunFailed);
  EXPECT_EQ(validation_outcome(false, false, {check(true), check(false)}), ValidationOutcome::kBoundBroken);
  EXPECT_EQ(validation_outcome(false, false, {check(true)}), ValidationOutcome::kBoundsHold);
}

TEST(ValidationOptions, QuickRunsThreeRanksOnThreeSizesThreeTimes) {
  const ValidationOptions quick = quick_options();
  EXPECT_TRUE(quick.quick);
  EXPECT_EQ(quick.ranks, (std::vector<std::uint32_t>{3}));
  EXPECT_EQ(quick.bytes, "1MiB,16MiB,64MiB");
  EXPECT_EQ(quick.iterations, 3);
}

TEST(RateBytesPerSecond, TcUnitsAreBitsPerSecond) {
  EXPECT_EQ(rate_bytes_per_second("200mbit"), 25e6);
  EXPECT_EQ(rate_bytes_per_second("8kbit"), 1e3);
  EXPECT_THROW(rate_bytes_per_second("200MB"), UsageError);
  EXPECT_THROW(rate_bytes_per_second("-1gbit"), UsageError);
}

}  // namespace
}  // namespace gcsim::validation
