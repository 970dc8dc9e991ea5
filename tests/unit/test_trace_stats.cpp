// Trace statistics on a crafted trace whose figures are known by hand.
#include <gtest/gtest.h>

#include "tests/support/crafted_specs.hpp"
#include "traces/trace_stats.hpp"

namespace gcsim {
namespace {

JobSpec measured(const std::string& id, double submit, std::uint32_t gpus, double seconds,
                 const std::string& type = "V100") {
  JobSpec job;
  job.id = id;
  job.submit = submit;
  job.gpus = gpus;
  job.work = MeasuredWork{seconds, type};
  return job;
}

// Four jobs over 10 hours of submissions: 1 GPU x 2 h, 2 x 1 h, 4 x 3 h,
// 64 x 0.5 h (K80) = 2 + 2 + 12 + 32 = 48 GPU-hours.
TraceReadResult crafted_trace() {
  TraceReadResult trace;
  trace.format = "crafted";
  trace.rows = 12;
  trace.jobs = {measured("a", 0, 1, 7200), measured("b", 3600, 2, 3600), measured("c", 7200, 4, 10800),
                measured("d", 36000, 64, 1800, "K80")};
  trace.job_status = {"COMPLETED", "FAILED", "COMPLETED", ""};
  for (std::size_t line : {3, 5, 7, 9, 11, 13, 15})
    trace.skipped.push_back({"t.csv", line, "gpus", "zero GPUs", "", true});
  trace.skipped.push_back({"t.csv", 4, "", "CPU job", "", false});
  return trace;
}

ClusterLayout two_node_cluster() {  // 2 nodes x 8 V100 = 16 GPUs
  ClusterSpec spec;
  spec.name = "two-nodes";
  spec.gpu_types = {{"V100", 15.7e12, 32e9}};
  spec.node_groups = {testing::crafted_node_group("n", 2, 8, "V100")};
  spec.fabric.nodes_per_rack = 2;
  return ClusterLayout(spec);
}

TEST(TraceStats, CountsSpanGpuDistributionAndGpuHours) {
  const TraceStats stats = compute_trace_stats(crafted_trace(), nullptr);
  EXPECT_EQ(stats.jobs, 4u);
  EXPECT_EQ(stats.rows, 12u);
  EXPECT_EQ(stats.span(), 36000);
  EXPECT_EQ(stats.last_end, 36000 + 1800);
  EXPECT_EQ(stats.gpu_counts, (std::map<std::uint32_t, std::size_t>{{1, 1}, {2, 1}, {4, 1}, {64, 1}}));
  EXPECT_DOUBLE_EQ(stats.gpu_hours, 48);
  EXPECT_EQ(stats.run_time_min, 1800);
  EXPECT_EQ(stats.run_time_p50, 5400);  // rank 1.5 of 1800, 3600, 7200, 10800: halfway between 3600 and 7200
  EXPECT_EQ(stats.run_time_max, 10800);
  EXPECT_EQ(stats.status_counts, (std::map<std::string, std::size_t>{{"COMPLETED", 2}, {"FAILED", 1}}));
  EXPECT_FALSE(stats.capacity.has_value());
}

// A CPU job (a CSV row of cores and no GPU) has its recorded run time and no GPU-hours.
TEST(TraceStats, ACpuJobCountsItsRunTimeAndNoGpuHours) {
  TraceReadResult trace = crafted_trace();
  JobSpec etl = measured("etl", 36000, 0, 14400);
  etl.cpu_cores = 16;
  etl.work = CpuWork{14400};
  trace.jobs.push_back(etl);
  trace.job_status.push_back("");
  const TraceStats stats = compute_trace_stats(trace, nullptr);
  EXPECT_EQ(stats.jobs, 5u);
  EXPECT_EQ(stats.jobs_without_run_time, 0u);
  EXPECT_EQ(stats.gpu_counts.at(0), 1u);
  EXPECT_DOUBLE_EQ(stats.gpu_hours, 48);
  EXPECT_EQ(stats.run_time_max, 14400);
  EXPECT_EQ(stats.last_end, 36000 + 14400);
}

TEST(TraceStats, OfferedLoadAndTooLargeJobsAgainstACluster) {
  const ClusterLayout cluster = two_node_cluster();
  const TraceStats stats = compute_trace_stats(crafted_trace(), &cluster);
  ASSERT_TRUE(stats.capacity.has_value());
  EXPECT_EQ(stats.capacity->gpus, 16u);
  // 48 GPU-hours over 16 GPUs x 10 hours.
  EXPECT_DOUBLE_EQ(*stats.capacity->offered_load, 48.0 / (16 * 10));
  EXPECT_EQ(stats.capacity->jobs_larger, 1u);
  EXPECT_EQ(stats.capacity->first_larger, std::vector<std::string>{"d"});
  EXPECT_EQ(stats.capacity->jobs_unknown_gpu_type, 1u);
  EXPECT_EQ(stats.capacity->unknown_gpu_types, std::vector<std::string>{"K80"});
}

TEST(TraceStats, TheTracedMachineIsTheCapacityWithoutACluster) {
  TraceReadResult trace = crafted_trace();
  trace.machine_gpus = 128;
  const TraceStats stats = compute_trace_stats(trace, nullptr);
  ASSERT_TRUE(stats.capacity.has_value());
  EXPECT_EQ(stats.capacity->name, "the traced machine");
  EXPECT_DOUBLE_EQ(*stats.capacity->offered_load, 48.0 / (128 * 10));
  EXPECT_EQ(stats.capacity->jobs_larger, 0u);
}

TEST(TraceStats, SkippedRowsAreCountedPerReasonWithTheirFirstLines) {
  const TraceStats stats = compute_trace_stats(crafted_trace(), nullptr);
  EXPECT_EQ(stats.skipped, 8u);
  EXPECT_EQ(stats.malformed, 7u);
  ASSERT_EQ(stats.skip_reasons.size(), 2u);
  EXPECT_EQ(stats.skip_reasons[0].reason, "zero GPUs");
  EXPECT_EQ(stats.skip_reasons[0].count, 7u);
  EXPECT_EQ(stats.skip_reasons[0].first_lines, (std::vector<std::size_t>{3, 5, 7, 9, 11}));
  EXPECT_EQ(stats.skip_reasons[1].reason, "CPU job");
  EXPECT_FALSE(stats.skip_reasons[1].malformed);

  const std::string text = trace_stats_text(stats);
  EXPECT_NE(text.find("7  malformed: gpus: zero GPUs (t.csv lines 3, 5, 7, 9, 11, ...)"), std::string::npos) << text;
  const nlohmann::json doc = trace_stats_json(stats);
  EXPECT_EQ(doc["skipped"]["rows"], 8);
  EXPECT_EQ(doc["skipped"]["reasons"][0]["count"], 7);
  EXPECT_EQ(doc["gpu_counts"]["64"], 1);
}

TEST(TraceStats, ASingleInstantHasNoOfferedLoad) {
  TraceReadResult trace;
  trace.jobs = {measured("a", 0, 1, 10)};
  trace.job_status = {""};
  trace.machine_gpus = 8;
  const TraceStats stats = compute_trace_stats(trace, nullptr);
  EXPECT_FALSE(stats.capacity->offered_load.has_value());
  EXPECT_NE(trace_stats_text(stats).find("n/a"), std::string::npos);
}

}  // namespace
}  // namespace gcsim
