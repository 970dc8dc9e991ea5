// The run of `gcsim validate` without the real tools: the plan of what runs
// or is skipped and why, measurements set against simulations on crafted
// CSV rows, and how the outcome is decided.
#include <gtest/gtest.h>

#include <map>
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

const std::set<std::string> kEverything{"B/real/real_allreduce", "B/real/mpi_alltoall", "B/real/renderfarm",
                                        "B/real/cuda_ring_allreduce", "B/real/nccl_allreduce"};

std::vector<std::string> running(const std::vector<PlannedProgram>& plan) {
  std::vector<std::string> names;
  for (const PlannedProgram& p : plan)
    if (p.runs) names.push_back(p.name);
  return names;
}

// The plan's entry named `name`; a failed assertion when there is none.
PlannedProgram entry(const std::vector<PlannedProgram>& plan, const std::string& name) {
  for (const PlannedProgram& p : plan)
    if (p.name == name) return p;
  ADD_FAILURE() << "no '" << name << "' in the plan";
  return {};
}

TEST(ValidationPlan, EverythingBuiltRunsEveryPartInOrder) {
  const auto plan = validation_plan({}, tools(kEverything));
  EXPECT_EQ(running(plan),
            (std::vector<std::string>{"shaped ring allreduce", "shaped MPI all-to-all", "loopback ring allreduce",
                                      "render farm", "CUDA ring", "NCCL allreduce"}));
  EXPECT_EQ(entry(plan, "shaped ring allreduce").program, "S/real-allreduce.sh");
  EXPECT_EQ(entry(plan, "shaped MPI all-to-all").program, "B/real/mpi_alltoall");
  EXPECT_EQ(entry(plan, "shaped MPI all-to-all").part, "alltoall");
  EXPECT_EQ(entry(plan, "render farm").program, "B/real/renderfarm");
}

TEST(ValidationPlan, APartNamedBySkipIsLeftOutWithoutANote) {
  ValidationOptions options;
  options.skip = {"gpu", "shaped", "alltoall"};
  const auto plan = validation_plan(options, tools(kEverything));
  EXPECT_EQ(running(plan), (std::vector<std::string>{"loopback ring allreduce", "render farm"}));
  for (const PlannedProgram& p : plan) EXPECT_EQ(p.skip_note, "") << p.name;
}

TEST(ValidationPlan, TheAlltoallSkippedAloneLeavesTheShapedRingRunning) {
  ValidationOptions options;
  options.skip = {"alltoall"};
  const auto plan = validation_plan(options, tools(kEverything));
  EXPECT_TRUE(entry(plan, "shaped ring allreduce").runs);
  EXPECT_FALSE(entry(plan, "shaped MPI all-to-all").runs);
  EXPECT_EQ(entry(plan, "shaped MPI all-to-all").skip_note, "");
}

TEST(ValidationPlan, TheAlltoallNeedsTheShapedPartItRunsWithin) {
  ValidationOptions options;
  options.skip = {"shaped"};
  const PlannedProgram alltoall = entry(validation_plan(options, tools(kEverything)), "shaped MPI all-to-all");
  EXPECT_FALSE(alltoall.runs);
  EXPECT_EQ(alltoall.skip_note,
            "shaped MPI all-to-all skipped: it runs on the shaped part's links and calibration (--skip shaped)");
}

TEST(ValidationPlan, AProgramNotBuiltIsSkippedSayingWhichFile) {
  const auto plan = validation_plan({}, tools({"B/real/renderfarm"}));
  ASSERT_FALSE(entry(plan, "loopback ring allreduce").runs);
  EXPECT_EQ(entry(plan, "loopback ring allreduce").skip_note,
            "loopback ring allreduce skipped: B/real/real_allreduce was not built");
  EXPECT_TRUE(entry(plan, "render farm").runs);
}

TEST(ValidationPlan, ProgramsNotBuiltSayWhatTheyNeedAtConfigureTime) {
  const auto plan = validation_plan({}, tools({}));
  EXPECT_EQ(entry(plan, "CUDA ring").skip_note, "CUDA ring skipped: not built (needs nvcc at configure time)");
  EXPECT_EQ(entry(plan, "NCCL allreduce").skip_note,
            "NCCL allreduce skipped: not built (needs nvcc and NCCL at configure time)");
  EXPECT_EQ(entry(plan, "shaped MPI all-to-all").skip_note,
            "shaped MPI all-to-all skipped: not built (needs Open MPI at configure time)");
}

