// pai_trace.hpp: the Alibaba PAI GPU cluster trace of 2020
// (cluster-trace-gpu-v2020, "MLaaS in the Wild", NSDI'22).
//
// The trace is a set of headerless CSV tables whose column names are in
// .header files beside them (pai_task_table.header, ...); a table without
// its .header file is read in the documented column order. A job has tasks
// (roles such as ps, worker, evaluator), a task has inst_num instances, and
// each instance asks for the task's plan_cpu, plan_mem and plan_gpu.
//
//   pai_task_table:   job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type
//   pai_job_table:    job_name,inst_id,user,status,start_time,end_time            (optional)
//   pai_instance_table: job_name,task_name,inst_name,worker_name,inst_id,status,start_time,end_time,machine
//                                                                                  (optional, checked)
//   pai_machine_spec: machine,gpu_type,cap_cpu,cap_mem,cap_gpu                    (optional)
//
// read_pai_trace takes the trace directory (or the task table file, the
// others being looked up beside it). Column mapping, per job (task rows
// grouped by job_name):
//   job_name                    -> id
//   pai_job_table.start_time    -> submit (the job's submission); without the
//                                  job table, the first task's start_time
//   min task start_time .. max task end_time -> the run time of MeasuredWork
//   sum over tasks of inst_num x ceil(plan_gpu / 100) -> gpus (workers)
//   plan_gpu / 100 of instances asking below 100 -> gpu_share
//   gpu_type of its GPU tasks   -> the GPU type the run time was measured on
//                                  (MISC = older K40m/K80/M60)
//   sum of inst_num x plan_cpu / 100, rounded up -> cpu_cores
//   sum of inst_num x plan_mem (GiB)            -> memory
//   pai_job_table.user          -> user ("unknown" without the job table)
//   pai_job_table.status        -> status (else the tasks' status)
// Times are seconds shifted by an undisclosed constant; submit times are
// made relative to the earliest submission (or TraceReadOptions::time_origin).
//
// What the trace lacks, and what gcsim assumes instead:
//   - GPU sharing: plan_gpu is a percentage and many instances ask for a
//     fraction of a GPU (50 = half a GPU). Each such instance is a worker
//     holding that share of one GPU (JobSpec::gpu_share): it shares the GPU
//     with other fractional jobs and computes at its share, the recorded run
//     time being taken at it. A job's workers have one share: instances of
//     one job asking different fractions take the largest; beside whole-GPU
//     instances, fractional ones get whole GPUs; an instance asking more than
//     one GPU but not a whole number is rounded up. The result counts each.
//     `gcsim run --whole-gpus` gives every job whole GPUs instead.
//   - queues: none in the trace; every job is in queue "unknown".
//   - a task without a GPU type (CPU tasks, or a type left empty) uses
//     TraceReadOptions::gpu_type; tasks of one job on different types use the
//     type of the task with the most GPUs.
//   - jobs still waiting when the trace was cut (a task without start_time)
//     and CPU-only jobs are skipped as not replayable; jobs still running (a
//     task without end_time) are censored (trace_read.hpp): they run from
//     their first task's start to the trace's last recorded time.
// A task whose gpu_type is not among pai_machine_spec's GPU types, and an
// instance on a machine pai_machine_spec does not list, are malformed rows.
//
// pai_cluster_json turns pai_machine_spec into a heterogeneous gcsim cluster
// description (machine_cluster.hpp): one node group per distinct (gpu_type,
// cap_cpu, cap_mem, cap_gpu), named like "v100m32-c96-m384". GPU figures come
// from gpu_models.hpp: P100, T4, V100, V100M32 and MISC (taken as a K80 die)
// are known; a machine of any other type is an error naming its line and
// type, unless TraceReadOptions::gpu_models (`--gpu-type MODEL=NAME[:FLOPS]`)
// maps it. What the machine spec lacks is assumed, and listed in
// `assumptions`: GPU figures, the network, cap_mem read as GiB; CPU-only
// machines are left out. A mapping renames the type of the tasks too, so that
// jobs and cluster agree.
//
//   TraceReadResult trace = read_pai_trace("alibaba-pai-2020/", {});
//   PaiMachineSpec spec = read_pai_machine_spec("alibaba-pai-2020/pai_machine_spec.csv", false);
//   write_file_atomically("pai.json", pai_cluster_json(spec, "pai-2020", {}).cluster.dump(2));
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "traces/gpu_models.hpp"
#include "traces/trace_read.hpp"

namespace gcsim {

TraceReadResult read_pai_trace(const std::string& path, const TraceReadOptions& options);

struct PaiMachine {
  std::size_t line = 0;
  std::string id;
  std::string gpu_type;  // "CPU" for machines without GPUs
  std::uint32_t cpu_cores = 0;
  double memory_gb = 0;
  std::uint32_t gpus = 0;
};

struct PaiMachineSpec {
  std::string file;
  std::vector<PaiMachine> machines;
  std::vector<SkippedRow> skipped;
  std::size_t rows = 0;
};

/// Reads pai_machine_spec.csv (its .header beside it, if present). Malformed
/// rows (wrong field count, bad numbers, a machine listed twice) are skipped
/// and listed; in strict mode the first throws. GPU types are kept as named:
/// pai_cluster_json checks them.
PaiMachineSpec read_pai_machine_spec(const std::string& path, bool strict);

struct PaiCluster {
  nlohmann::json cluster;  // a gcsim cluster description (docs/cluster-format.md)
  std::vector<std::string> assumptions;
};

/// The GPU machines of the spec as a gcsim cluster named `name`. Throws
/// InputError when the spec has no GPU machine, and naming the file, line and
/// type for a GPU type gcsim has no figures for that `models` does not map.
PaiCluster pai_cluster_json(const PaiMachineSpec& spec, const std::string& name, const GpuModelMap& models = {});

struct PaiInstanceCheck {
  std::size_t rows = 0;
  std::map<std::string, std::size_t> status_counts;
  std::vector<SkippedRow> skipped;
};

/// Checks pai_instance_table.csv row by row: field count, times (empty is
/// allowed: waiting or running instances), end before start, and, when
/// `machines` is not null, that every machine is listed in it.
PaiInstanceCheck check_pai_instance_table(const std::string& path, const PaiMachineSpec* machines, bool strict);

}  // namespace gcsim
