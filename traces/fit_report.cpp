#include "traces/fit_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "sim/core/statistics.hpp"
#include "traces/trace_fit.hpp"

namespace gcsim {
namespace {

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

/// A duration with a unit that keeps it readable: "42.0 s", "12.5 min", "3.20 h", "108.90 d".
std::string duration_text(double seconds) {
  if (seconds < 60) return format("%.1f s", seconds);
  if (seconds < 3600) return format("%.1f min", seconds / 60);
  if (seconds < 86400) return format("%.2f h", seconds / 3600);
  return format("%.2f d", seconds / 86400);
}

std::string percent(double share) { return format(share < 0.01 ? "%.3f%%" : "%.2f%%", 100 * share); }

std::string relative_difference(double original, double synthetic) {
  if (original == 0) return synthetic == 0 ? "0%" : "n/a";
  return format("%+.1f%%", 100 * (synthetic - original) / original);
}

std::string point_difference(double original, double synthetic) {
  return format("%+.2f pt", 100 * (synthetic - original));
}

std::string percentile_name(double p) { return "p" + std::to_string(static_cast<int>(p)); }

bool share_within(double original, double synthetic) {
  return std::fabs(synthetic - original) <= std::max(kFitRelativeTolerance * original, kShareAbsoluteTolerance);
}

/// One row of figures: label, original, synthetic, difference, verdict.
struct Row {
  std::string label, original, synthetic, difference, verdict;
};

struct Section {
  std::string title;
  std::vector<Row> rows;
};

std::vector<Section> sections(const FitComparison& c) {
  const WorkloadStatistics& o = c.original;
  const WorkloadStatistics& s = c.synthetic;
  std::vector<Section> out;

  Section arrivals{"arrivals", {}};
  arrivals.rows.push_back({"jobs", std::to_string(o.jobs), std::to_string(s.jobs), "", ""});
  arrivals.rows.push_back({"submission span", duration_text(o.span_s), duration_text(s.span_s),
                           relative_difference(o.span_s, s.span_s), ""});
  const bool interarrival_ok =
      std::fabs(s.mean_interarrival_s - o.mean_interarrival_s) <= kFitRelativeTolerance * o.mean_interarrival_s;
  arrivals.rows.push_back(
      {"mean inter-arrival", format("%.2f s", o.mean_interarrival_s), format("%.2f s", s.mean_interarrival_s),
       relative_difference(o.mean_interarrival_s, s.mean_interarrival_s), interarrival_ok ? "ok" : "off"});
  arrivals.rows.push_back({"GPU-hours", format("%.0f", o.gpu_hours), format("%.0f", s.gpu_hours),
                           relative_difference(o.gpu_hours, s.gpu_hours), ""});
  out.push_back(arrivals);

  Section gpus{"GPUs per job (share of jobs)", {}};
  std::set<std::uint32_t> counts;
  for (const auto& entry : o.gpu_shares) counts.insert(entry.first);
  for (const auto& entry : s.gpu_shares) counts.insert(entry.first);
  for (std::uint32_t count : counts) {
    const double a = o.gpu_shares.count(count) ? o.gpu_shares.at(count) : 0;
    const double b = s.gpu_shares.count(count) ? s.gpu_shares.at(count) : 0;
    gpus.rows.push_back(
        {std::to_string(count), percent(a), percent(b), point_difference(a, b), share_within(a, b) ? "ok" : "off"});
  }
  out.push_back(gpus);

  Section runs{"run time", {}};
  runs.rows.push_back({"mean", duration_text(o.run_time_mean_s), duration_text(s.run_time_mean_s),
                       relative_difference(o.run_time_mean_s, s.run_time_mean_s), ""});
  for (std::size_t i = 0; i < WorkloadStatistics::kPercentiles.size(); ++i) {
    const double a = i < o.run_time_percentiles_s.size() ? o.run_time_percentiles_s[i] : 0;
    const double b = i < s.run_time_percentiles_s.size() ? s.run_time_percentiles_s[i] : 0;
    runs.rows.push_back({percentile_name(WorkloadStatistics::kPercentiles[i]), duration_text(a), duration_text(b),
                         relative_difference(a, b), ""});
  }
  out.push_back(runs);

  Section hours{"submissions by hour of day (share of jobs)", {}};
  for (std::size_t h = 0; h < 24; ++h)
    hours.rows.push_back({format("%02.0f:00", static_cast<double>(h)), percent(o.hourly_share[h]),
                          percent(s.hourly_share[h]), point_difference(o.hourly_share[h], s.hourly_share[h]), ""});
  out.push_back(hours);

  Section queues{"queues (share of jobs, the ten largest)", {}};
  std::vector<std::pair<std::string, double>> ordered(o.queue_shares.begin(), o.queue_shares.end());
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (ordered.size() > 10) ordered.resize(10);
  for (const auto& [queue, share] : ordered) {
    const double b = s.queue_shares.count(queue) ? s.queue_shares.at(queue) : 0;
    queues.rows.push_back({queue, percent(share), percent(b), point_difference(share, b), ""});
  }
  out.push_back(queues);
  return out;
}

}  // namespace

WorkloadStatistics workload_statistics(const std::vector<JobSpec>& jobs, double clock_origin_s) {
  WorkloadStatistics stats;
  std::vector<double> submits, run_times;
  std::map<std::uint32_t, std::size_t> counts;
  std::map<std::string, std::size_t> queues;
  std::array<std::size_t, 24> hours{};
  double total_run_time = 0;
  for (const JobSpec& job : jobs) {
    const auto* measured = std::get_if<MeasuredWork>(&job.work);
    if (!measured) continue;
    submits.push_back(job.submit);
    run_times.push_back(measured->seconds);
    total_run_time += measured->seconds;
    stats.gpu_hours += measured->seconds * job.gpus / 3600;
    ++counts[job.gpus];
    ++queues[job.queue];
    ++hours[static_cast<std::size_t>(time_of_day(clock_origin_s + job.submit) / 3600) % 24];
  }
  stats.jobs = run_times.size();
  if (stats.jobs == 0) return stats;
  const double n = static_cast<double>(stats.jobs);
  const auto [first, last] = std::minmax_element(submits.begin(), submits.end());
  stats.span_s = *last - *first;
  stats.mean_interarrival_s = stats.jobs > 1 ? stats.span_s / (n - 1) : 0;
  for (const auto& [gpus, count] : counts) stats.gpu_shares[gpus] = static_cast<double>(count) / n;
  for (const auto& [queue, count] : queues) stats.queue_shares[queue] = static_cast<double>(count) / n;
  for (std::size_t h = 0; h < 24; ++h) stats.hourly_share[h] = static_cast<double>(hours[h]) / n;
  std::sort(run_times.begin(), run_times.end());
  stats.run_time_mean_s = total_run_time / n;
  for (double p : WorkloadStatistics::kPercentiles)
    stats.run_time_percentiles_s.push_back(percentile_of_sorted(run_times, p));
  return stats;
}

bool FitComparison::passed() const {
  return std::all_of(checks.begin(), checks.end(), [](const FitCheck& check) { return check.passed; });
}

FitComparison compare_fit(const WorkloadStatistics& original, const WorkloadStatistics& synthetic) {
  FitComparison comparison{original, synthetic, {}};

  std::set<std::uint32_t> counts;
  for (const auto& entry : original.gpu_shares) counts.insert(entry.first);
  for (const auto& entry : synthetic.gpu_shares) counts.insert(entry.first);
  bool shares_ok = true;
  std::string worst;
  double worst_excess = -1;
  for (std::uint32_t count : counts) {
    const double a = original.gpu_shares.count(count) ? original.gpu_shares.at(count) : 0;
    const double b = synthetic.gpu_shares.count(count) ? synthetic.gpu_shares.at(count) : 0;
    shares_ok = shares_ok && share_within(a, b);
    const double tolerance = std::max(kFitRelativeTolerance * a, kShareAbsoluteTolerance);
    const double excess = std::fabs(b - a) / tolerance;
    if (excess > worst_excess) {
      worst_excess = excess;
      worst = std::to_string(count) + " GPUs: " + percent(a) + " -> " + percent(b) + " (" + point_difference(a, b) +
              ", " + relative_difference(a, b) + ", tolerance " + format("%.2f pt", 100 * tolerance) + ")";
    }
  }
  comparison.checks.push_back(
      {"GPU-count shares within max(5% relative, 1 point absolute)", shares_ok, "closest to its tolerance: " + worst});

  const double a = original.mean_interarrival_s, b = synthetic.mean_interarrival_s;
  comparison.checks.push_back(
      {"mean inter-arrival within 5%", a > 0 && std::fabs(b - a) <= kFitRelativeTolerance * a,
       format("%.2f s", a) + " -> " + format("%.2f s", b) + " (" + relative_difference(a, b) + ")"});
  return comparison;
}

std::string fit_report_text(const FitComparison& comparison) {
  std::ostringstream out;
  char line[160];
  for (const Section& section : sections(comparison)) {
    out << section.title << "\n";
    std::snprintf(line, sizeof line, "  %-22s %14s %14s %12s\n", "", "original", "synthetic", "difference");
    out << line;
    for (const Row& row : section.rows) {
      std::snprintf(line, sizeof line, "  %-22s %14s %14s %12s  %s\n", row.label.c_str(), row.original.c_str(),
                    row.synthetic.c_str(), row.difference.c_str(), row.verdict.c_str());
      std::string text = line;
      while (text.size() > 1 && text[text.size() - 2] == ' ') text.erase(text.size() - 2, 1);
      out << text;
    }
  }
  out << "checks\n";
  for (const FitCheck& check : comparison.checks)
    out << "  " << (check.passed ? "PASS" : "FAIL") << "  " << check.name << ": " << check.detail << "\n";
  return out.str();
}

std::string fit_report_markdown(const FitComparison& comparison, const std::string& title) {
  std::ostringstream out;
  out << "# " << title << "\n\n";
  out << "| check | result | figures |\n|---|---|---|\n";
  for (const FitCheck& check : comparison.checks)
    out << "| " << check.name << " | " << (check.passed ? "pass" : "**fail**") << " | " << check.detail << " |\n";
  for (const Section& section : sections(comparison)) {
    out << "\n## " << section.title << "\n\n";
    out << "| | original | synthetic | difference | |\n|---|---:|---:|---:|---|\n";
    for (const Row& row : section.rows)
      out << "| " << row.label << " | " << row.original << " | " << row.synthetic << " | " << row.difference << " | "
          << row.verdict << " |\n";
  }
  return out.str();
}

}  // namespace gcsim
