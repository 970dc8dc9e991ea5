#include "traces/trace_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <tuple>

#include "sim/core/number_text.hpp"
#include "sim/core/statistics.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

// "3.2 h", "45 s", "12.5 d": readable durations for the text report.
std::string duration_text(double seconds) {
  if (seconds < 120) return describe_number(std::round(seconds * 10) / 10) + " s";
  if (seconds < 2 * 3600) return fixed(seconds / 60, 1) + " min";
  if (seconds < 2 * 86400) return fixed(seconds / 3600, 1) + " h";
  return fixed(seconds / 86400, 1) + " d";
}

std::string when(const TraceStats& stats, double relative) {
  if (stats.calendar_clock) return format_calendar_time(stats.time_origin + relative);
  return describe_number(relative) + " s";
}

}  // namespace

TraceStats compute_trace_stats(const TraceReadResult& trace, const ClusterLayout* cluster) {
  TraceStats stats;
  stats.format = trace.format;
  stats.rows = trace.rows;
  stats.jobs = trace.jobs.size();
  stats.jobs_read = trace.jobs_before_selection.value_or(trace.jobs.size());
  stats.time_origin = trace.time_origin;
  stats.calendar_clock = trace.calendar_clock;
  stats.work_source = trace.work_source;
  stats.assumptions = trace.assumptions;
  stats.selection = trace.selection;

  std::vector<double> run_times;
  double gpu_seconds = 0;
  for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
    const JobSpec& job = trace.jobs[i];
    if (i == 0 || job.submit < stats.first_submit) stats.first_submit = job.submit;
    if (i == 0 || job.submit > stats.last_submit) stats.last_submit = job.submit;
    ++stats.gpu_counts[job.gpus];
    if (job.gpu_share < 1) ++stats.jobs_sharing_gpus;
    if (const auto* measured = std::get_if<MeasuredWork>(&job.work)) {
      run_times.push_back(measured->seconds);
      gpu_seconds += measured->seconds * job.gpus * job.gpu_share;
      stats.last_end = std::max(stats.last_end, job.submit + measured->seconds);
    } else if (const auto* cpu = std::get_if<CpuWork>(&job.work)) {  // 0 GPUs: no GPU-hours
      run_times.push_back(cpu->seconds);
      stats.last_end = std::max(stats.last_end, job.submit + cpu->seconds);
    } else {
      ++stats.jobs_without_run_time;
      stats.last_end = std::max(stats.last_end, job.submit);
    }
    if (i < trace.job_status.size() && !trace.job_status[i].empty()) ++stats.status_counts[trace.job_status[i]];
  }
  stats.gpu_hours = gpu_seconds / 3600;
  std::sort(run_times.begin(), run_times.end());
  if (!run_times.empty()) {
    stats.run_time_min = run_times.front();
    stats.run_time_max = run_times.back();
    stats.run_time_p50 = percentile_of_sorted(run_times, 50);
    stats.run_time_p95 = percentile_of_sorted(run_times, 95);
    double sum = 0;
    for (double t : run_times) sum += t;
    stats.run_time_mean = sum / static_cast<double>(run_times.size());
  }

  std::optional<TraceCapacityStats> capacity;
  if (cluster) {
    capacity = TraceCapacityStats{};
    capacity->name = "cluster '" + cluster->spec().name + "'";
    capacity->gpus = cluster->gpu_count();
  } else if (trace.machine_gpus) {
    capacity = TraceCapacityStats{};
    capacity->name = "the traced machine";
    capacity->gpus = *trace.machine_gpus;
  }
  if (capacity) {
    if (stats.span() > 0 && capacity->gpus > 0)
      capacity->offered_load = stats.gpu_hours / (static_cast<double>(capacity->gpus) * stats.span() / 3600);
    std::set<std::string> unknown;
    for (const JobSpec& job : trace.jobs) {
      if (job.gpus > capacity->gpus) {
        ++capacity->jobs_larger;
        if (capacity->first_larger.size() < 5) capacity->first_larger.push_back(job.id);
      }
      const auto* measured = std::get_if<MeasuredWork>(&job.work);
      if (cluster && measured && cluster->find_gpu_type(measured->gpu_type) < 0) {
        ++capacity->jobs_unknown_gpu_type;
        unknown.insert(measured->gpu_type);
      }
    }
    capacity->unknown_gpu_types.assign(unknown.begin(), unknown.end());
    stats.capacity = capacity;
  }

  std::map<std::tuple<std::string, std::string, std::string, bool>, std::size_t> index;
  for (const SkippedRow& row : trace.skipped) {
    ++stats.skipped;
    if (row.malformed) ++stats.malformed;
    const auto key = std::make_tuple(row.file, row.field, row.reason, row.malformed);
    auto [it, inserted] = index.emplace(key, stats.skip_reasons.size());
    if (inserted) stats.skip_reasons.push_back({row.file, row.field, row.reason, row.malformed, 0, {}});
    TraceSkipReason& reason = stats.skip_reasons[it->second];
    ++reason.count;
    if (reason.first_lines.size() < TraceSkipReason::kFirstLines) reason.first_lines.push_back(row.line);
  }
  std::stable_sort(stats.skip_reasons.begin(), stats.skip_reasons.end(),
                   [](const TraceSkipReason& a, const TraceSkipReason& b) { return a.count > b.count; });
  return stats;
}

