// fit_report.hpp: how closely a synthetic workload drawn from a fitted
// generator matches the trace it was fitted to (`gcsim trace fit` prints it,
// and writes it as Markdown with --report).
//
// Both workloads are summarised alike (WorkloadStatistics): jobs, submission
// span, mean inter-arrival, share of jobs per GPU count, run-time mean and
// percentiles, share of submissions per hour of the day, share per queue.
// Two checks decide whether the generator reproduces the original:
//   - every GPU count's share is within max(5% of the original's share,
//     1 percentage point): 5% relative for the common counts, and one point
//     for the rare ones, whose shares (Philly: 64 GPUs, 6 of 82,247 jobs)
//     a sample of the same size cannot reproduce to 5% of themselves;
//   - the mean inter-arrival is within 5% of the original's.
//
//   WorkloadStatistics original = workload_statistics(trace.jobs, trace.time_origin);
//   WorkloadStatistics synthetic = workload_statistics(jobs, fit.model.first_submit_time_of_day_s);
//   FitComparison comparison = compare_fit(original, synthetic);
//   std::cout << fit_report_text(comparison);
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/core/job_spec.hpp"

namespace gcsim {

struct WorkloadStatistics {
  std::size_t jobs = 0;  // jobs with a recorded run time (MeasuredWork)
  double span_s = 0;     // first to last submission
  double mean_interarrival_s = 0;
  std::map<std::uint32_t, double> gpu_shares;  // GPU count -> share of jobs
  double gpu_hours = 0;
  double run_time_mean_s = 0;
  /// Run-time percentiles at kPercentiles.
  std::vector<double> run_time_percentiles_s;
  std::array<double, 24> hourly_share{};  // share of submissions per hour of the day
  std::map<std::string, double> queue_shares;

  static constexpr std::array<double, 7> kPercentiles = {10, 25, 50, 75, 90, 95, 99};
};

/// `clock_origin_s`: the time of day (seconds after some midnight) of time 0.
WorkloadStatistics workload_statistics(const std::vector<JobSpec>& jobs, double clock_origin_s);

struct FitCheck {
  std::string name;
  bool passed = false;
  std::string detail;  // the figures behind the verdict
};

struct FitComparison {
  WorkloadStatistics original, synthetic;
  std::vector<FitCheck> checks;
  bool passed() const;
};

/// Relative tolerance of the mean inter-arrival, and of a GPU count's share
/// (or kShareAbsoluteTolerance, whichever is larger).
inline constexpr double kFitRelativeTolerance = 0.05;
inline constexpr double kShareAbsoluteTolerance = 0.01;

FitComparison compare_fit(const WorkloadStatistics& original, const WorkloadStatistics& synthetic);

/// Aligned text for the terminal, and the same figures as Markdown tables.
std::string fit_report_text(const FitComparison& comparison);
std::string fit_report_markdown(const FitComparison& comparison, const std::string& title);

}  // namespace gcsim
