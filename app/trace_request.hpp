// trace_request.hpp: trace reader settings as given on the command line, shared by
// `gcsim trace` (as flags) and `gcsim run` (as --trace-opt KEY=VALUE), and
// the --workload argument that may name a trace ("philly:FILE").
//
// Settings (KEY=VALUE, or --KEY VALUE with '-' for '_' in `gcsim trace`):
//   gpu_type=V100        GPU type the trace's run times are taken as measured on
//                        where it names none
//   gpu_type=MODEL=NAME[:FLOPS[:MEMORY]]
//                        a GPU model the trace names becomes GPU type NAME, for
//                        its jobs and (PAI) its machine spec (gpu_models.hpp);
//                        repeatable
//   procs_per_gpu=N      SWF: processors per GPU (default 1)
//   map=PROP=COL,...     CSV: column mapping (csv_trace.hpp lists the properties)
//   time_unit=s          CSV: unit of numeric times: ns, us, ms, s, min, h, d
//   delimiter=C          CSV: field separator (one character, or "tab")
//   spot_values=A,B      CSV: the qos column's values that make spot jobs ...
//   guaranteed_values=C  ... and guaranteed ones (trace_qos.hpp has the defaults)
//   priority_levels=low=0,high=10
//                        CSV: the priority column's named levels
//   epoch=T              the trace time that becomes time 0: a calendar time
//                        "2017-10-03 00:00:00" or a number (in time_unit)
//   strict=true          fail on the first malformed row
//   work=recorded        each job's work is its recorded run time (the default) ...
//   work=throughput:SOURCE:PATH
//                        ... or training work sized by a throughput table
//                        (SOURCE gavel, pollux or sia; throughput_work.hpp);
//                        needs the cluster
//   job_type=RULE        with a throughput table, each job's model: trace (a
//                        job_type column, the default), uniform (drawn with
//                        seed), gpu-time (Pollux's buckets), or a model name
// and, applied after reading (trace_selection.hpp):
//   from=T, until=T      keep jobs submitted in [from, until): a time after the
//                        time origin ("36h", "2d", seconds) or a calendar time;
//                        with from, submit times count from it
//   queue=Q1,Q2          keep jobs of these queues
//   min_gpus=N, max_gpus=N   keep jobs with that many GPUs
//   sample=F, seed=S     keep each job with probability F, drawn from seed S
//   load_scale=X         divide submit times by X (X times the arrival rate)
// and, for every job kept:
//   checkpoint_interval=T  a checkpoint every T of work ("30min", seconds):
//                        preempted, a job resumes from its last one instead of
//                        starting over (traces record no checkpoints)
//   checkpoint_at_preemption=true  a preempted job saves its work and resumes
//                        from it (alone or with checkpoint_interval)
//   mixed_gpu_types=true  a job may run on GPUs of several types at once (at
//                        its slowest GPU's speed); without it each job runs on
//                        one type (sim/core/node_fit.hpp: may_mix_gpu_types())
//   duration=scaled      a run time measured on one GPU type runs faster or
//                        slower on others by their FLOP/s (the default), or
//   duration=recorded    ... lasts the recorded time on any GPU type
//
//   TraceRequest request = trace_request({{"gpu_type", "K80"}, {"until", "1d"}});
//   TraceReadResult trace = read_trace_request(TraceFormat::kSwf, "log.swf", request);
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"
#include "traces/throughput_table.hpp"
#include "traces/trace_formats.hpp"
#include "traces/trace_read.hpp"
#include "traces/trace_selection.hpp"

namespace gcsim {

struct TraceRequest {
  TraceReadOptions read;
  TraceSelection selection;
  // The window's ends as given: a calendar time needs the trace's origin.
  std::optional<std::string> from, until;
  // work=throughput:SOURCE:PATH, and the job_type rule as given.
  std::optional<ThroughputSource> throughput_source;
  std::string throughput_path;
  std::string job_type = "trace";
  bool job_type_given = false;
  // checkpoint_interval=T: every job checkpoints that often (seconds).
  std::optional<double> checkpoint_interval;
  // checkpoint_at_preemption=true: every job saves its work when preempted.
  bool checkpoint_at_preemption = false;
  // mixed_gpu_types=true: every job may run on GPUs of several types at once (JobSpec::mixed_gpu_types).
  bool mixed_gpu_types = false;
  // duration=recorded: run times are kept on every GPU type (MeasuredWork::rescale false).
  bool keep_recorded_durations = false;
};

/// Throws UsageError naming the setting for an unknown key or a bad value.
TraceRequest trace_request(const std::vector<std::pair<std::string, std::string>>& settings);

/// Reads the trace, then applies the selection, then the work source and the checkpoints.
/// UsageError for a selection that cannot apply (a calendar window on a trace
/// without calendar times, an empty window, ...) and for a throughput table
/// that cannot size the jobs (no cluster given, a model the table lacks, ...).
TraceReadResult read_trace_request(TraceFormat format, const std::string& path, const TraceRequest& request,
                                   const ClusterLayout* cluster = nullptr);

/// "KEY=VALUE" -> (KEY, VALUE); UsageError naming `flag` otherwise.
std::pair<std::string, std::string> split_setting(const std::string& text, const std::string& flag);

/// The jobs of a --workload argument: a native workload file, or
/// "FORMAT:FILE" read by that trace reader with `trace_settings` (which a
/// native file does not accept). For a trace, one line on `notes` says how
/// many rows became jobs and how many were skipped, and one line where each
/// job's work comes from. Throws UsageError for an unknown FORMAT, and
/// InputError when a trace yields no job, when a file given as native looks
/// like a trace (naming its FORMAT), and, with `cluster`, when run times are
/// measured on a GPU type the cluster lacks (naming the setting that fixes
/// it). `cluster` is needed for work=throughput. With `trace`, a trace's
/// read result is left there, its jobs moved out (they are returned): what
/// it read, kept, censored, skipped and selected, for the run's report.
std::vector<JobSpec> read_workload_argument(const std::string& argument, const std::vector<std::string>& trace_settings,
                                            std::ostream& notes, const ClusterLayout* cluster = nullptr,
                                            TraceReadResult* trace = nullptr);

}  // namespace gcsim