std::string trace_stats_text(const TraceStats& stats) {
  std::ostringstream out;
  out << "format        " << stats.format << "\n";
  out << "rows          " << stats.rows << " read: " << stats.jobs_read << " jobs, " << stats.skipped << " skipped ("
      << stats.malformed << " malformed, " << stats.skipped - stats.malformed << " not replayable)\n";
  for (const std::string& step : stats.selection) out << "selected      " << step << "\n";
  if (!stats.selection.empty())
    out << "jobs          " << stats.jobs << " after selection; the figures below are theirs\n";
  if (stats.jobs > 0) {
    out << "submissions   " << when(stats, stats.first_submit) << " to " << when(stats, stats.last_submit) << " ("
        << duration_text(stats.span()) << "); last job ends " << duration_text(stats.last_end) << " after time 0\n";
    out << "GPUs per job ";
    for (const auto& [gpus, count] : stats.gpu_counts)
      out << " " << gpus << ": " << count << " (" << fixed(100.0 * count / stats.jobs, 1) << "%)";
    out << "\n";
    if (stats.jobs_sharing_gpus > 0)
      out << "GPU sharing   " << stats.jobs_sharing_gpus << " jobs ask a fraction of each of their GPUs (counted above "
          << "by workers; GPU-hours count their share)\n";
    out << "GPU-hours     " << fixed(stats.gpu_hours, 1);
    if (stats.jobs_without_run_time > 0)
      out << " (" << stats.jobs_without_run_time
          << " training jobs not counted: their run time depends on the cluster)";
    out << "\n";
    if (stats.jobs_without_run_time < stats.jobs)
      out << "run time      min " << duration_text(stats.run_time_min) << ", p50 " << duration_text(stats.run_time_p50)
          << ", mean " << duration_text(stats.run_time_mean) << ", p95 " << duration_text(stats.run_time_p95)
          << ", max " << duration_text(stats.run_time_max) << "\n";
  }
  if (stats.capacity) {
    const TraceCapacityStats& c = stats.capacity.value();
    out << "offered load  ";
    if (c.offered_load)
      out << fixed(*c.offered_load, 3);
    else
      out << "n/a (all submissions at one instant)";
    out << " of " << c.name << " (" << c.gpus << " GPUs): GPU-hours / (GPUs x submission span)\n";
    if (c.jobs_larger > 0) {
      out << "too large     " << c.jobs_larger << " jobs ask for more than " << c.gpus << " GPUs (first:";
      for (const std::string& id : c.first_larger) out << " " << id;
      out << "); kept, a run on it would reject them\n";
    }
    if (c.jobs_unknown_gpu_type > 0) {
      out << "GPU types     " << c.jobs_unknown_gpu_type << " jobs are measured on types the cluster lacks:";
      for (const std::string& type : c.unknown_gpu_types) out << " " << type;
      out << "\n";
    }
  }
  if (!stats.status_counts.empty()) {
    out << "status       ";
    for (const auto& [status, count] : stats.status_counts) out << " " << status << ": " << count;
    out << "\n";
  }
  if (!stats.skip_reasons.empty()) {
    out << "skipped rows  (count, reason, first lines)\n";
    for (const TraceSkipReason& r : stats.skip_reasons) {
      out << "  " << r.count << "  " << (r.malformed ? "malformed" : "not replayable") << ": ";
      if (!r.field.empty()) out << r.field << ": ";
      out << r.reason << " (" << file_name_of(r.file) << " line";
      if (r.first_lines.size() > 1) out << "s";
      for (std::size_t i = 0; i < r.first_lines.size(); ++i) out << (i ? ", " : " ") << r.first_lines[i];
      if (r.count > r.first_lines.size()) out << ", ...";
      out << ")\n";
    }
  }
  out << "work          " << stats.work_source << "\n";
  for (const std::string& assumption : stats.assumptions) out << "assumed       " << assumption << "\n";
  return out.str();
}

