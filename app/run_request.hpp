// run_request.hpp: one run assembled from what a user gives (a cluster, a
// workload or trace, a policy and its options) and the files it writes, for
// every front end: `gcsim run` and the Python module (python/).
//
// run_simulation() does what a run is, in order: the policy from the registry
// (built-in policies and plugins) with its options, the cluster, the
// workload (a native file, a trace "FORMAT:FILE" read with its settings, or
// a native document given in memory), its checks against the cluster and the
// policy, the simulation, its metrics and, when asked, who slowed whom.
// Everything that can be wrong with the inputs is found before simulating:
// UsageError (a bad option), UnknownPolicy, InputError (naming the file,
// the place in it and the field); the simulation's own errors pass through
// (PlanRejected, PolicyFailed, InvariantBroken). Notes a user should read
// (what a trace replay kept, jobs rounded to whole GPUs) go to `notes`.
//
// The outputs are the files of `gcsim run --out DIR`, each written to any
// stream by write_run_output(), so that a front end may hold them in memory
// or stage them (stage_run_outputs, atomic_output.hpp).
//
//   RunRequest request;
//   request.cluster = "scenarios/clusters/rack-32gpu.json";
//   request.workload = "scenarios/workloads/default.json";
//   request.policy = "fifo";
//   const RunResult result = run_simulation(request, std::cerr);
//   for (const std::string& name : run_output_names(result)) write_run_output(std::cout, result, name);
#pragma once

#include <csignal>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/policy_registry.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/report/contention_ledger.hpp"
#include "sim/report/energy_meter.hpp"
#include "sim/report/run_metrics.hpp"
#include "sim/report/run_outputs.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

struct RunRequest {
  /// The cluster description's file; with `cluster_document`, only its name in errors.
  std::string cluster;
  std::optional<nlohmann::json> cluster_document;
  /// The workload: a native file or "FORMAT:FILE" (a trace); with
  /// `workload_document` (a native workload), only its name in errors.
  std::string workload;
  std::optional<nlohmann::json> workload_document;
  /// Trace reader settings, "KEY=VALUE" (trace_request.hpp); a trace's only.
  std::vector<std::string> trace_settings;
  std::string policy;
  /// A placement combined with the policy; empty: the policy's own.
  std::string placement;
  /// Policy options, "KEY=VALUE".
  std::vector<std::string> policy_settings;
  /// Policy libraries to load (plugin_loader.hpp).
  std::vector<std::string> plugins;
  /// Adds a front end's own policies to the registry `policy` is looked up
  /// in (the Python module's policies written in Python); none when empty.
  std::function<void(PolicyRegistry&)> register_policies;
  std::uint64_t seed = 0;
  Fidelity fidelity = Fidelity::kJob;
  std::uint32_t job_rounds = 4;
  Time until = kNever;
  bool gpu_memory_isolation = true;
  /// Jobs asking a fraction of a GPU get whole GPUs.
  bool whole_gpus = false;
  /// Node failures to replay (a file, workloads/node_failures.hpp); empty: none.
  std::string node_failures;
  /// Keep every run of every job, for a timeline of the schedule (trace_events.hpp).
  bool keep_runs = false;
  /// Audit every instant and plan (SimulationOptions::check).
  bool check = false;
  /// Follow every flow and report who slowed whom (contention.csv, ...).
  bool contention = false;
  /// Account the energy drawn (power.csv, jobs.csv's and summary.json's energy).
  bool energy = false;
  /// A start-up latency model (startup_latency_flag.hpp: "30",
  /// "lognormal:MU:SIGMA", "empirical:FILE") and the seed of its draws; empty: none.
  std::string startup_latency;
  std::uint64_t startup_seed = 0;
  /// summary.json's wall time; off for byte-identical reruns.
  bool wall_time = true;
  /// As SimulationOptions::stop_request and ::progress.
  const volatile std::sig_atomic_t* stop_request = nullptr;
  std::function<void(const SimulationProgress&)> progress;
  /// Called once the inputs are read and checked, just before simulating
  /// (the command catches SIGINT then: until then a signal ends it at once).
  std::function<void()> before_simulating;
};

/// A run's inputs as they were simulated, and what came of it.
struct RunResult {
  std::unique_ptr<const ClusterLayout> layout;
  std::vector<JobSpec> jobs;
  RunRecord record;
  RunMetrics metrics;
  /// The trace replayed, when the workload is one: summary.json's "trace".
  std::optional<ReplayedTrace> trace;
  std::vector<GuaranteedQueue> guaranteed_queues;
  /// Who slowed whom, under RunRequest::contention.
  std::optional<ContentionReport> contention;
  /// The energy drawn, under RunRequest::energy.
  std::optional<EnergyReport> energy;
  /// Parallel to `jobs`, for a trace that records when its jobs started:
  /// each one's recorded wait (TraceReadResult::recorded_waits, NaN where
  /// unknown); empty otherwise.
  std::vector<double> recorded_waits;
  bool wall_time = true;
};

/// Fidelity by name: "job" or "iteration"; UsageError naming `option` otherwise.
Fidelity parse_fidelity(const std::string& text, const std::string& option = "--fidelity");

/// Assembles the run, simulates it and measures it (above).
RunResult run_simulation(const RunRequest& request, std::ostream& notes);

/// The files the run writes, in order: summary.json, jobs.csv,
/// timeline.csv, serving.csv (when the workload has serving deployments),
/// contention.csv and link_utilization.csv (under contention), power.csv
/// (under energy).
std::vector<std::string> run_output_names(const RunResult& result);
/// Writes the file `name` (one of run_output_names()) to `out`.
void write_run_output(std::ostream& out, const RunResult& result, const std::string& name);
/// Stages every file of the run in `out` (to be committed by the caller).
void stage_run_outputs(OutputSet& out, const RunResult& result);

/// Why the run stopped before its end, as summary.json names it: "deadlock",
/// "livelock", "thrashing", "interrupted" (a stop request); empty when it ran
/// to its end (or to `until`).
std::string early_stop(const RunRecord& record);
/// What the early stop means, its jobs named (the diagnoses of
/// run_outputs.hpp); empty when it ran to its end.
std::string early_stop_diagnosis(const RunResult& result);

}  // namespace gcsim
