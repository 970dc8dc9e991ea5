#include "sim/report/run_outputs.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <map>
#include <sstream>
#include <variant>

#include <nlohmann/json.hpp>

#include "sim/core/node_fit.hpp"
#include "sim/core/number_text.hpp"
#include "sim/core/work_forms.hpp"
#include "sim/report/comparison_metrics.hpp"
#include "sim/report/contention_outputs.hpp"
#include "sim/report/energy_outputs.hpp"
#include "sim/report/job_type_metrics.hpp"
#include "sim/report/notebook_metrics.hpp"
#include "sim/report/qos_metrics.hpp"
#include "sim/report/row_block_writer.hpp"

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

const char* decision_name(Decision::Kind kind) {
  switch (kind) {
    case Decision::Kind::kAllocate:
      return "allocate";
    case Decision::Kind::kPreempt:
      return "preempt";
    case Decision::Kind::kRelease:
      return "release";
  }
  return "?";
}

// The signal a stop request names (RunRecord::stop_request).
std::string stop_request_name(int request) {
  if (request == SIGINT) return "SIGINT";
  if (request == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(request);
}

std::string percent(double share) { return fixed(100 * share, 1) + "%"; }

// The GPU types among a job's GPUs (indices into ClusterSpec::gpu_types), in
// the cluster's order of types, into `types`; `seen` is scratch, one entry a type.
void gpu_types_of(const ClusterLayout& layout, const std::vector<GpuId>& gpus, std::vector<char>& seen,
                  std::vector<std::uint32_t>& types) {
  types.clear();
  seen.assign(layout.spec().gpu_types.size(), 0);
  for (GpuId g : gpus) seen[layout.gpu_type_index(g)] = 1;
  for (std::uint32_t t = 0; t < seen.size(); ++t)
    if (seen[t]) types.push_back(t);
}

// The type of `types` whose speed a job on them runs at: every step of a job
// waits for its slowest GPU, the least FLOP/s over its compute scale there
// (compute_scale_on, as sim/model/placement_costs.hpp's
// slowest_effective_flops; the job's share of each GPU is the same on all of
// them). Ties: the first type.
std::uint32_t pace_gpu_type(const JobSpec& job, const ClusterLayout& layout, const std::vector<std::uint32_t>& types) {
  const auto speed = [&](std::uint32_t t) {
    const GpuType& type = layout.spec().gpu_types[t];
    return type.flops / compute_scale_on(job, type.name);
  };
  std::uint32_t slowest = types.front();
  for (std::uint32_t t : types)
    if (speed(t) < speed(slowest)) slowest = t;
  return slowest;
}

// What to set when preemptions throw work away: checkpoints where jobs had
// none, else more frequent ones; or fewer preemptions.
std::string lost_work_advice(std::uint64_t restarts_from_zero) {
  return std::string(
             restarts_from_zero > 0
                 ? "  A job without checkpoints starts over when it is preempted. Give jobs a checkpoint interval\n"
                   "  (the workload's \"checkpoint\" field; for a trace, --trace-opt checkpoint_interval=SECONDS),\n"
                 : "  A preempted job loses the work done since its last checkpoint. Checkpoint more often\n"
                   "  (the workload's \"checkpoint\" field; for a trace, --trace-opt checkpoint_interval=SECONDS),\n") +
         "  or make the policy preempt less (tiresias: a larger promote_knob, or promote_knob=0).\n";
}

}  // namespace

namespace {

// RFC 4180: a field holding a comma, a quote or a line break is quoted.
// A plain loop: find_first_of calls memchr on the four once per character,
// and this runs for every id, user and queue of every row.
bool needs_quotes(const std::string& text) {
  for (const char c : text)
    if (c == ',' || c == '"' || c == '\n' || c == '\r') return true;
  return false;
}

void write_csv_field(RowBlockWriter& rows, const std::string& text) {
  if (needs_quotes(text))
    rows.text(csv_field(text));
  else
    rows.text(text);
}

}  // namespace

