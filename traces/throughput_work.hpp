// throughput_work.hpp: a trace's jobs as training work sized by a throughput
// table (throughput_table.hpp), instead of their recorded run time
// (`--trace-opt work=throughput:gavel:FILE`).
//
// A job that ran for D seconds on g GPUs of type R (its MeasuredWork) and is
// of model m becomes TrainingWork with
//
//   iterations  = round(D x T(m, R, g)), at least 1
//   FLOPs/iter  = F(C) x (D x T(m, R, g) / T(m, C, g)) / iterations
//   gradients   = 0 bytes
//
// where T(m, X, g) is the table's iterations per second of m on g GPUs of
// type X, F(X) the FLOP/s the cluster gives type X, and C the calibration
// type: of the cluster's GPU types that the table profiles for m, the one
// with the most GPUs in the cluster (ties: the fastest, then by name). So on
// GPUs of type C the job runs for D x T(m, R, g) / T(m, C, g): the recorded
// run time scaled by the table's speed-up of this model from R to C. On any
// other type X the engine scales that by F(C) / F(X), the cluster's ratio of
// FLOP/s, since its compute model has one speed per GPU type and not one per
// model. When the table does not profile R (Pollux profiles only T4),
// T(m, R, g) is taken as T(m, C, g) x F(R) / F(C), which needs the cluster to
// define R; a job then runs its recorded time on R.
//
// The measured step times already contain the gradient exchange, so these jobs
// send nothing over the simulated network (gradients 0 bytes): their speed on
// another placement or network is not modelled, only on another GPU type.
//
// The model m of each job comes from a JobTypeRule:
//   trace      the trace's own job type column (CSV `--map job_type=COL`)
//   uniform    drawn uniformly, per job, from the table's models that the
//              cluster can run (some GPU type of the cluster profiled), with
//              PortableRandom(seed): the same models everywhere
//   gpu-time   Pollux's and Sia's rule, by the job's recorded GPU-hours
//              (g x D / 3600): below 1 cifar10, below 10 deepspeech2 or bert
//              (drawn evenly), below 100 yolov3, else imagenet
//   NAME       every job is this model
//
//   ThroughputTable table = read_throughput_table(ThroughputSource::kGavel, path);
//   apply_throughput_work(trace, table, {JobTypeRule::Kind::kUniform, "", 0}, layout);
#pragma once

#include <cstdint>
#include <string>

#include "sim/core/cluster_layout.hpp"
#include "traces/throughput_table.hpp"
#include "traces/trace_read.hpp"

namespace gcsim {

struct JobTypeRule {
  enum class Kind { kTrace, kUniform, kGpuTime, kFixed };
  Kind kind = Kind::kTrace;
  std::string model;       // kFixed
  std::uint64_t seed = 0;  // kUniform, kGpuTime
};

/// "trace", "uniform", "gpu-time", else a model name.
JobTypeRule parse_job_type_rule(const std::string& text, std::uint64_t seed);
std::string job_type_rule_text(const JobTypeRule& rule);

/// Converts every MeasuredWork job of the trace as above (training jobs of a
/// native workload are left as they are), records each job's model in
/// trace.job_types, and replaces trace.work_source with what was done, adding
/// the assumptions. Throws std::invalid_argument for what cannot be
/// converted: the trace names no job type and the rule is `trace`; a model
/// the table lacks; no GPU type of the cluster in the table for a model; a
/// recorded type neither the table nor the cluster knows; `gpu-time` with a
/// table without those models.
void apply_throughput_work(TraceReadResult& trace, const ThroughputTable& table, const JobTypeRule& rule,
                           const ClusterLayout& cluster);

}  // namespace gcsim
