#include "sim/report/comparison_table.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "sim/core/input_error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/report/run_outputs.hpp"

namespace gcsim {
namespace {

constexpr const char* kNotAvailable = "n/a";

std::string exact_or_na(const std::optional<double>& value) { return value ? exact_number(*value) : kNotAvailable; }

std::string percent(double share) { return fixed(100 * share, 1) + "%"; }

/// Text for a Markdown table cell: a '|' would end the cell.
std::string markdown_cell(std::string text) {
  for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
    text.replace(at, 1, "\\|");
  return text;
}

/// The unit a Markdown table prints its times in, chosen from the largest one.
struct TimeUnit {
  const char* name;
  double seconds;
  int decimals;
};

TimeUnit unit_for(const std::vector<ComparisonRow>& rows) {
  double largest = 0;
  for (const ComparisonRow& r : rows) largest = std::max({largest, r.makespan, r.jct.p99, r.wait.p99});
  if (largest >= 7200) return {"h", 3600, 2};
  if (largest >= 120) return {"min", 60, 1};
  return {"s", 1, 2};
}

// Whether a row has energy figures: the tables then add their columns.
bool any_energy(const std::vector<ComparisonRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const ComparisonRow& r) { return r.energy_kwh.has_value(); });
}

}  // namespace

ComparisonRow comparison_row(const std::string& policy, const RunOutputs& run,
                             const std::optional<CapacityQueues>& queues) {
  const RunSummaryFigures& s = run.summary;
  ComparisonRow row;
  row.policy = policy;
  row.jobs = s.jobs;
  row.finished = s.finished;
  row.failed = s.failed;
  row.unfinished = s.unfinished;
  row.jct = s.jct;
  row.wait = s.wait;
  row.makespan = s.makespan;
  row.allocated_share = s.allocated_share;
  row.busy_share = s.busy_share;
  row.preemptions = s.preemptions;
  row.lost_gpu_hours = s.lost_gpu_hours;
  row.lost_share = s.lost_share;
  row.deadlock_at = s.deadlock_at;
  row.stopped = s.stopped;
  row.stopped_at = s.stopped_at;
  row.wall_seconds = s.wall_seconds;
  row.energy_kwh = s.energy_kwh;
  row.facility_kwh = s.facility_kwh;
  row.peak_kw = s.peak_kw;

  std::vector<FinishedJobTimes> finished;
  Time first_submit = run.jobs.empty() ? 0 : kNever;
  for (const JobsCsvRow& job : run.jobs) {
    first_submit = std::min(first_submit, job.submit);
    // A serving replica completes nothing: no slowdown, as no JCT in summary.json.
    if (job.state == "finished" && job.jct != kNever && job.type != "serving")
      finished.push_back({job.user, job.jct, job.uncontended});
  }
  row.finish_time_fairness = summarize_slowdowns(finished);
  row.jain_slowdown = jain_index(user_values(mean_slowdown_by_user(finished)));
  row.fragmentation = fragmentation_share(run.timeline, s.gpus, first_submit, first_submit + s.makespan);
  std::vector<TypedJob> typed;
  typed.reserve(run.jobs.size());
  for (const JobsCsvRow& job : run.jobs) typed.push_back({job.type, job.state, job.jct, job.wait});
  row.job_types = job_type_figures(typed);
  row.serving = run.summary.serving;

  if (!s.queues.empty()) {
    row.queue_attainment = s.queues;  // as the run wrote them
  } else if (queues) {
    std::vector<QueueJobSpan> spans;
    spans.reserve(run.jobs.size());
    for (const JobsCsvRow& job : run.jobs) {
      const auto leaf = queues->leaf_of_name.find(job.queue);
      if (leaf == queues->leaf_of_name.end())
        throw InputError("jobs.csv", "job '" + job.id + "'", "queue",
                         "'" + job.queue + "' designates no leaf queue of the capacity configuration");
      spans.push_back({leaf->second, job.gpus * job.gpu_share, job.submit, job.start, job.end});
    }
    row.queue_attainment = guarantee_attainment(queues->leaves, spans, s.simulated_time);
  }
  return row;
}

