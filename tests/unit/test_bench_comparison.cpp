// Verdicts of `gcsim bench`: a change within max(absolute, relative x
// |baseline|) passes; beyond it, the direction that is worse for the metric
// regresses and the other improves; metrics are found by dotted paths.
#include "sim/report/bench_comparison.hpp"

#include <gtest/gtest.h>

namespace gcsim {
namespace {

TEST(BenchVerdicts, ToleranceIsTheLargerOfAbsoluteAndRelative) {
  const BenchMetric jct{"jct_s.mean", Better::kLower, 0.01, 2};
  EXPECT_EQ(judge(jct, 100, 100).status, BenchStatus::kSame);
  EXPECT_EQ(judge(jct, 100, 102).status, BenchStatus::kWithin);  // 2 allowed, not 1
  EXPECT_EQ(judge(jct, 100, 102.5).status, BenchStatus::kRegressed);
  EXPECT_EQ(judge(jct, 100, 97.5).status, BenchStatus::kImproved);
  EXPECT_DOUBLE_EQ(judge(jct, 1000, 1000).allowed, 10);  // 1% of 1000 beats 2
  EXPECT_EQ(judge(jct, 1000, 1010).status, BenchStatus::kWithin);
  EXPECT_EQ(judge(jct, -1000, -989).status, BenchStatus::kRegressed);  // |baseline|
}

TEST(BenchVerdicts, TheWorseDirectionDependsOnTheMetric) {
  const BenchMetric utilization{"gpu_utilization.busy_share", Better::kHigher, 0, 0};
  EXPECT_EQ(judge(utilization, 0.5, 0.4).status, BenchStatus::kRegressed);
  EXPECT_EQ(judge(utilization, 0.5, 0.6).status, BenchStatus::kImproved);
  const BenchMetric exact{"deadlock.detected_at_s", Better::kEqual, 0, 0};
  EXPECT_EQ(judge(exact, 240, 241).status, BenchStatus::kRegressed);
  EXPECT_EQ(judge(exact, 240, 239).status, BenchStatus::kRegressed);
  EXPECT_EQ(judge(exact, 240, 240).status, BenchStatus::kSame);
}

TEST(BenchMetricValue, DottedPathsIndexObjectsAndArrays) {
  const nlohmann::json summary = nlohmann::json::parse(R"({
    "jct_s": {"mean": 12.5}, "deadlock": null, "jobs": {"finished": 3},
    "serving": [{"latency_s": {"p99": 0.25}}, {"latency_s": {"p99": 0.5}}], "policy": "fifo"})");
  EXPECT_EQ(metric_value(summary, "jct_s.mean"), 12.5);
  EXPECT_EQ(metric_value(summary, "jobs.finished"), 3);
  EXPECT_EQ(metric_value(summary, "serving.1.latency_s.p99"), 0.5);
  EXPECT_EQ(metric_value(summary, "serving.2.latency_s.p99"), std::nullopt);
  EXPECT_EQ(metric_value(summary, "serving.x.latency_s.p99"), std::nullopt);
  EXPECT_EQ(metric_value(summary, "jct_s.median"), std::nullopt);
  EXPECT_EQ(metric_value(summary, "deadlock.detected_at_s"), std::nullopt);
  EXPECT_EQ(metric_value(summary, "policy"), std::nullopt);
  EXPECT_EQ(metric_value(summary, "jct_s"), std::nullopt);
}

TEST(BenchReports, NameEveryMetricItsChangeAndVerdict) {
  BenchVerdict v = judge({"jct_s.mean", Better::kLower, 0, 0}, 145, 205);
  v.scenario = "small";
  const std::string md = bench_markdown({v}, {{"small", 2.0, 1.0}});
  EXPECT_NE(md.find("| small | jct_s.mean | lower | 145 | 205 | +60 (+41.38%) | 0 | **regressed** |"),
            std::string::npos)
      << md;
  const nlohmann::json report = nlohmann::json::parse(bench_json({v}, {{"small", 2.0, 1.0}}));
  EXPECT_EQ(report["regressed"], 1);
  EXPECT_EQ(report["metrics"][0]["change"], 60);
  EXPECT_EQ(report["wall_time"][0]["seconds"], 2.0);
}

}  // namespace
}  // namespace gcsim