std::string csv_field(const std::string& text) {
  if (!needs_quotes(text)) return text;
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

// When a job joined the queue, as jobs.csv's submit gives it: for a job never
// submitted, its own submit time, except for a replica its deployment never
// asked for (kNever), which has none of its own (only the deployment's first
// replica carries the deployment's).
Time submit_column(const JobSpec& job, const JobOutcome& o) {
  const ServingWork* serving = replica_of(job.work);
  if (serving && serving->slot > 0) return o.submitted;
  return o.queued_from(job.submit);
}

}  // namespace

// A time that may be unknown (kNever): null then.
nlohmann::ordered_json optional_time(Time t) {
  return t == kNever ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(t);
}

nlohmann::ordered_json serving_outcome_json(const ServingOutcome& d) {
  nlohmann::ordered_json rollouts = nlohmann::ordered_json::array();
  for (Time t : d.rollout_seconds) rollouts.push_back(optional_time(t));
  const double answered = d.served > 0 ? d.served : 1;
  return {{"deployment", d.deployment},
          {"start_s", optional_time(d.start)},
          {"end_s", optional_time(d.end)},
          {"requests", d.arrived},
          {"served", d.served},
          {"dropped", d.dropped},
          {"late", d.late},
          {"late_share", d.late / answered},
          {"latency_s", {{"mean", d.mean_latency}, {"p50", d.p50}, {"p95", d.p95}, {"p99", d.p99}}},
          {"gpu_hours", d.gpu_seconds / 3600.0},
          {"ready_replica_hours", d.ready_replica_seconds / 3600.0},
          {"most_ready_replicas", d.most_replicas},
          {"scale_ups", d.scale_ups},
          {"scale_downs", d.scale_downs},
          {"rollout_seconds", std::move(rollouts)}};
}

// summary.json's "trace": reasons in their text's order, so the same trace gives the same file.
nlohmann::ordered_json replayed_trace_json(const ReplayedTrace& trace) {
  const auto reasons = [](const std::map<std::string, std::size_t>& counts) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& [reason, count] : counts) j[reason] = count;
    return j;
  };
  std::size_t skipped = 0;
  for (const auto* counts : {&trace.malformed, &trace.not_replayable})
    for (const auto& [reason, count] : *counts) skipped += count;
  nlohmann::ordered_json selection = nullptr;
  if (trace.jobs_selected) selection = {{"jobs", *trace.jobs_selected}, {"steps", trace.selection}};
  return {
      {"format", trace.format},
      {"file", trace.file},
      {"rows", trace.rows},
      {"jobs", trace.jobs},
      {"censored_at_start", trace.censored_at_start},
      {"censored_at_end", trace.censored_at_end},
      {"skipped",
       {{"rows", skipped}, {"malformed", reasons(trace.malformed)}, {"not_replayable", reasons(trace.not_replayable)}}},
      {"selection", std::move(selection)}};
}

