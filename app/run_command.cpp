// `gcsim run`: simulate one workload on one cluster under one policy.
#include <cstdlib>
#include <iostream>
#include <new>
#include <optional>

#include "policies/register_builtin.hpp"
#include "app/arguments.hpp"
#include "app/commands.hpp"
#include "app/startup_latency_arguments.hpp"
#include "app/interrupt_signals.hpp"
#include "app/plugin_loader.hpp"
#include "app/progress_line.hpp"
#include "app/run_request.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/report/run_metrics.hpp"
#include "sim/report/run_outputs.hpp"
#include "sim/report/trace_events.hpp"

namespace gcsim {
namespace {

constexpr const char* kRunUsage =
    R"(usage: gcsim run --cluster CLUSTER.json --workload WORKLOAD.json --policy NAME --out DIR
                 [--seed N] [--fidelity job|iteration] [--job-rounds R] [--placement NAME]
                 [--policy-opt KEY=VALUE ...] [--plugin LIB.so ...] [--until SECONDS]
                 [--whole-gpus] [--gpu-memory-isolation on|off] [--node-failures FILE]
                 [--no-wall-time] [--quiet] [--progress auto|always|never] [--timeline FILE]
                 [--check] [--contention] [--energy]
                 [--startup-latency SECONDS|lognormal:MU:SIGMA|empirical:FILE]
                 [--startup-seed N]

Simulates the workload on the cluster under the policy and writes, all at once
when the run succeeds (nothing is left in DIR when it fails):
  DIR/summary.json   for a trace, what was replayed ("trace": rows read, jobs
                     kept, censored, rows skipped per reason, selected); jobs
                     finished/failed/unfinished, makespan, JCT and queueing
                     delay (mean, p50, p95, p99, max), GPU utilization (allocated
                     and busy shares, time-weighted), preemptions (count,
                     restarts from zero, GPU-hours lost and useful, lost share
                     = lost / (lost + useful)),
                     why the run stopped early (deadlock, livelock, thrashing),
                     JCT and wait per job type, failures, notebooks' held and
                      idle GPU-hours, per QoS class (when the workload holds
                      spot jobs) jobs, preemptions, mean JCT and queueing delay,
                      jobs across GPU types, simulated time, events processed,
                      wall time
  DIR/jobs.csv       one row per job: id, user, queue, gpus, submit, start, end,
                     wait, jct, state, preemptions, uncontended (run time alone
                     on an empty cluster; a serving replica's: the time it ran),
                     placement (node:gpu;...), gpu_share,
                     training speeds (synthetic and real data), failure, type,
                      gpu_types (of its GPUs), pace_gpu_type (its slowest GPU's),
                      and qos (guaranteed or spot) when the workload holds spot
                      jobs
  DIR/timeline.csv   allocated and busy GPUs and queued jobs, one row per change
  DIR/serving.csv    serving deployments: replicas, request rate, utilization and
                     backlog at each autoscaler sync (only when there are any)
  with --contention, who slowed whom (docs/simulation-model.md, Contention):
  DIR/contention.csv job, other_job, link, seconds_shared, seconds_lost: the
                     seconds the job and the other job both had flows on the
                     link (one direction of it, as SimGrid names it:
                     "n-0-nic_UP"), and the part of the job's communication
                     time lost against the same steps alone that the link and
                     the other job explain; a job's seconds_lost add up to its
                     loss, a row "-,-" holding what no link explains
  DIR/link_utilization.csv
                     link, time, used: the 8 busiest links' share of their
                     bandwidth in use, in bins from `time` (at most 256 over
                     the run, each a power of two of seconds wide)
  and summary.json's "contention": jobs that ran, the shares of them that lost
  more than 5% and 20% of the time they ran, the seconds of communication, of
  the same steps alone and lost, the 5 links of most seconds lost, the bins'
  width
  with --energy, the energy drawn (docs/simulation-model.md, Energy):
  DIR/power.csv      time, watts: the IT power (GPUs and nodes' base) from each
                     time until the next row, a row per change
  jobs.csv's last columns energy_kwh and energy_kwh_per_gpu_hour, and
  summary.json's "energy": IT and facility (PUE) kWh, the jobs', idle GPUs',
  nodes' base and lost work's kWh, mean and peak kW, kWh per user and queue,
  and sleeping nodes' sleep_kwh where node groups have sleep_after; capped
  GPUs (power_cap_watts, a job's power_limit_watts, a start capped by
  power-budget's over_budget=cap) compute slower and draw their power
  state's watts (docs/cluster-format.md, Power states and caps); an
  llm_training job's pipeline plan (stage_power_limits_watts: a state per
  stage; stage_power_plan "perseus": a state per forward and backward) is
  listed in summary.json's energy.stage_power_states

Options:
  --cluster FILE      cluster description (JSON, see docs/cluster-format.md)
  --workload FILE     jobs (gcsim's native JSON, see docs/workload-format.md), or
                      FORMAT:FILE to replay a trace (philly, swf, helios, pai, csv;
                      see gcsim trace --help)
  --trace-opt K=V     a trace reader setting (gpu_type, procs_per_gpu, map,
                      time_unit, delimiter, cpu_unit, memory_unit,
                      gpu_memory_unit, censored, spot_values,
                      guaranteed_values, priority_levels, epoch, strict; CSV
                      traces below), selection (from,
                      until, queue, min_gpus, max_gpus, sample, seed,
                      load_scale) or work source (work=recorded, the default, or
                      work=throughput:gavel|pollux|sia:PATH with job_type=trace|
                      uniform|gpu-time|MODEL), or checkpoint_interval=T: every
                      job checkpoints every T of work ("30min", seconds), and
                      resumes from its last checkpoint when preempted instead
                      of starting over, or checkpoint_at_preemption=true:
                      every job saves its work when preempted and resumes
                      from it, or duration=recorded: a run time
                      measured on one GPU type lasts as long on any type
                      (default duration=scaled: by the types' FLOP/s), or
                      mixed_gpu_types=true: a job may run on GPUs of several
                      types at once, at its slowest GPU's speed (by default
                      each job runs on one type); repeatable
  --policy NAME       scheduling policy (gcsim policies lists them); WRAPPER:NAME
                      wraps one (power-budget:fifo --policy-opt budget_kw=KW;
                      --policy-opt over_budget=cap starts a job over the budget
                      at the highest power state that fits, if it computes
                      at min_speed=F or faster, default 0.5, instead of
                      making it wait)
  --out DIR           output directory (created if missing)
  --seed N            seed handed to policies that draw random numbers (default 0)
  --fidelity F        job (default): a constant number of SimGrid activities per
                      job, for large runs; iteration: every iteration's compute and
                      ring steps, exact, for validation and small runs
  --job-rounds R      job fidelity: merge each job's iterations into R rounds of
                      compute then communication (default 4); more rounds let
                      jobs sharing links interleave as they do iteration by
                      iteration, at a cost proportional to R
  --placement NAME    placement combined with the policy (default: the policy's own)
  --policy-opt K=V    an option for the policy; repeatable
  --plugin LIB.so     load policies from a library built against gcsim's
                      installed headers (sim/core/plugin_api.hpp); repeatable
  --until SECONDS     stop the simulation at this time; later jobs are unfinished
  --gpu-memory-isolation on|off
                      on (default, as YARN with GPU isolation): a job using
                      more GPU memory than it asked for (gpu_memory_use) fails
                      itself; off: a job fails when its use does not fit beside
                      its neighbours' on a shared GPU
  --node-failures FILE
                      node failures to replay, listed or drawn from an MTBF
                      (docs/workload-format.md, "Node failures"): the jobs on a
                      failed node go back to their last checkpoint and wait;
                      its GPUs are down until repaired
  --whole-gpus        jobs asking a fraction of a GPU (gpu_share, PAI's plan_gpu
                      below 100) get whole GPUs instead of sharing them, as a
                      policy that does not share GPUs needs
  --no-wall-time      leave wall time out of summary.json (byte-identical reruns)
  --quiet             do not print the summary
  --timeline FILE     also write the schedule as a Chrome trace (Trace Event
                      Format, JSON) that ui.perfetto.dev loads: a track per GPU
                      with a slice per run of a job, instant events for
                      preemptions, failures and a deadlock, counters of
                      allocated GPUs and queued jobs
  --progress MODE     auto (default): a progress line on standard error when it
                      is a terminal and the run is not --quiet (simulated time,
                      jobs ended of all, events a second, time left); always; never
  --contention        follow every flow of every job's communication steps and
                      write who slowed whom (contention.csv,
                      link_utilization.csv, summary.json's "contention");
                      without it no flow is followed and the other files are
                      as they would be
  --energy            account the energy drawn, from each GPU type's power and
                      each node group's base_watts (docs/cluster-format.md):
                      power.csv, jobs.csv's and summary.json's energy; without
                      it the other files are as they would be
  --startup-latency MODEL
                      every run of a job waits this long on its GPUs, held but
                      idle, before its work starts (docs/simulation-model.md,
                      Start-up latency): SECONDS (30, 2min), lognormal:MU:SIGMA
                      (e^(MU + SIGMA x a standard normal) s, drawn per run),
                      or empirical:FILE (one latency in seconds a line, drawn
                      per run; gcsim trace fit --startup-latency-out writes
                      one); jobs.csv's start is when the job got its GPUs.
                      Off by default
  --startup-seed N    seed of the drawn latencies (default 0)
  --check             audit every instant's events and every plan against the
                      rules any real schedule keeps (no GPU, GPU memory, core or
                      host memory given beyond capacity, a gang whole, a queue's
                      usage its jobs' sum, one end per job, time never going
                      back, busy within allocated, the timeline's GPU-seconds
                      the jobs'); the first broken one stops the run (status 16).
                      GCSIM_CHECK=1 in the environment: every run checks, also
                      those of compare, sweep, bench and plan (a test suite's)

A CSV trace (--workload csv:FILE) is read through --trace-opt map=P=COL,...
(docs/trace-replay.md), each property P naming the column it comes from:
  submit, gpus        required: the submission (a calendar time or a number in
                      time_unit) and the GPUs (below 1: a share of one GPU)
  duration            the run time in time_unit, or
  start, end          the run's start and end times (run time end - start)
  id, user, queue, status, gpu_type, estimate, job_type   optional
  cpu                 the job's host cores: plain numbers are cores, or
                      millicores with cpu_unit=millicores or cpu=COL:millicores;
                      "500m" is millicores in any case
  memory              the job's host memory, and
  gpu_memory          its GPU memory per GPU: a field with its unit ("16Gi",
                      "16GB") is read as written; a plain number needs the
                      column's unit, memory_unit=UNIT (gpu_memory_unit=UNIT) or
                      memory=COL:UNIT, UNIT one of B, KB, MB, GB, TB, KiB, MiB,
                      GiB, TiB; without one the run fails naming the column
  share               the share of each GPU the job uses, in (0, 1]; as a
                      percent (share=COL:percent) or in thousandths
                      (share=COL:milli, a pod list's gpu_milli)
  gpu_types           the GPU types it may run on, "V100|A100"
  single_node         true or false: all its GPUs on one node
  rdma                its share of the nodes' RDMA NICs, whole percent of one
  disk                its host disk: "680Gi", or disk=COL:GiB for plain numbers
  role                CN or HN: the node role it runs on
  application, max_per_node   its application and at most how many of the
                      application's jobs a node holds (-1: no limit)
An empty submit (the job ran before the trace's window began) or end (still
running when it ended) makes the job censored: submitted at the window's
start, before every other job, or ending at its end; counted in summary.json
("trace"); censored=drop skips them instead. --trace-opt strict=true fails on
the first malformed row: a bad number or date, a negative submit time, a start
before the submission, an end before the start.

Preemptions: a preempted job resumes from its last checkpoint, or starts over
without one. The summary prints preemptions, restarts from zero and the
GPU-hours they threw away whenever there are any, and a notice when the lost
share, lost / (lost + useful) GPU time (summary.json's lost_share), exceeds
10%. Under a preemptive policy (srtf,
tiresias, capacity with preemption, incremental), give jobs checkpoints: the
workload's "checkpoint" field (gcsim synth's jobs save at preemption), or for
a trace --trace-opt checkpoint_interval=SECONDS (every job checkpoints that
often) or checkpoint_at_preemption=true (every job saves when preempted); tiresias also
preempts less with a larger promote_knob (0: no promotion). Spot jobs (the
workload's "qos": "spot", a trace's qos column) are preempted under fifo and
capacity whenever a guaranteed job needs their GPUs (--policy-opt
preempt_spot=false: never).

The run stops early, writing its outputs as they stand, when:
  jobs hold GPUs while waiting for more and nothing can free any (deadlock);
  the policy takes GPUs away and gives them back without simulated time
  advancing: a job's GPUs taken away (preempted or released) more than 10
  times, or 100000 policy calls, at one instant (calls less than a microsecond
  apart count as one instant) (livelock);
  since the last job ended (or the first submission), preemptions threw away
  more than three times the GPU time the unfinished jobs need to run to their
  end (each one's uncontended run time x GPUs), and none finished (thrashing).
summary.json says which under "deadlock", "livelock" or "thrashing".
When jobs were submitted and not ended at the stop (these, or --until),
summary.json adds "jct_s_censored" and "queueing_delay_s_censored": the
finished jobs' figures with those jobs counted at the stop time T (JCT =
T - submit, wait = first start or T, - submit).

SIGINT or SIGTERM stops the run at the current simulated time and writes
its outputs as they stand, all at once, summary.json saying so under
"partial" (the signal, the simulated time, the jobs finished, running or
waiting, and not submitted); a second signal ends gcsim at once, removing
the files it was writing (exit status 128 + the signal's number).

Exit status: 0 success, 1 bad input file, 2 bad command line or unknown policy,
3 a policy returned an invalid plan or failed, 4 outputs could not be written,
5 the run ended in a deadlock (jobs holding GPUs wait on each other), 9 in a
livelock, 10 in thrashing (for 5, 9 and 10 outputs are written and
summary.json names the jobs), 11 gcsim ran out of memory, 12 a failure inside
gcsim (for 11 and 12 nothing is written), 15 SIGINT or SIGTERM stopped the
run (partial outputs are written), 16 --check found an invariant broken
(nothing is written; the message names it, what it followed, the time and the jobs).
)";

bool parse_isolation(const std::string& text) {
  if (text == "on") return true;
  if (text == "off") return false;
  throw UsageError("option '--gpu-memory-isolation' must be 'on' or 'off', got '" + text + "'");
}

RunRequest run_request(const Arguments& args) {
  RunRequest request;
  request.cluster = args.required("cluster");
  request.workload = args.required("workload");
  request.policy = args.required("policy");
  request.trace_settings = args.all("trace-opt");
  request.placement = args.value_or("placement", "");
  request.policy_settings = args.all("policy-opt");
  request.plugins = args.all("plugin");
  request.seed = args.uint_or("seed", 0);
  request.fidelity = parse_fidelity(args.value_or("fidelity", "job"));
  request.until = args.number_or("until", kNever);
  request.gpu_memory_isolation = parse_isolation(args.value_or("gpu-memory-isolation", "on"));
  const std::uint64_t rounds = args.uint_or("job-rounds", 4);
  if (rounds < 1 || rounds > 1000000) throw UsageError("option '--job-rounds' must be between 1 and 1000000");
  request.job_rounds = static_cast<std::uint32_t>(rounds);
  request.whole_gpus = args.has("whole-gpus");
  request.node_failures = args.value_or("node-failures", "");
  request.keep_runs = args.has("timeline");
  request.check = args.has("check");
  request.contention = args.has("contention");
  request.energy = args.has("energy");
  const StartupLatencyFlags startup = startup_latency_flags(args);
  request.startup_latency = startup.model;
  request.startup_seed = startup.seed;
  request.wall_time = !args.has("no-wall-time");
  return request;
}

int simulate_workload(const Arguments& args) {
  const std::string out_dir = args.required("out");
  RunRequest request = run_request(args);
  // Until the inputs are read a signal ends gcsim as by default; then it stops the run.
  request.before_simulating = catch_interrupt_signals;
  request.stop_request = interrupt_flag();
  ProgressLine progress_line(std::cerr);
  if (progress_wanted(args.value_or("progress", "auto"), args.has("quiet")))
    request.progress = [&](const SimulationProgress& progress) { progress_line.show(progress); };
  const RunResult result = [&] {
    try {
      return run_simulation(request, std::cerr);
    } catch (const InvariantBroken& e) {
      throw CommandFailure(exit_codes::kInvariantBroken, e.what());
    }
  }();
  const RunRecord& record = result.record;
  const RunMetrics& metrics = result.metrics;
  const std::vector<JobSpec>& jobs = result.jobs;
  const ClusterLayout& layout = *result.layout;

  try {
    OutputSet out(out_dir);
    stage_run_outputs(out, result);
    out.commit();
    if (args.has("timeline"))
      write_file_atomically(args.required("timeline"),
                            [&](std::ostream& file) { write_trace_events(file, jobs, layout, record); });
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    std::cerr << "gcsim: error: " << e.what() << "\n";
    return exit_codes::kOutputError;
  }
  if (!args.has("quiet"))
    std::cout << human_summary(record, metrics, result.trace ? &*result.trace : nullptr) << "  outputs     " << out_dir
              << "/\n";
  if (record.stop_request != 0) {
    std::cerr << "gcsim: " << signal_name(interrupt_signal())
              << ": the run stopped at t=" << format_seconds(record.simulated_time)
              << " s; its outputs are partial (\"partial\" in summary.json): " << metrics.finished << " jobs finished, "
              << metrics.censored << " running or waiting, " << metrics.unfinished - metrics.censored
              << " not submitted\n";
    return exit_codes::kInterrupted;
  }
  if (const std::string stop = early_stop(record); !stop.empty()) {
    std::cerr << "gcsim: " << early_stop_diagnosis(result);
    if (stop == "deadlock") return exit_codes::kDeadlock;
    if (stop == "livelock") return exit_codes::kLivelock;
    return exit_codes::kThrashing;
  }
  // Printed even with --quiet: the figures above may not mean what they seem.
  if (const std::string notice = lost_work_notice(metrics); !notice.empty()) std::cerr << "gcsim: " << notice;
  if (record.rescaled_jobs > 0)
    std::cerr << "gcsim: note: " << record.rescaled_jobs
              << " jobs of a measured duration ran on a GPU type other than the one it was measured on, their "
                 "run times rescaled by the types' FLOP/s (--trace-opt duration=recorded, or \"rescale\": false "
                 "in a native duration, keeps recorded times)\n";
  if (const std::size_t across = jobs_across_gpu_types(layout, record); across > 0)
    std::cerr << "gcsim: note: " << across
              << " jobs ran on GPUs of several types, as they allow, each at its slowest GPU's speed (jobs.csv: "
                 "gpu_types, pace_gpu_type)\n";
  return exit_codes::kOk;
}

int list_policies(const Arguments& args) {
  PolicyRegistry registry;
  register_builtin(registry);
  for (const std::string& plugin : args.all("plugin")) load_policy_plugin(plugin, registry);
  std::cout << "policies:\n";
  for (const auto& entry : registry.policies()) std::cout << "  " << entry.name << "\t" << entry.summary << "\n";
  std::cout << "wrappers (WRAPPER:POLICY):\n";
  for (const auto& entry : registry.wrappers()) std::cout << "  " << entry.name << "\t" << entry.summary << "\n";
  std::cout << "placements:\n";
  for (const auto& entry : registry.placements()) std::cout << "  " << entry.name << "\t" << entry.summary << "\n";
  return exit_codes::kOk;
}

}  // namespace

Command run_command() {
  return {"run",
          "simulate a workload on a cluster under a scheduling policy",
          kRunUsage,
          {{"cluster"},
           {"workload"},
           {"policy"},
           {"out"},
           {"seed"},
           {"fidelity"},
           {"placement"},
           {"policy-opt", true, true},
           {"until"},
           {"job-rounds"},
           {"no-wall-time", false},
           {"check", false},
           {"contention", false},
           {"energy", false},
           {"startup-latency"},
           {"startup-seed"},
           {"quiet", false},
           {"progress"},
           {"timeline"},
           {"plugin", true, true},
           {"trace-opt", true, true},
           {"whole-gpus", false},
           {"gpu-memory-isolation"},
           {"node-failures"}},
          simulate_workload};
}

Command policies_command() {
  return {"policies",
          "list the scheduling policies and placements",
          "usage: gcsim policies [--plugin LIB.so ...]\n\nLists the scheduling policies and the placements, built in "
          "and loaded\nfrom each --plugin library.\n",
          {{"plugin", true, true}},
          list_policies};
}

}  // namespace gcsim
