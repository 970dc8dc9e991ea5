// bench_comparison.hpp: a regression benchmark's verdicts: each chosen
// metric of each scenario's summary.json against its baseline, within a
// tolerance, in the direction that is better for it.
//
// A metric is a dotted path into summary.json ("jct_s.mean",
// "gpu_utilization.busy_share", "job_types.training.jct_s.p95",
// "serving.0.latency_s.p99": a number indexes an array). Its change is
// allowed up to max(absolute, relative x |baseline|); beyond that it
// regressed when it moved the worse way ("lower" is better: it grew;
// "higher": it fell; "equal": either way), and improved when it moved the
// better way. Simulated metrics are deterministic, so their tolerance may be 0.
//
//   BenchMetric m{"jct_s.mean", Better::kLower, 0.01, 0};
//   BenchVerdict v = judge(m, baseline_value, summary_value);  // v.status
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcsim {

enum class Better { kLower, kHigher, kEqual };

struct BenchMetric {
  std::string path;
  Better better = Better::kEqual;
  double relative = 0;  // allowed change, as a share of |baseline|
  double absolute = 0;  // allowed change, in the metric's unit
};

enum class BenchStatus { kSame, kWithin, kImproved, kRegressed };

struct BenchVerdict {
  std::string scenario;
  BenchMetric metric;
  double baseline = 0, value = 0;
  double allowed = 0;  // the change the tolerance allows
  BenchStatus status = BenchStatus::kSame;
};

/// The verdict on one metric (scenario left empty).
BenchVerdict judge(const BenchMetric& metric, double baseline, double value);

/// The number at `path` in a summary.json document; nullopt when the path
/// leads nowhere or to something other than a number.
std::optional<double> metric_value(const nlohmann::json& summary, const std::string& path);

/// "same", "within", "improved", "regressed".
std::string to_string(BenchStatus status);
/// "lower", "higher", "equal".
std::string to_string(Better better);

/// One scenario's wall time, and its ratio to the suite's reference (its first scenario) in the same invocation.
struct BenchTiming {
  std::string scenario;
  double wall_seconds = 0;
  double ratio_to_reference = 0;
};

/// bench.json: every verdict and every timing, and the count of regressions.
std::string bench_json(const std::vector<BenchVerdict>& verdicts, const std::vector<BenchTiming>& timings);
/// bench.md: a table of every verdict (what moved, by how much, against what
/// tolerance), then the wall times.
std::string bench_markdown(const std::vector<BenchVerdict>& verdicts, const std::vector<BenchTiming>& timings);

}  // namespace gcsim
