#include "sim/report/run_outputs.hpp"

#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/core/number_text.hpp"

namespace gcsim {
namespace {

nlohmann::ordered_json distribution_json(const Distribution& d) {
  nlohmann::ordered_json j;
  j["count"] = d.count;
  j["mean"] = d.mean;
  j["p50"] = d.p50;
  j["p95"] = d.p95;
  j["p99"] = d.p99;
  j["max"] = d.max;
  return j;
}

std::string duration_text(double seconds) {
  if (seconds >= 3600) return fixed(seconds / 3600, 2) + " h";
  if (seconds >= 60) return fixed(seconds / 60, 2) + " min";
  return fixed(seconds, 3) + " s";
}

}  // namespace

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string format_seconds(double seconds) { return seconds == kNever ? "" : fixed(seconds, 6); }

namespace {

std::string gpu_labels(const ClusterLayout& layout, const std::vector<GpuId>& gpus) {
  std::string labels;
  for (GpuId g : gpus) labels += (labels.empty() ? "" : ";") + layout.gpu_label(g);
  return labels;
}

}  // namespace

std::string summary_json(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record,
                         const RunMetrics& m, const SummaryOptions& options) {
  nlohmann::ordered_json j;
  j["cluster"] = record.cluster_name;
  j["policy"] = record.policy;
  j["fidelity"] = record.fidelity;
  j["seed"] = record.seed;
  j["gpus"] = record.total_gpus;
  j["jobs"] = {{"total", m.jobs}, {"finished", m.finished}, {"failed", m.failed}, {"unfinished", m.unfinished}};
  j["makespan_s"] = m.makespan;
  j["jct_s"] = distribution_json(m.jct);
  j["queueing_delay_s"] = distribution_json(m.wait);
  j["gpu_utilization"] = {{"allocated_share", m.allocated_share},
                          {"busy_share", m.busy_share},
                          {"allocated_gpu_hours", m.gpu_hours_allocated},
                          {"busy_gpu_hours", m.gpu_hours_busy}};
  if (record.deadlock) {
    nlohmann::ordered_json stuck = nlohmann::ordered_json::array();
    for (JobIndex job : record.deadlock->jobs)
      stuck.push_back({{"id", jobs[job].id},
                       {"holds", record.outcomes[job].gpus.size()},
                       {"needs", jobs[job].gpus},
                       {"gpus", gpu_labels(layout, record.outcomes[job].gpus)}});
    j["deadlock"] = {{"detected_at_s", record.deadlock->at}, {"jobs", std::move(stuck)}};
  } else {
    j["deadlock"] = nullptr;
  }
  j["preemptions"] = {{"count", m.preemptions}, {"lost_gpu_hours", record.lost_gpu_seconds / 3600.0}};
  j["simulated_time_s"] = record.simulated_time;
  j["events_processed"] = record.events;
  if (options.include_wall_time) j["wall_time_s"] = record.wall_seconds;
  return j.dump(2) + "\n";
}

std::string jobs_csv(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record) {
  std::ostringstream out;
  out << "id,user,queue,gpus,submit,start,end,wait,jct,state,preemptions,uncontended,placement,gpu_share\n";
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& job = jobs[i];
    const JobOutcome& o = record.outcomes[i];
    const bool started = o.start != kNever;
    const bool ended = o.end != kNever;
    const std::string placement = gpu_labels(layout, o.gpus);
    out << csv_field(job.id) << ',' << csv_field(job.user) << ',' << csv_field(job.queue) << ',' << job.gpus << ','
        << format_seconds(job.submit) << ',' << (started ? format_seconds(o.start) : "") << ','
        << (ended ? format_seconds(o.end) : "") << ',' << (started ? format_seconds(o.start - job.submit) : "")
        << ',' << (ended ? format_seconds(o.end - job.submit) : "") << ',' << to_string(o.state) << ','
        << o.preemptions << ',' << format_seconds(o.uncontended) << ',' << csv_field(placement) << ','
        << exact_number(job.gpu_share) << '\n';
  }
  return out.str();
}

std::string timeline_csv(const RunRecord& record) {
  std::ostringstream out;
  out << "time,allocated_gpus,busy_gpus,queued_jobs\n";
  for (const TimelinePoint& p : record.timeline)
    out << format_seconds(p.time) << ',' << exact_number(p.allocated) << ',' << exact_number(p.busy) << ','
        << p.queued << '\n';
  return out.str();
}

std::string deadlock_diagnosis(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record) {
  if (!record.deadlock) return "";
  std::ostringstream out;
  out << "deadlock at t=" << fixed(record.deadlock->at, 6) << " s: " << record.deadlock->jobs.size()
      << " jobs hold GPUs while waiting for more, and nothing running can free any:\n";
  for (JobIndex job : record.deadlock->jobs)
    out << "  job '" << jobs[job].id << "' holds " << record.outcomes[job].gpus.size() << " of " << jobs[job].gpus
        << " GPUs (" << gpu_labels(layout, record.outcomes[job].gpus) << ")\n";
  return out.str();
}

std::string human_summary(const RunRecord& record, const RunMetrics& m) {
  std::ostringstream out;
  out << "gcsim: policy " << record.policy << " on " << record.cluster_name << " (" << record.total_gpus
      << " GPUs), fidelity " << record.fidelity << "\n"
      << "  jobs        " << m.finished << " finished, " << m.failed << " failed, " << m.unfinished
      << " unfinished (of " << m.jobs << ")\n"
      << "  makespan    " << duration_text(m.makespan) << "\n"
      << "  JCT         mean " << duration_text(m.jct.mean) << ", p50 " << duration_text(m.jct.p50) << ", p95 "
      << duration_text(m.jct.p95) << ", p99 " << duration_text(m.jct.p99) << "\n"
      << "  wait        mean " << duration_text(m.wait.mean) << ", p50 " << duration_text(m.wait.p50) << ", p95 "
      << duration_text(m.wait.p95) << ", p99 " << duration_text(m.wait.p99) << "\n"
      << "  GPU util    allocated " << fixed(100 * m.allocated_share, 1) << "%, busy " << fixed(100 * m.busy_share, 1)
      << "%\n"
      << "  simulated   " << duration_text(record.simulated_time) << " in " << fixed(record.wall_seconds, 3)
      << " s wall, " << record.events << " events\n";
  return out.str();
}

}  // namespace gcsim
