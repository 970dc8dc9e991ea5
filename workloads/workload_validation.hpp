// workload_validation.hpp: can this workload run on this cluster at all?
//
// A workload file is valid on its own once read (native_workload.hpp); this
// check pairs it with a cluster and rejects, before any simulation starts,
// the jobs that could never be placed, so a run does not end with jobs
// waiting forever:
//   - a job asks for more GPUs than the cluster has;
//   - a job asks for more GPUs with at least `gpu_memory` each than exist;
//   - a job asks a node role (CN, HN) no node group has;
//   - no node (single_node) or set of nodes of the empty cluster can hold the
//     job: GPUs of the types it allows (gpu_types, each a type the cluster
//     defines) on nodes of the role it asks, its cores, host memory, RDMA
//     share and disk split over its GPUs (sim/core/node_fit.hpp), each node
//     taking as many of its GPUs as fit;
//   - a job that runs on one GPU type (may_mix_gpu_types()) and that the
//     GPUs of no single type can hold, though those of several could: the
//     error names the largest single type's capacity and how to allow mixing;
//   - no node of the empty cluster (of the role it asks) has a CPU job's
//     cores, memory, RDMA share and disk;
//   - a measured-duration job names a GPU type the cluster does not define
//     (its run time could not be scaled to the cluster's GPUs);
//   - a job's gpu_share is below a millionth of a GPU (a trace's row).
// A second check pairs it with the policy: fractional jobs need one that
// shares GPUs.
//
//   ClusterLayout layout(read_cluster_file("rack.json"));
//   auto jobs = read_native_workload("default.json");
//   validate_workload_against_cluster(jobs, layout, "default.json");
#pragma once

#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/policy.hpp"

namespace gcsim {

/// Throws InputError naming `file_label`, the first offending job
/// ("jobs[3] (id 'x')") and the field at fault ("gpus", "gpu_memory",
/// "gpu_types", "role", "cpu_cores", "memory", "rdma_percent", "disk",
/// "duration.gpu_type").
void validate_workload_against_cluster(const std::vector<JobSpec>& jobs, const ClusterLayout& layout,
                                       const std::string& file_label);

/// Jobs asking a fraction of a GPU (JobSpec::gpu_share < 1) need a policy
/// that shares GPUs (SchedulingPolicy::shares_gpus()): throws InputError
/// naming the first such job otherwise.
void validate_workload_for_policy(const std::vector<JobSpec>& jobs, const SchedulingPolicy& policy,
                                  const std::string& file_label);

/// `--whole-gpus`: every job asking a fraction of a GPU gets whole GPUs (its
/// share rounded up to 1; a measured run time, taken at the share, is kept).
/// Returns how many jobs changed.
std::size_t give_whole_gpus(std::vector<JobSpec>& jobs);

}  // namespace gcsim