std::string summary_json(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record,
                         const RunMetrics& m, const SummaryOptions& options) {
  nlohmann::ordered_json j;
  j["cluster"] = record.cluster_name;
  j["policy"] = record.policy;
  j["fidelity"] = record.fidelity;
  j["seed"] = record.seed;
  j["gpus"] = record.total_gpus;
  if (options.trace) j["trace"] = replayed_trace_json(*options.trace);
  j["jobs"] = {{"total", m.jobs}, {"finished", m.finished}, {"failed", m.failed}, {"unfinished", m.unfinished}};
  j["makespan_s"] = m.makespan;
  j["jct_s"] = distribution_json(m.jct);
  j["queueing_delay_s"] = distribution_json(m.wait);
  if (m.censored > 0) {
    j["jct_s_censored"] = distribution_json(m.jct_censored);
    j["queueing_delay_s_censored"] = distribution_json(m.wait_censored);
  }
  nlohmann::ordered_json types = nlohmann::ordered_json::object();
  for (const JobTypeFigures& t : job_type_figures(jobs, record))
    types[t.type] = {{"jobs", t.jobs},
                     {"finished", t.finished},
                     {"failed", t.failed},
                     {"jct_s", distribution_json(t.jct)},
                     {"queueing_delay_s", distribution_json(t.wait)}};
  j["job_types"] = std::move(types);
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
  if (record.livelock) {
    const LivelockReport& livelock = *record.livelock;
    nlohmann::ordered_json changed = nlohmann::ordered_json::array();
    for (const auto& [job, times] : livelock.jobs)
      changed.push_back({{"id", jobs[job].id}, {"gpus_taken_away", times}});
    nlohmann::ordered_json decisions = nlohmann::ordered_json::array();
    for (const Decision& d : livelock.cycle)
      decisions.push_back({{"decision", decision_name(d.kind)}, {"job", jobs[d.job].id}});
    j["livelock"] = {{"detected_at_s", livelock.at},
                     {"policy_calls", livelock.policy_calls},
                     {"jobs", std::move(changed)},
                     {"decisions_repeat", livelock.repeats},
                     {"decisions", std::move(decisions)}};
  } else {
    j["livelock"] = nullptr;
  }
  if (record.thrashing) {
    const ThrashingReport& thrashing = *record.thrashing;
    j["thrashing"] = {{"detected_at_s", thrashing.at},
                      {"since_s", thrashing.since},
                      {"lost_gpu_hours_since", thrashing.lost_gpu_seconds / 3600.0},
                      {"needed_gpu_hours", thrashing.needed_gpu_seconds / 3600.0},
                      {"limit", thrashing.limit},
                      {"unfinished_jobs", thrashing.unfinished_jobs}};
  } else {
    j["thrashing"] = nullptr;
  }
  j["preemptions"] = {{"count", m.preemptions},
                      {"lost_gpu_hours", record.lost_gpu_seconds / 3600.0},
                      {"restarts_from_zero", m.restarts_from_zero},
                      {"useful_gpu_hours", m.gpu_hours_useful},
                      {"lost_share", m.lost_share}};
  if (record.node_failures > 0)
    j["node_failures"] = {{"failures", record.node_failures},
                          {"restarts", record.node_failure_restarts},
                          {"lost_gpu_hours", record.node_failure_lost_gpu_seconds / 3600.0},
                          {"goodput", m.gpu_hours_allocated > 0 ? m.gpu_hours_useful / m.gpu_hours_allocated : 0.0}};
  if (m.failed > 0) {
    std::size_t out_of_memory = 0, dependency = 0;
    for (const JobOutcome& o : record.outcomes) {
      out_of_memory += o.failure == Failure::kOutOfMemory ? 1 : 0;
      dependency += o.failure == Failure::kDependency ? 1 : 0;
    }
    j["failures"] = {{"out_of_memory", out_of_memory},
                     {"dependency", dependency},
                     {"lost_gpu_hours", record.failed_gpu_seconds / 3600.0}};
  }
  if (const NotebookMetrics notebooks = compute_notebook_metrics(jobs, record); notebooks.sessions > 0)
    j["notebooks"] = {{"sessions", notebooks.sessions},
                      {"holds", notebooks.holds},
                      {"finished_holds", notebooks.finished_holds},
                      {"held_gpu_hours", notebooks.held_gpu_hours},
                      {"busy_gpu_hours", notebooks.busy_gpu_hours},
                      {"idle_gpu_hours", notebooks.idle_gpu_hours},
                      {"requeued_holds", notebooks.requeued},
                      {"requeue_wait_mean_s", notebooks.requeue_wait_mean_s},
                      {"requeue_wait_max_s", notebooks.requeue_wait_max_s}};
  if (workload_has_spot_jobs(jobs)) {
    const QosMetrics qos = compute_qos_metrics(jobs, record);
    const auto of_class = [](const QosClassMetrics& c) {
      return nlohmann::ordered_json{{"jobs", c.jobs},
                                    {"finished", c.finished},
                                    {"preempted_jobs", c.preempted_jobs},
                                    {"preemptions", c.preemptions},
                                    {"jct_mean_s", c.jct_mean_s},
                                    {"queueing_delay_mean_s", c.queueing_delay_mean_s}};
    };
    j["qos"] = {{"guaranteed", of_class(qos.guaranteed)}, {"spot", of_class(qos.spot)}};
  }
  if (!record.serving.empty()) {
    nlohmann::ordered_json deployments = nlohmann::ordered_json::array();
    for (const ServingOutcome& d : record.serving) deployments.push_back(serving_outcome_json(d));
    j["serving"] = std::move(deployments);
  }
  if (!options.queues.empty()) {
    // Each guaranteed queue's attainment, from the jobs' first starts and ends.
    std::vector<QueueGuarantee> leaves;
    std::map<std::string, std::size_t> leaf_of_name;
    for (std::size_t q = 0; q < options.queues.size(); ++q) {
      leaves.push_back({options.queues[q].path, options.queues[q].gpus});
      for (const std::string& name : options.queues[q].job_queue_names) leaf_of_name.emplace(name, q);
    }
    std::vector<QueueJobSpan> spans;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const auto leaf = leaf_of_name.find(jobs[i].queue);
      if (leaf == leaf_of_name.end()) continue;  // the policy admitted every job's queue
      const JobOutcome& o = record.outcomes[i];
      spans.push_back({leaf->second, jobs[i].gpus * jobs[i].gpu_share, submit_column(jobs[i], o), o.start, o.end});
    }
    const std::vector<QueueAttainment> attained = guarantee_attainment(leaves, spans, record.simulated_time);
    nlohmann::ordered_json queues = nlohmann::ordered_json::array();
    for (std::size_t q = 0; q < attained.size(); ++q)
      queues.push_back({{"path", attained[q].queue},
                        {"guaranteed_gpus", attained[q].guaranteed_gpus},
                        {"names", options.queues[q].job_queue_names},
                        {"demand_s", attained[q].demand_time},
                        {"attainment", attained[q].attainment ? nlohmann::ordered_json(*attained[q].attainment)
                                                              : nlohmann::ordered_json(nullptr)}});
    j["queues"] = std::move(queues);
    const std::optional<double> least = minimum_attainment(attained);
    j["queue_guarantee_attainment"] = least ? nlohmann::ordered_json(*least) : nlohmann::ordered_json(nullptr);
  }
  if (record.stop_request != 0)
    j["partial"] = {{"signal", stop_request_name(record.stop_request)},
                    {"simulated_time_s", record.simulated_time},
                    {"jobs_finished", m.finished},
                    {"jobs_running_or_waiting", m.censored},
                    {"jobs_not_submitted", m.unfinished - m.censored}};
  if (options.contention) j["contention"] = contention_summary_json(*options.contention);
  if (options.energy) j["energy"] = energy_summary_json(*options.energy);
  j["rescaled_jobs"] = record.rescaled_jobs;
  j["jobs_across_gpu_types"] = jobs_across_gpu_types(layout, record);
  j["simulated_time_s"] = record.simulated_time;
  j["events_processed"] = record.events;
  if (options.include_wall_time) j["wall_time_s"] = record.wall_seconds;
  return j.dump(2) + "\n";
}