std::string comparison_csv(const std::vector<ComparisonRow>& rows) {
  std::ostringstream out;
  out << "policy,jobs,finished,failed,unfinished,finished_jobs,jct_mean_s,jct_p50_s,jct_p95_s,jct_p99_s,"
         "wait_mean_s,wait_p50_s,wait_p95_s,wait_p99_s,makespan_s,gpu_util_allocated,gpu_util_busy,"
         "fragmentation,preemptions,lost_gpu_hours,lost_share,jain_fairness_slowdown,ftf_rho_max,ftf_rho_mean,"
         "queue_guarantee_attainment,deadlocks,deadlock_at_s,stopped,stopped_at_s,wall_time_s";
  const bool energy = any_energy(rows);
  out << (energy ? ",energy_kwh,facility_kwh,peak_kw\n" : "\n");
  for (const ComparisonRow& r : rows) {
    const bool has_slowdowns = r.finish_time_fairness.count > 0;
    out << csv_field(r.policy) << ',' << r.jobs << ',' << r.finished << ',' << r.failed << ',' << r.unfinished << ','
        << r.finished << '/' << r.jobs << ',' << exact_number(r.jct.mean) << ',' << exact_number(r.jct.p50) << ','
        << exact_number(r.jct.p95) << ',' << exact_number(r.jct.p99) << ',' << exact_number(r.wait.mean) << ','
        << exact_number(r.wait.p50) << ',' << exact_number(r.wait.p95) << ',' << exact_number(r.wait.p99) << ','
        << exact_number(r.makespan) << ',' << exact_number(r.allocated_share) << ',' << exact_number(r.busy_share)
        << ',' << exact_number(r.fragmentation) << ',' << r.preemptions << ',' << exact_number(r.lost_gpu_hours) << ','
        << exact_number(r.lost_share) << ',' << exact_or_na(r.jain_slowdown) << ','
        << (has_slowdowns ? exact_number(r.finish_time_fairness.max) : kNotAvailable) << ','
        << (has_slowdowns ? exact_number(r.finish_time_fairness.mean) : kNotAvailable) << ','
        << exact_or_na(minimum_attainment(r.queue_attainment)) << ',' << (r.deadlock_at ? 1 : 0) << ','
        << exact_or_na(r.deadlock_at) << ',' << csv_field(r.stopped) << ',' << exact_or_na(r.stopped_at) << ','
        << exact_or_na(r.wall_seconds);
    if (energy)
      out << ',' << exact_or_na(r.energy_kwh) << ',' << exact_or_na(r.facility_kwh) << ',' << exact_or_na(r.peak_kw);
    out << '\n';
  }
  return out.str();
}

