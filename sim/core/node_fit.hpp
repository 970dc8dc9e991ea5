// node_fit.hpp: what a job claims of a node besides its GPUs, and how many of
// its GPUs a node can take.
//
// A job's cpu_cores and memory_bytes are for the whole job, split evenly over
// its GPU workers: a node holding k of its g GPUs gives it cpu_cores x k / g
// cores and memory_bytes x k / g bytes. Cores are counted in millicores
// (Kubernetes' unit) and memory in bytes, each rounded up per node, as whole
// numbers, so that taking and giving back add up exactly. A job fits a node
// only where its GPUs, cores and memory all fit; it runs only on GPUs of the
// types it allows (JobSpec::gpu_types), on one node if it is single_node.
//
//   NodeClaim claim = node_claim(job, 2);  // job: 3 GPUs, 10 cores -> 6667 millicores
//   std::size_t k = gpus_that_fit(cluster, job, node);
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

struct NodeClaim {
  std::int64_t millicores = 0;
  std::int64_t memory_bytes = 0;
};

/// What `job` claims of a node holding `k` of its GPUs.
NodeClaim node_claim(const JobSpec& job, std::size_t k);

/// What a job that runs on cores alone (runs_on_cpu()) claims in all: its
/// cores and memory.
inline NodeClaim cpu_job_claim(const JobSpec& job) {
  return {static_cast<std::int64_t>(job.cpu_cores) * 1000, static_cast<std::int64_t>(std::ceil(job.memory_bytes))};
}

/// The workers of a job that runs on cores alone: one for a CPU job or a
/// serving replica on CPUs, which runs on one node; one per CPU worker for a
/// DAG of CPU pools, whose workers may spread over nodes.
std::uint32_t cpu_workers(const JobSpec& job);

/// What `k` of those workers claim of the node they run on: the job's
/// cpu_cores and memory split evenly over its workers, rounded up per node
/// as node_claim() rounds a GPU job's.
NodeClaim cpu_claim(const JobSpec& job, std::size_t k);

/// How many of the job's workers (at most `most`) a node with `free` host
/// resources can take, by cores and memory.
std::size_t cpu_workers_that_fit(const JobSpec& job, const NodeClaim& free, std::size_t most);

/// How the claim of `job` on each node grows when it takes `gpus` beside the
/// `held` it has: one entry per node `gpus` touches, in order of first touch.
std::vector<std::pair<NodeId, NodeClaim>> host_changes(const ClusterLayout& layout, const JobSpec& job,
                                                       const std::vector<GpuId>& held, const std::vector<GpuId>& gpus);

/// A node's host cores (in millicores) and memory (bytes).
NodeClaim node_capacity(const ClusterLayout& layout, NodeId node);

/// Whether anything but free GPUs can keep `job` off a node: host cores or
/// memory it claims, or GPU types it names. Without them gpus_that_fit()
/// limits nothing on any node.
inline bool host_or_type_limits(const JobSpec& job) {
  return job.cpu_cores != 0 || job.memory_bytes > 0 || !job.gpu_types.empty();
}

/// Whether `job` may run on GPUs of the type named `type` (JobSpec::gpu_types; empty: any).
bool allows_gpu_type(const JobSpec& job, const std::string& type);

/// How many GPUs of `job` a node with `free` host resources can take beside
/// the `held` it already has there, by cores and memory alone (free GPUs not
/// counted); 0 on a node of no GPU or of a GPU type not allowed, the largest size_t
/// when the node's cores and memory would hold all the job's GPUs (then they
/// limit nothing).
std::size_t gpus_that_fit(const ClusterLayout& layout, const JobSpec& job, NodeId node, const NodeClaim& free,
                          std::size_t held = 0);

}  // namespace gcsim