std::size_t jobs_across_gpu_types(const ClusterLayout& layout, const RunRecord& record) {
  return static_cast<std::size_t>(
      std::count_if(record.outcomes.begin(), record.outcomes.end(),
                    [&](const JobOutcome& o) { return !o.gpus.empty() && spans_gpu_types(layout, o.gpus); }));
}

std::string jobs_csv(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record) {
  std::ostringstream out;
  write_jobs_csv(out, jobs, layout, record);
  return out.str();
}

void write_jobs_csv(std::ostream& out, const std::vector<JobSpec>& jobs, const ClusterLayout& layout,
                    const RunRecord& record, const EnergyReport* energy) {
  // Each GPU's label written once, not once per job placed on it.
  std::vector<std::string> labels(layout.gpu_count());
  for (std::size_t g = 0; g < labels.size(); ++g) labels[g] = layout.gpu_label(static_cast<GpuId>(g));
  RowBlockWriter rows(out);
  // The QoS class only where there is more than one: other runs' files stay as they were.
  const bool qos = workload_has_spot_jobs(jobs);
  rows.text(
      "id,user,queue,gpus,submit,start,end,wait,jct,state,preemptions,uncontended,placement,gpu_share,"
      "synthetic_iterations_per_s,real_iterations_per_s,failure,type,gpu_types,pace_gpu_type");
  if (qos) rows.text(",qos");
  rows.text(energy ? std::string(kJobsCsvEnergyHeader) + "\n" : "\n");
  std::string placement;
  std::vector<char> seen;
  std::vector<std::uint32_t> types;
  std::string type_names;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& job = jobs[i];
    const JobOutcome& o = record.outcomes[i];
    const bool started = o.start != kNever;
    const bool ended = o.end != kNever;
    placement.clear();
    for (GpuId g : o.gpus) {
      if (!placement.empty()) placement += ';';
      placement += labels[g];
    }
    if (!record.cpu_nodes.empty() && record.cpu_nodes[i] != kNoNode) {
      // A DAG of CPU workers lists every node it ran on.
      const auto span = record.cpu_spans.find(static_cast<JobIndex>(i));
      placement = layout.node(record.cpu_nodes[i]).name;
      if (span != record.cpu_spans.end())
        for (std::size_t k = 1; k < span->second.size(); ++k) placement += ';' + layout.node(span->second[k]).name;
    }
    write_csv_field(rows, job.id);
    rows.character(',');
    write_csv_field(rows, job.user);
    rows.character(',');
    write_csv_field(rows, job.queue);
    const Time submitted = submit_column(job, o);
    rows.character(',').integer(job.gpus).character(',').text(format_seconds(submitted)).character(',');
    if (started) rows.text(format_seconds(o.start));
    rows.character(',');
    if (ended) rows.text(format_seconds(o.end));
    rows.character(',');
    if (started) rows.text(format_seconds(o.start - submitted));
    rows.character(',');
    // A replica let go before it ever started has an end but completed nothing.
    if (started && ended) rows.text(format_seconds(o.end - submitted));
    rows.character(',').text(to_string(o.state)).character(',').integer(o.preemptions).character(',');
    rows.text(format_seconds(o.uncontended)).character(',');
    write_csv_field(rows, placement);
    rows.character(',').text(exact_number(job.gpu_share)).character(',');
    if (o.synthetic_iterations_per_s > 0) rows.text(exact_number(o.synthetic_iterations_per_s));
    rows.character(',');
    if (o.real_iterations_per_s > 0) rows.text(exact_number(o.real_iterations_per_s));
    rows.character(',');
    if (o.failure == Failure::kOutOfMemory) rows.text("out_of_memory");
    if (o.failure == Failure::kDependency) write_csv_field(rows, "dependency:" + jobs[o.cause].id);
    rows.character(',').text(job_type(job)).character(',');
    gpu_types_of(layout, o.gpus, seen, types);
    type_names.clear();
    for (std::uint32_t t : types) {
      if (!type_names.empty()) type_names += ';';
      type_names += layout.spec().gpu_types[t].name;
    }
    write_csv_field(rows, type_names);
    rows.character(',');
    if (!types.empty()) write_csv_field(rows, layout.spec().gpu_types[pace_gpu_type(job, layout, types)].name);
    if (qos) rows.character(',').text(qos_name(job.qos));
    if (energy) rows.text(jobs_csv_energy_fields(*energy, static_cast<JobIndex>(i)));
    rows.character('\n');
    rows.end_row();
  }
  rows.flush();
}