TEST(ValidationPlan, TheShapedScriptRunsUnlessSkippedItDecidesItselfWhetherItCan) {
  const auto plan = validation_plan({}, tools({}));
  EXPECT_TRUE(entry(plan, "shaped ring allreduce").runs);
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

const std::string kAlltoallHeader = "impl,ranks,bytes,block_bytes,time_median_s,errors\n";

// A simulation answering 0.5 s for every all-to-all, recording what it was asked.
struct FakeAlltoall {
  std::vector<std::string> names;
  std::vector<double> blocks;
  std::vector<double> goodputs;
  AlltoallSimulation simulation() {
    return [this](const std::string& name, std::uint32_t, double block, const RingCalibration& link) {
      names.push_back(name);
      blocks.push_back(block);
      goodputs.push_back(link.goodput_Bps);
      return 0.5;
    };
  }
};

AlltoallComparison compare_alltoall_rows(FakeAlltoall& fake, const std::string& rows) {
  const std::map<std::uint32_t, RingCalibration> links{{3, {0.001, 1e6}}, {4, {0.002, 2e6}}};
  return compare_alltoall(CsvTable(kAlltoallHeader + rows, "alltoall.csv"), links, fake.simulation());
}

TEST(CompareAlltoall, ARowBecomesMeasuredAgainstSimulatedOnItsRanksLinksAndGcsimAgainstTheClosedForm) {
  FakeAlltoall fake;
  const AlltoallComparison result = compare_alltoall_rows(fake, "mpi-alltoall,3,16777216,5592404,0.48,0\n");
  ASSERT_EQ(result.rows.size(), 2u);
  EXPECT_EQ(result.rows[0].experiment, "alltoall-shaped");
  EXPECT_EQ(result.rows[0].configuration, "N=3 S=16MiB");
  EXPECT_EQ(result.rows[0].reference, 0.48);
  EXPECT_EQ(result.rows[0].simulated, 0.5);
  ASSERT_TRUE(result.rows[0].bound.has_value());
  EXPECT_EQ(result.rows[0].bound->limit_pct, 3);
  // alpha + (N-1) block / B = 0.001 + 2 x 5592404 / 1 MB/s
  EXPECT_EQ(result.rows[1].experiment, "gcsim-vs-closed-form");
  EXPECT_EQ(result.rows[1].configuration, "alltoall-shaped N=3 S=16MiB");
  EXPECT_EQ(result.rows[1].reference_kind, "closed-form");
  EXPECT_NEAR(result.rows[1].reference, 0.001 + 2 * 5592404 / 1e6, 1e-9);
  EXPECT_EQ(fake.names, (std::vector<std::string>{"alltoall-shaped-3-16MiB"}));
  EXPECT_EQ(fake.blocks, (std::vector<double>{5592404}));  // the blocks sent, not S / N
  EXPECT_EQ(fake.goodputs, (std::vector<double>{1e6}));
  EXPECT_TRUE(result.wrong_results.empty());
}

TEST(CompareAlltoall, SizesBelow16MiBAreReportedNotBoundedAndEachRowTakesItsRanksLink) {
  FakeAlltoall fake;
  const AlltoallComparison result = compare_alltoall_rows(fake, "mpi-alltoall,4,1048576,262144,0.2,0\n");
  EXPECT_FALSE(result.rows[0].bound.has_value());
  EXPECT_EQ(fake.goodputs, (std::vector<double>{2e6}));
}

TEST(CompareAlltoall, ARowOfRanksTheRingDidNotCalibrateIsAnErrorNamingItsLine) {
  FakeAlltoall fake;
  try {
    compare_alltoall_rows(fake, "mpi-alltoall,3,1048576,349524,0.2,0\nmpi-alltoall,5,1048576,209712,0.2,0\n");
    FAIL() << "ranks without a calibration must be an error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "alltoall.csv: line 3: no ring calibration of 5 ranks to simulate the all-to-all on");
  }
}

TEST(CompareAlltoall, WrongElementsAreNamedPerRow) {
  FakeAlltoall fake;
  const AlltoallComparison result = compare_alltoall_rows(fake, "mpi-alltoall,4,16777216,4194304,0.6,12\n");
  EXPECT_EQ(result.wrong_results,
            (std::vector<std::string>{"alltoall-shaped N=4 S=16MiB: the real all-to-all received wrong elements"}));
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