nlohmann::json trace_stats_json(const TraceStats& stats) {
  nlohmann::json gpus = nlohmann::json::object();
  for (const auto& [count, jobs] : stats.gpu_counts) gpus[std::to_string(count)] = jobs;
  nlohmann::json reasons = nlohmann::json::array();
  for (const TraceSkipReason& r : stats.skip_reasons)
    reasons.push_back({{"file", r.file},
                       {"field", r.field},
                       {"reason", r.reason},
                       {"malformed", r.malformed},
                       {"count", r.count},
                       {"first_lines", r.first_lines}});
  nlohmann::json doc = {{"format", stats.format},
                        {"rows", stats.rows},
                        {"jobs", stats.jobs},
                        {"jobs_read", stats.jobs_read},
                        {"time_origin", stats.time_origin},
                        {"first_submit", stats.first_submit},
                        {"last_submit", stats.last_submit},
                        {"submission_span", stats.span()},
                        {"last_end", stats.last_end},
                        {"gpu_counts", gpus},
                        {"jobs_sharing_gpus", stats.jobs_sharing_gpus},
                        {"gpu_hours", stats.gpu_hours},
                        {"jobs_without_run_time", stats.jobs_without_run_time},
                        {"run_time",
                         {{"min", stats.run_time_min},
                          {"p50", stats.run_time_p50},
                          {"mean", stats.run_time_mean},
                          {"p95", stats.run_time_p95},
                          {"max", stats.run_time_max}}},
                        {"status_counts", stats.status_counts},
                        {"skipped", {{"rows", stats.skipped}, {"malformed", stats.malformed}, {"reasons", reasons}}},
                        {"work_source", stats.work_source},
                        {"assumptions", stats.assumptions},
                        {"selection", stats.selection}};
  if (stats.calendar_clock) doc["time_origin_calendar"] = format_calendar_time(stats.time_origin);
  if (stats.capacity) {
    const TraceCapacityStats& c = stats.capacity.value();
    doc["capacity"] = {{"name", c.name},
                       {"gpus", c.gpus},
                       {"offered_load", c.offered_load ? nlohmann::json(*c.offered_load) : nlohmann::json(nullptr)},
                       {"jobs_larger", c.jobs_larger},
                       {"first_larger", c.first_larger},
                       {"jobs_unknown_gpu_type", c.jobs_unknown_gpu_type},
                       {"unknown_gpu_types", c.unknown_gpu_types}};
  }
  return doc;
}

}  // namespace gcsim