void write_serving_csv(std::ostream& out, const RunRecord& record) {
  RowBlockWriter rows(out);
  rows.text("time,deployment,desired_replicas,replicas,ready_replicas,arrival_rate,utilization,backlog\n");
  for (const ServingOutcome& d : record.serving)
    for (const ServingSample& p : d.samples) {
      rows.text(format_seconds(p.time)).character(',');
      write_csv_field(rows, d.deployment);
      rows.character(',').integer(p.desired).character(',').integer(p.replicas).character(',').integer(p.ready);
      rows.character(',').text(fixed(p.arrival_rate, 6)).character(',').text(fixed(p.utilization, 6));
      rows.character(',').text(fixed(p.backlog, 6)).character('\n');
      rows.end_row();
    }
  rows.flush();
}

std::string timeline_csv(const RunRecord& record) {
  std::ostringstream out;
  write_timeline_csv(out, record);
  return out.str();
}

void write_timeline_csv(std::ostream& out, const RunRecord& record) {
  RowBlockWriter rows(out);
  rows.text("time,allocated_gpus,busy_gpus,queued_jobs\n");
  for (const TimelinePoint& p : record.timeline) {
    rows.text(format_seconds(p.time)).character(',').text(exact_number(p.allocated)).character(',');
    rows.text(exact_number(p.busy)).character(',').integer(p.queued).character('\n');
    rows.end_row();
  }
  rows.flush();
}