std::string comparison_markdown(const std::vector<ComparisonRow>& rows) {
  const TimeUnit unit = unit_for(rows);
  const auto time = [&](double seconds) { return fixed(seconds / unit.seconds, unit.decimals); };
  const std::string u = std::string(" (") + unit.name + ")";
  const bool energy = any_energy(rows);
  std::vector<std::string> header{
      "policy",        "finished",        "JCT mean" + u, "JCT p50" + u,  "JCT p95" + u,     "JCT p99" + u,
      "wait p50" + u,  "wait p95" + u,    "wait p99" + u, "makespan" + u, "GPU allocated",   "GPU busy",
      "fragmentation", "preemptions",     "lost GPU-h",   "lost share",   "Jain (slowdown)", "FTF rho max",
      "FTF rho mean",  "queue guarantee", "stopped",      "wall (s)"};
  if (energy) header.insert(header.end(), {"energy (kWh)", "peak (kW)"});
  // Why a run stopped early and when, for people: "no", "thrashing at 5.20 h".
  const auto stopped = [&](const ComparisonRow& r) {
    return r.stopped == "none" || !r.stopped_at ? std::string("no")
                                                : r.stopped + " at " + time(*r.stopped_at) + " " + unit.name;
  };
  const auto partial = [](const ComparisonRow& r) { return r.finished < r.jobs; };
  const auto why_stopped = [&](const ComparisonRow& r) {
    const std::string at = " at " + time(*r.stopped_at) + " " + unit.name;
    if (r.stopped == "deadlock") return "the run stopped in a deadlock" + at;
    if (r.stopped == "livelock") return "the run stopped as a livelock" + at;
    if (r.stopped == "signal") return "a signal stopped the run" + at;
    return "the run stopped as " + r.stopped + at;
  };
  std::ostringstream out;
  out << '|';
  for (const std::string& h : header) out << ' ' << h << " |";
  out << "\n|---|";
  for (std::size_t i = 1; i < header.size(); ++i) out << "---:|";
  out << '\n';
  for (const ComparisonRow& r : rows) {
    const bool has_slowdowns = r.finish_time_fairness.count > 0;
    const std::optional<double> least_attained = minimum_attainment(r.queue_attainment);
    out << "| " << markdown_cell(r.policy) << " | " << r.finished << '/' << r.jobs << (partial(r) ? " †" : "") << " | "
        << time(r.jct.mean) << " | " << time(r.jct.p50) << " | " << time(r.jct.p95) << " | " << time(r.jct.p99) << " | "
        << time(r.wait.p50) << " | " << time(r.wait.p95) << " | " << time(r.wait.p99) << " | " << time(r.makespan)
        << " | " << percent(r.allocated_share) << " | " << percent(r.busy_share) << " | " << percent(r.fragmentation)
        << " | " << r.preemptions << " | " << fixed(r.lost_gpu_hours, 2) << " | " << percent(r.lost_share) << " | "
        << (r.jain_slowdown ? fixed(*r.jain_slowdown, 3) : kNotAvailable) << " | "
        << (has_slowdowns ? fixed(r.finish_time_fairness.max, 2) : kNotAvailable) << " | "
        << (has_slowdowns ? fixed(r.finish_time_fairness.mean, 2) : kNotAvailable) << " | "
        << (least_attained ? percent(*least_attained) : kNotAvailable) << " | " << stopped(r) << " | "
        << (r.wall_seconds ? significant(*r.wall_seconds, 3) : kNotAvailable) << " |";
    if (energy)
      out << ' ' << (r.energy_kwh ? fixed(*r.energy_kwh, 1) : kNotAvailable) << " | "
          << (r.peak_kw ? fixed(*r.peak_kw, 1) : kNotAvailable) << " |";
    out << '\n';
  }
  // The rows whose figures over finished jobs leave jobs out, and why.
  for (const ComparisonRow& r : rows)
    if (partial(r))
      out << "\n† " << markdown_cell(r.policy) << ": figures cover " << r.finished << " of " << r.jobs
          << " jobs (those that finished)"
          << (r.stopped == "none" || !r.stopped_at ? std::string(".") : "; " + why_stopped(r) + ".") << '\n';
  out << "\nTimes are over finished jobs. GPU allocated / busy: time-weighted shares of the cluster's GPUs held by\n"
         "jobs / computing, over the makespan. Fragmentation: time-weighted share of GPUs free while at least one\n"
         "job waits. Slowdown = JCT / uncontended run time; Jain (slowdown): Jain's index of the users' mean\n"
         "slowdowns (1 = equal; n/a below two users). FTF rho: finish-time fairness (Themis), JCT / uncontended\n"
         "run time, max and mean over finished jobs. Queue guarantee: the least guarantee attainment over capacity\n"
         "queues (below), n/a without capacity queues. Lost share: lost / (lost + useful) GPU time, the share of\n"
         "the GPU time jobs ran that preemptions threw away. Stopped: why and when the run stopped before its end\n"
         "(a deadlock, a livelock, thrashing, a signal); † marks a row whose figures leave out jobs that did not\n"
         "finish.\n";
  if (energy)
    out << "Energy: the IT energy drawn over the run (GPUs and nodes' base, before PUE); peak: the highest IT\n"
           "power (docs/simulation-model.md, Energy).\n";

  // A mixed workload: each kind of job on its own, so that notebooks' sessions
  // do not blur training's completion times.
  if (std::any_of(rows.begin(), rows.end(), [](const ComparisonRow& r) { return r.job_types.size() > 1; })) {
    out << "\n| policy | job type | finished | JCT mean" << u << " | JCT p95" << u << " | wait mean" << u
        << " | wait p95" << u << " |\n|---|---|---:|---:|---:|---:|---:|\n";
    for (const ComparisonRow& r : rows)
      for (const JobTypeFigures& t : r.job_types)
        out << "| " << markdown_cell(r.policy) << " | " << t.type << " | " << t.finished << '/' << t.jobs << " | "
            << time(t.jct.mean) << " | " << time(t.jct.p95) << " | " << time(t.wait.mean) << " | " << time(t.wait.p95)
            << " |\n";
    out << "\nPer job type (training, measured runs, DAGs, notebooks, CPU jobs), over its finished jobs.\n";
  }

  // Serving deployments: their requests' latency, beside the jobs' completion times above.
  if (std::any_of(rows.begin(), rows.end(), [](const ComparisonRow& r) { return !r.serving.empty(); })) {
    out << "\n| policy | deployment | latency p50 (ms) | p95 (ms) | p99 (ms) | late | dropped | GPU-hours |\n"
           "|---|---|---:|---:|---:|---:|---:|---:|\n";
    for (const ComparisonRow& r : rows)
      for (const ServingFigures& d : r.serving)
        out << "| " << markdown_cell(r.policy) << " | " << markdown_cell(d.deployment) << " | " << fixed(d.p50 * 1e3, 1)
            << " | " << fixed(d.p95 * 1e3, 1) << " | " << fixed(d.p99 * 1e3, 1) << " | "
            << percent(d.served > 0 ? d.late / d.served : 0) << " | "
            << percent(d.requests > 0 ? d.dropped / d.requests : 0) << " | " << fixed(d.gpu_hours, 2) << " |\n";
    out << "\nServing: latency percentiles over the requests served; late: share of them slower than the SLO;\n"
           "dropped: share of the requests that arrived.\n";
  }

  if (std::none_of(rows.begin(), rows.end(), [](const ComparisonRow& r) { return !r.queue_attainment.empty(); }))
    return out.str();
  out << "\n| policy | queue | guaranteed GPUs | demand" << u << " | attainment |\n|---|---|---:|---:|---:|\n";
  for (const ComparisonRow& r : rows)
    for (const QueueAttainment& q : r.queue_attainment)
      out << "| " << markdown_cell(r.policy) << " | " << markdown_cell(q.queue) << " | "
          << significant(q.guaranteed_gpus, 4) << " | " << time(q.demand_time) << " | "
          << (q.attainment ? percent(*q.attainment) : kNotAvailable) << " |\n";
  out << "\nGuarantee attainment of a queue: over the time it has demand (GPUs of its jobs submitted and not\n"
         "ended), the time-weighted mean of min(1, GPUs of its running jobs / min(demand, guaranteed GPUs));\n"
         "guaranteed GPUs = absolute capacity x the cluster's GPUs. A job counts as running from its first start\n"
         "to its end, so with preemptions this is an upper bound.\n";
  return out.str();
}

}  // namespace gcsim
