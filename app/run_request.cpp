#include "app/run_request.hpp"

#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "app/plugin_loader.hpp"
#include "app/policy_option_flags.hpp"
#include "app/startup_latency_flag.hpp"
#include "app/trace_request.hpp"
#include "policies/register_builtin.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/usage_error.hpp"
#include "sim/engine/contention_recorder.hpp"
#include "sim/engine/energy_recorder.hpp"
#include "sim/report/energy_outputs.hpp"
#include "sim/report/power_model.hpp"
#include "sim/report/contention_outputs.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "workloads/native_workload.hpp"
#include "workloads/node_failures.hpp"
#include "workloads/workload_validation.hpp"

namespace gcsim {
namespace {

// GCSIM_CHECK=1: every run is audited as under --check, however it was started.
bool check_everywhere() {
  const char* value = std::getenv("GCSIM_CHECK");
  return value && std::string(value) == "1";
}

// summary.json's "trace": what the reader read, kept, censored and skipped,
// and what the selection left of the `replayed` jobs.
ReplayedTrace replayed_trace(const TraceReadResult& trace, const std::string& workload, std::size_t replayed) {
  ReplayedTrace report;
  report.format = trace.format;
  report.file = parse_workload_source(workload).path;
  report.rows = trace.rows;
  report.jobs = trace.jobs_before_selection.value_or(replayed);
  report.censored_at_start = trace.censored_at_start;
  report.censored_at_end = trace.censored_at_end;
  for (const SkippedRow& row : trace.skipped) ++(row.malformed ? report.malformed : report.not_replayable)[row.reason];
  if (trace.jobs_before_selection) {
    report.selection = trace.selection;
    report.jobs_selected = replayed;
  }
  return report;
}

std::unique_ptr<SchedulingPolicy> make_policy(const RunRequest& request) {
  PolicyRegistry registry;
  register_builtin(registry);
  for (const std::string& plugin : request.plugins) load_policy_plugin(plugin, registry);
  if (request.register_policies) request.register_policies(registry);
  try {
    return registry.make_policy(request.policy, policy_options(request.policy_settings, request.seed),
                                request.placement);
  } catch (const UnknownPolicy&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("invalid policy option: ") + e.what());
  }
}

std::vector<JobSpec> read_jobs(const RunRequest& request, const ClusterLayout& layout, std::ostream& notes,
                               std::optional<ReplayedTrace>& replayed, std::vector<double>& recorded_waits) {
  if (request.workload_document) {
    if (!request.trace_settings.empty())
      throw UsageError("trace settings apply to a trace workload FORMAT:FILE, not to a native workload");
    return parse_native_workload(*request.workload_document, request.workload);
  }
  TraceReadResult trace;
  std::vector<JobSpec> jobs = read_workload_argument(request.workload, request.trace_settings, notes, &layout, &trace);
  if (!trace.format.empty()) replayed = replayed_trace(trace, request.workload, jobs.size());
  recorded_waits = std::move(trace.recorded_waits);
  return jobs;
}

}  // namespace

Fidelity parse_fidelity(const std::string& text, const std::string& option) {
  if (text == "job") return Fidelity::kJob;
  if (text == "iteration") return Fidelity::kIteration;
  throw UsageError("option '" + option + "' must be 'job' or 'iteration', got '" + text + "'");
}