std::string deadlock_diagnosis(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record) {
  if (!record.deadlock) return "";
  std::ostringstream out;
  out << "deadlock at t=" << fixed(record.deadlock->at, 6) << " s: " << record.deadlock->jobs.size()
      << " jobs hold GPUs while waiting for more, and nothing running can free any:\n";
  // The first ten: a deadlock of a large trace can hold thousands of jobs,
  // which summary.json lists all.
  const std::vector<JobIndex>& held = record.deadlock->jobs;
  for (std::size_t i = 0; i < held.size() && i < 10; ++i)
    out << "  job '" << jobs[held[i]].id << "' holds " << record.outcomes[held[i]].gpus.size() << " of "
        << jobs[held[i]].gpus << " GPUs (" << gpu_labels(layout, record.outcomes[held[i]].gpus) << ")\n";
  if (held.size() > 10) out << "  and " << held.size() - 10 << " more jobs (summary.json lists them all)\n";
  return out.str();
}

std::string livelock_diagnosis(const std::vector<JobSpec>& jobs, const RunRecord& record) {
  if (!record.livelock) return "";
  const LivelockReport& livelock = *record.livelock;
  std::ostringstream out;
  out << "livelock at t=" << fixed(livelock.at, 6)
      << " s: the policy kept taking GPUs away and giving them back without simulated time advancing ("
      << livelock.policy_calls << " calls at this instant); the run stopped there (\"livelock\" in summary.json):\n";
  for (std::size_t i = 0; i < livelock.jobs.size() && i < 10; ++i)
    out << "  job '" << jobs[livelock.jobs[i].first].id << "' lost its GPUs " << livelock.jobs[i].second
        << " times at this instant\n";
  if (livelock.jobs.size() > 10) out << "  and " << livelock.jobs.size() - 10 << " more jobs\n";
  out << (livelock.repeats ? "  the decisions that repeat: " : "  the last decisions: ");
  for (std::size_t i = 0; i < livelock.cycle.size(); ++i)
    out << (i ? ", " : "") << decision_name(livelock.cycle[i].kind) << " '" << jobs[livelock.cycle[i].job].id << "'";
  out << "\n";
  return out.str();
}

std::string thrashing_diagnosis(const std::vector<JobSpec>& jobs, const RunRecord& record, const RunMetrics& m) {
  if (!record.thrashing) return "";
  const ThrashingReport& thrashing = *record.thrashing;
  std::ostringstream out;
  out << "thrashing at t=" << fixed(thrashing.at, 6) << " s: since "
      << (m.finished + m.failed > 0 ? "the last job ended" : "the first submission")
      << " (t=" << fixed(thrashing.since, 6) << " s) preemptions threw away "
      << fixed(thrashing.lost_gpu_seconds / 3600, 2) << " GPU-hours, more than " << exact_number(thrashing.limit)
      << " times the " << fixed(thrashing.needed_gpu_seconds / 3600, 2) << " GPU-hours the "
      << thrashing.unfinished_jobs
      << " unfinished jobs needed then to run to their end, and no job finished; the run stopped there "
         "(\"thrashing\" in summary.json):\n";
  std::vector<JobIndex> preempted;
  for (JobIndex j = 0; j < record.outcomes.size(); ++j)
    if (record.outcomes[j].preemptions > 0 && record.outcomes[j].state != JobState::kFinished) preempted.push_back(j);
  std::stable_sort(preempted.begin(), preempted.end(), [&](JobIndex a, JobIndex b) {
    return record.outcomes[a].preemptions > record.outcomes[b].preemptions;
  });
  for (std::size_t i = 0; i < preempted.size() && i < 5; ++i)
    out << "  job '" << jobs[preempted[i]].id << "' was preempted " << record.outcomes[preempted[i]].preemptions
        << " times\n";
  if (preempted.size() > 5) out << "  and " << preempted.size() - 5 << " more unfinished jobs were preempted\n";
  out << lost_work_advice(record.restarts_from_zero);
  return out.str();
}

