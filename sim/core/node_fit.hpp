// node_fit.hpp: what a job claims of a node besides its GPUs, and how many of
// its GPUs a node can take.
//
// A job's cpu_cores, memory_bytes, rdma_percent and disk_bytes are for the
// whole job, split evenly over its GPU workers: a node holding k of its g
// GPUs gives it cpu_cores x k / g cores, memory_bytes x k / g bytes, and so
// on. Cores are counted in millicores (Kubernetes' unit), memory and disk in
// bytes, RDMA in percent of one RNIC (a node of n RNICs has n x 100), each
// rounded up per node, as whole numbers, so that taking and giving back add
// up exactly. A job fits a node only where its GPUs, cores, memory, RDMA
// share and disk all fit; it runs only on GPUs of the types it allows
// (JobSpec::gpu_types), on nodes of the role it asks (node_role.hpp), on
// nodes holding fewer than its anti-affinity's K jobs of its application
// (anti_affinity.hpp), on one node if it is single_node, and on GPUs of one
// type unless it allows several (may_mix_gpu_types()).
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

/// Amounts of a node's host resources: what a job claims, what a node has
/// or has free.
struct NodeClaim {
  std::int64_t millicores = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t rdma_percent = 0;  // percent of one RNIC's bandwidth
  std::int64_t disk_bytes = 0;

  NodeClaim& operator+=(const NodeClaim& other) {
    millicores += other.millicores;
    memory_bytes += other.memory_bytes;
    rdma_percent += other.rdma_percent;
    disk_bytes += other.disk_bytes;
    return *this;
  }
  NodeClaim& operator-=(const NodeClaim& other) {
    millicores -= other.millicores;
    memory_bytes -= other.memory_bytes;
    rdma_percent -= other.rdma_percent;
    disk_bytes -= other.disk_bytes;
    return *this;
  }
  /// Whether every amount is at most `room`'s.
  bool fits_in(const NodeClaim& room) const {
    return millicores <= room.millicores && memory_bytes <= room.memory_bytes && rdma_percent <= room.rdma_percent &&
           disk_bytes <= room.disk_bytes;
  }
  /// Whether no amount is below 0 (nothing claimed beyond a capacity).
  bool none_negative() const { return millicores >= 0 && memory_bytes >= 0 && rdma_percent >= 0 && disk_bytes >= 0; }
};

inline NodeClaim operator-(NodeClaim a, const NodeClaim& b) { return a -= b; }

/// The first amount of `used` beyond `capacity`, as a plan rejection or an
/// audit names it: "7000 millicores of its 6000", "250 percent of RNIC
/// bandwidth (rdma_percent) of its 200", ...; "" when all are within.
std::string claim_beyond(const NodeClaim& used, const NodeClaim& capacity);

/// What `job` claims of a node holding `k` of its GPUs.
NodeClaim node_claim(const JobSpec& job, std::size_t k);

/// What a job that runs on cores alone (runs_on_cpu()) claims in all: its
/// cores and memory.
inline NodeClaim cpu_job_claim(const JobSpec& job) {
  return {static_cast<std::int64_t>(job.cpu_cores) * 1000, static_cast<std::int64_t>(std::ceil(job.memory_bytes)),
          static_cast<std::int64_t>(job.rdma_percent), static_cast<std::int64_t>(std::ceil(job.disk_bytes))};
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

/// A node's host cores (in millicores), memory (bytes), RNICs' bandwidth
/// (percent of one RNIC: 100 per RNIC) and disk (bytes).
NodeClaim node_capacity(const ClusterLayout& layout, NodeId node);

/// Whether the job claims any host resource: cores, memory, RDMA or disk.
inline bool claims_host(const JobSpec& job) {
  return job.cpu_cores != 0 || job.memory_bytes > 0 || job.rdma_percent != 0 || job.disk_bytes > 0;
}

/// Whether anything but free GPUs can keep `job` off a node: host resources
/// it claims, GPU types it names, a node role it asks, an anti-affinity.
/// Without them gpus_that_fit() limits nothing on any node.
inline bool host_or_type_limits(const JobSpec& job) {
  return claims_host(job) || !job.gpu_types.empty() || job.role != NodeRole::kNone || has_anti_affinity(job);
}

/// Whether `job` may go to `node` by the node's role and the job's
/// anti-affinity: `instances` jobs of its application hold something there,
/// `already_there` when the job itself is among them (it counts once per
/// node, so growing there breaks no limit). Resources are not counted here.
bool node_admits(const ClusterLayout& layout, const JobSpec& job, NodeId node, std::uint32_t instances,
                 bool already_there = false);

/// Whether `job` may run on GPUs of the type named `type` (JobSpec::gpu_types; empty: any).
bool allows_gpu_type(const JobSpec& job, const std::string& type);

/// Whether one run of `job` may hold GPUs of several types: its gpu_types
/// lists more than one (a list of several types both selects them and lets
/// a run mix them), or it sets mixed_gpu_types. Otherwise every GPU it holds
/// is of one type, which the plan check enforces (SchedulerState::check) and
/// the built-in placements keep to.
inline bool may_mix_gpu_types(const JobSpec& job) { return job.mixed_gpu_types || job.gpu_types.size() > 1; }

/// Whether `gpus` are of more than one GPU type.
bool spans_gpu_types(const ClusterLayout& layout, const std::vector<GpuId>& gpus);

/// How many GPUs of `job` a node with `free` host resources can take beside
/// the `held` it already has there, by its host resources alone (free GPUs
/// not counted); 0 on a node of no GPU, of a GPU type not allowed, of
/// another role than the job asks, or, where the job holds nothing yet, with
/// `instances` jobs of its application already at its anti-affinity's limit
/// (node_admits()); the largest size_t when the node's resources would hold
/// all the job's GPUs (then they limit nothing).
std::size_t gpus_that_fit(const ClusterLayout& layout, const JobSpec& job, NodeId node, const NodeClaim& free,
                          std::size_t held = 0, std::uint32_t instances = 0);

}  // namespace gcsim