RunResult run_simulation(const RunRequest& request, std::ostream& notes) {
  if (request.job_rounds < 1 || request.job_rounds > 1000000)
    throw UsageError("option '--job-rounds' must be between 1 and 1000000");
  if (request.until <= 0) throw UsageError("option '--until' must be positive");
  SimulationOptions options;
  options.seed = request.seed;
  options.fidelity = request.fidelity;
  options.until = request.until;
  options.gpu_memory_isolation = request.gpu_memory_isolation;
  options.job_rounds = request.job_rounds;
  if (!request.startup_latency.empty())
    options.startup_latency = parse_startup_latency(request.startup_latency, request.startup_seed);

  // Everything that can be wrong with the inputs is found before simulating.
  RunResult result;
  result.wall_time = request.wall_time;
  const std::unique_ptr<SchedulingPolicy> policy = make_policy(request);
  result.layout = std::make_unique<const ClusterLayout>(
      request.cluster_document ? parse_cluster_json(*request.cluster_document, request.cluster)
                               : read_cluster_file(request.cluster));
  const ClusterLayout& layout = *result.layout;
  const ClusterGraph graph(layout);
  result.jobs = read_jobs(request, layout, notes, result.trace, result.recorded_waits);
  std::vector<JobSpec>& jobs = result.jobs;
  if (request.whole_gpus)
    if (const std::size_t rounded = give_whole_gpus(jobs); rounded > 0)
      notes << "gcsim: --whole-gpus: " << rounded << " jobs asking a fraction of a GPU run on whole GPUs\n";
  validate_workload_against_cluster(jobs, layout, request.workload);
  validate_workload_for_policy(jobs, *policy, request.workload);
  if (!request.node_failures.empty()) options.node_failures = read_node_failures_file(request.node_failures, layout);
  std::optional<EnergyRecorder> energy;
  if (request.energy) energy.emplace(jobs, power_model(layout, request.cluster));

  if (request.before_simulating) request.before_simulating();
  options.stop_request = request.stop_request;
  options.progress = request.progress;
  options.keep_runs = request.keep_runs;
  options.check = request.check || check_everywhere();
  std::optional<ContentionRecorder> contention;
  if (request.contention) options.listeners.push_back(&contention.emplace(layout, jobs.size()));
  if (energy) options.listeners.push_back(&*energy);
  result.record = simulate({layout, graph, jobs, *policy, options});
  result.metrics = compute_run_metrics(jobs, result.record);
  if (contention) result.contention = contention->report();
  if (energy) result.energy = energy->finish(result.record.simulated_time);
  result.guaranteed_queues = policy->guaranteed_queues(layout);
  return result;
}

std::vector<std::string> run_output_names(const RunResult& result) {
  std::vector<std::string> names{"summary.json", "jobs.csv", "timeline.csv"};
  if (!result.record.serving.empty()) names.push_back("serving.csv");
  if (result.contention) {
    names.push_back("contention.csv");
    names.push_back("link_utilization.csv");
  }
  if (result.energy) names.push_back("power.csv");
  return names;
}

void write_run_output(std::ostream& out, const RunResult& result, const std::string& name) {
  const ClusterLayout& layout = *result.layout;
  if (name == "summary.json")
    out << summary_json(result.jobs, layout, result.record, result.metrics,
                        {result.wall_time, result.guaranteed_queues, result.trace,
                         result.contention ? &*result.contention : nullptr, result.energy ? &*result.energy : nullptr});
  else if (name == "jobs.csv")
    write_jobs_csv(out, result.jobs, layout, result.record, result.energy ? &*result.energy : nullptr);
  else if (name == "timeline.csv")
    write_timeline_csv(out, result.record);
  else if (name == "serving.csv" && !result.record.serving.empty())
    write_serving_csv(out, result.record);
  else if (name == "contention.csv" && result.contention)
    write_contention_csv(out, result.jobs, *result.contention);
  else if (name == "link_utilization.csv" && result.contention)
    write_link_utilization_csv(out, *result.contention);
  else if (name == "power.csv" && result.energy)
    write_power_csv(out, *result.energy);
  else
    throw std::invalid_argument("the run wrote no output file '" + name + "'");
}

void stage_run_outputs(OutputSet& out, const RunResult& result) {
  for (const std::string& name : run_output_names(result))
    out.stage(name, [&](std::ostream& file) { write_run_output(file, result, name); });
}

std::string early_stop(const RunRecord& record) {
  if (record.stop_request != 0) return "interrupted";
  if (record.deadlock) return "deadlock";
  if (record.livelock) return "livelock";
  if (record.thrashing) return "thrashing";
  return "";
}

std::string early_stop_diagnosis(const RunResult& result) {
  const RunRecord& record = result.record;
  if (record.stop_request != 0) return "";
  if (record.deadlock) return deadlock_diagnosis(result.jobs, *result.layout, record);
  if (record.livelock) return livelock_diagnosis(result.jobs, record);
  if (record.thrashing) return thrashing_diagnosis(result.jobs, record, result.metrics);
  return "";
}

}  // namespace gcsim