std::string lost_work_notice(const RunMetrics& m) {
  if (!(m.lost_share > kLostWorkNoticeShare) || m.gpu_hours_lost <= 0) return "";
  std::ostringstream out;
  out << "notice: preemptions threw away " << fixed(m.gpu_hours_lost, 2) << " GPU-hours, ";
  if (m.gpu_hours_useful > 0)
    out << percent(m.lost_share) << " of the " << fixed(m.gpu_hours_lost + m.gpu_hours_useful, 2)
        << " GPU-hours jobs ran (the lost share; more than " << percent(kLostWorkNoticeShare) << ")";
  else
    out << "and jobs did no useful work";
  out << "; " << m.restarts_from_zero << " of the " << m.preemptions << " preemptions restarted a job from zero.\n"
      << lost_work_advice(m.restarts_from_zero);
  return out.str();
}

std::string human_summary(const RunRecord& record, const RunMetrics& m, const ReplayedTrace* trace) {
  std::ostringstream out;
  out << "gcsim: policy " << record.policy << " on " << record.cluster_name << " (" << record.total_gpus
      << " GPUs), fidelity " << record.fidelity << "\n";
  if (trace) {
    std::size_t malformed = 0, not_replayable = 0;
    for (const auto& [reason, count] : trace->malformed) malformed += count;
    for (const auto& [reason, count] : trace->not_replayable) not_replayable += count;
    out << "  trace       " << trace->format << ", " << trace->jobs << " jobs from " << trace->rows << " rows ("
        << malformed << " malformed, " << not_replayable << " not replayable), censored " << trace->censored_at_start
        << " at start, " << trace->censored_at_end << " at end";
    if (trace->jobs_selected) out << "; " << *trace->jobs_selected << " selected";
    out << "\n";
  }
  out << "  jobs        " << m.finished << " finished, " << m.failed << " failed, " << m.unfinished
      << " unfinished (of " << m.jobs << ")\n"
      << "  makespan    " << duration_text(m.makespan) << "\n"
      << "  JCT         mean " << duration_text(m.jct.mean) << ", p50 " << duration_text(m.jct.p50) << ", p95 "
      << duration_text(m.jct.p95) << ", p99 " << duration_text(m.jct.p99) << "\n"
      << "  wait        mean " << duration_text(m.wait.mean) << ", p50 " << duration_text(m.wait.p50) << ", p95 "
      << duration_text(m.wait.p95) << ", p99 " << duration_text(m.wait.p99) << "\n"
      << "  GPU util    allocated " << fixed(100 * m.allocated_share, 1) << "%, busy " << fixed(100 * m.busy_share, 1)
      << "%\n";
  if (m.censored > 0)
    out << "  censored    JCT mean " << duration_text(m.jct_censored.mean) << ", wait mean "
        << duration_text(m.wait_censored.mean) << " (" << m.censored << " jobs unfinished at the stop counted)\n";
  if (m.preemptions > 0 || m.gpu_hours_lost > 0)
    out << "  preempted   " << m.preemptions << " times, " << m.restarts_from_zero << " restarts from zero, "
        << fixed(m.gpu_hours_lost, 2) << " GPU-hours lost (" << percent(m.lost_share)
        << " of the GPU time jobs ran, the lost share)\n";
  for (const ServingOutcome& d : record.serving)
    out << "  serving     " << d.deployment << ": latency p50 " << duration_text(d.p50) << ", p99 "
        << duration_text(d.p99) << ", " << percent(d.arrived > 0 ? (d.late + d.dropped) / d.arrived : 0)
        << " late or dropped, up to " << d.most_replicas << " replicas\n";
  out << "  simulated   " << duration_text(record.simulated_time) << " in " << fixed(record.wall_seconds, 3)
      << " s wall, " << record.events << " events\n";
  return out.str();
}

}  // namespace gcsim
