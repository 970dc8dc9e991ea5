#include "workloads/workload_validation.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>
#include <tuple>
#include <variant>

#include "sim/core/input_error.hpp"
#include "sim/core/node_fit.hpp"
#include "workloads/kinds/kind_registry.hpp"

namespace gcsim {
namespace {

std::string job_where(std::size_t index, const JobSpec& job) {
  return "jobs[" + std::to_string(index) + "] (id '" + job.id + "')";
}

// "17.2 GB (17179869184 bytes)": readable, and exact for the user comparing
// with the figure written in the files.
std::string describe_bytes(double bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3g GB (%.0f bytes)", bytes / 1e9, bytes);
  return text;
}

// GPUs in the cluster whose type has at least `bytes` of memory.
std::size_t gpus_with_memory(const ClusterLayout& layout, double bytes) {
  std::size_t count = 0;
  for (NodeId node = 0; node < layout.node_count(); ++node) {
    const NodeInfo& info = layout.node(node);
    if (layout.has_gpus(node) && layout.spec().gpu_types[info.gpu_type].memory_bytes >= bytes)
      count += info.gpus.size();
  }
  return count;
}

// The largest memory among the GPU types that nodes actually carry.
const GpuType* largest_memory_gpu(const ClusterLayout& layout) {
  const GpuType* largest = nullptr;
  for (NodeId node = 0; node < layout.node_count(); ++node) {
    if (!layout.has_gpus(node)) continue;
    const GpuType& type = layout.spec().gpu_types[layout.node(node).gpu_type];
    if (largest == nullptr || type.memory_bytes > largest->memory_bytes) largest = &type;
  }
  return largest;
}

// The host resources a check counts; the others it takes as unlimited, to
// tell which one keeps a job off every node.
enum Counted : unsigned { kNoHost = 0, kCores = 1, kMemory = 2, kRdma = 4, kDisk = 8, kAllHost = 15 };

// An empty node's host resources, those not `counted` unlimited.
NodeClaim capacity_counting(const ClusterLayout& layout, NodeId node, unsigned counted) {
  constexpr std::int64_t kUnlimited = std::numeric_limits<std::int64_t>::max() / 2;
  NodeClaim free = node_capacity(layout, node);
  if (!(counted & kCores)) free.millicores = kUnlimited;
  if (!(counted & kMemory)) free.memory_bytes = kUnlimited;
  if (!(counted & kRdma)) free.rdma_percent = kUnlimited;
  if (!(counted & kDisk)) free.disk_bytes = kUnlimited;
  return free;
}

// How many of `job`'s GPUs an empty node can take: its GPUs of an allowed
// type with enough memory, on a node of the role it asks, as far as the
// host resources `counted` hold the job's split.
std::size_t usable_on_empty_node(const ClusterLayout& layout, const JobSpec& job, NodeId node, unsigned counted) {
  const NodeInfo& info = layout.node(node);
  if (!layout.has_gpus(node) || !allows_gpu_type(job, layout.gpu_type_name(node))) return 0;
  if (layout.gpu_type_of(info.gpus.front()).memory_bytes < job.gpu_memory_bytes) return 0;
  return std::min(info.gpus.size(), gpus_that_fit(layout, job, node, capacity_counting(layout, node, counted)));
}

// Whether some node group of the cluster has the role the job asks (any does when it asks none).
bool has_role(const ClusterLayout& layout, const JobSpec& job) {
  const std::vector<NodeGroup>& groups = layout.spec().node_groups;
  return std::any_of(groups.begin(), groups.end(),
                     [&](const NodeGroup& group) { return group.count > 0 && role_allows(job.role, group.role); });
}

// A job asking a role no node group has: it could never run.
void check_role_exists(const JobSpec& job, const ClusterLayout& layout, const std::string& file_label,
                       const std::string& where, const std::string& cluster_name) {
  if (has_role(layout, job)) return;
  throw InputError(file_label, where, "role",
                   std::string("asks nodes of role '") + node_role_name(job.role) + "'; no node group of " +
                       cluster_name + " has that role (a node group's \"role\")");
}

// The error for a job whose RDMA share or disk no node (set of nodes) holds.
[[noreturn]] void throw_rdma_or_disk(const JobSpec& job, bool rdma, std::size_t held, const std::string& parts,
                                     const std::string& file_label, const std::string& where,
                                     const std::string& cluster_name) {
  if (rdma)
    throw InputError(file_label, where, "rdma_percent",
                     "needs " + std::to_string(job.rdma_percent) + " percent of an RNIC's bandwidth split over its " +
                         parts + "; the nodes of " + cluster_name +
                         " (100 percent per RNIC, a node group's \"rnics\") " + "can hold the RDMA share of only " +
                         std::to_string(held) + " of them");
  throw InputError(file_label, where, "disk",
                   "needs " + describe_bytes(job.disk_bytes) + " of disk split over its " + parts + "; the nodes of " +
                       cluster_name + " (a node group's \"disk\") can hold the disk of only " + std::to_string(held) +
                       " of them");
}

constexpr int kAnyType = -1;

// The job's GPUs the whole empty cluster can hold (on its best node when
// single_node), on GPUs of `type` alone unless kAnyType. The nodes of one
// group are alike, so one node of each group answers for all of them:
// O(groups) per job, not O(nodes).
std::size_t usable_in_cluster(const ClusterLayout& layout, const JobSpec& job, unsigned counted, int type = kAnyType) {
  std::size_t total = 0;
  NodeId first = 0;  // nodes are numbered group by group
  for (const NodeGroup& group : layout.spec().node_groups) {
    if (group.count > 0 && (type == kAnyType || static_cast<int>(layout.node(first).gpu_type) == type)) {
      const std::size_t here = usable_on_empty_node(layout, job, first, counted);
      total = job.single_node ? std::max(total, here) : total + here * group.count;
    }
    first += group.count;
  }
  return total;
}

// A job that keeps to one GPU type (may_mix_gpu_types()) and that the GPUs
// of no single type of the empty cluster can hold, though all its types
// together could: it would wait forever.
void check_one_type_can_hold(const JobSpec& job, const ClusterLayout& layout, const std::string& file_label,
                             const std::string& where, const std::string& cluster_name) {
  if (may_mix_gpu_types(job)) return;
  std::size_t most = 0;
  int most_type = 0;
  for (int type = 0; type < static_cast<int>(layout.spec().gpu_types.size()); ++type) {
    const std::size_t here = usable_in_cluster(layout, job, kAllHost, type);
    if (here >= job.gpus) return;
    if (here > most) most = here, most_type = type;
  }
  throw InputError(file_label, where, "gpus",
                   "needs " + std::to_string(job.gpus) +
                       " GPUs of one GPU type (a job runs on one type unless it allows several); the most " +
                       cluster_name + " has of one type is " + std::to_string(most) + " (" +
                       layout.spec().gpu_types[static_cast<std::size_t>(most_type)].name +
                       "); to let it span types, list them in its gpu_types or set \"mixed_gpu_types\": true "
                       "(a trace: --trace-opt mixed_gpu_types=true)");
}

// A job no node (single_node) or set of nodes of the empty cluster can hold:
// the GPU types it allows, its cores or its memory split over its GPUs.
void check_nodes_can_hold(const JobSpec& job, const ClusterLayout& layout, const std::string& file_label,
                          const std::string& where, const std::string& cluster_name) {
  for (const std::string& type : job.gpu_types)
    if (layout.find_gpu_type(type) < 0)
      throw InputError(
          file_label, where, "gpu_types",
          "unknown GPU type '" + type + "'; " + cluster_name + " defines: " + gpu_type_names(layout.spec()));
  if (usable_in_cluster(layout, job, kAllHost) >= job.gpus)
    return check_one_type_can_hold(job, layout, file_label, where, cluster_name);
  check_role_exists(job, layout, file_label, where, cluster_name);
  const std::string on = job.single_node ? " on one node (single_node)" : "";
  const std::size_t by_type = usable_in_cluster(layout, job, kNoHost);
  if (by_type < job.gpus)
    throw InputError(
        file_label, where, job.gpu_types.empty() ? "gpus" : "gpu_types",
        "needs " + std::to_string(job.gpus) + " GPUs" + on + (job.gpu_types.empty() ? "" : " of the types it allows") +
            (job.role == NodeRole::kNone ? "" : std::string(" on nodes of role '") + node_role_name(job.role) + "'") +
            (job.gpu_memory_bytes > 0 ? " with " + describe_bytes(job.gpu_memory_bytes) + " each" : "") + ", " +
            cluster_name + " has " + std::to_string(by_type));
  if (usable_in_cluster(layout, job, kCores) < job.gpus)
    throw InputError(file_label, where, "cpu_cores",
                     "needs " + std::to_string(job.cpu_cores) + " cores split over its " + std::to_string(job.gpus) +
                         " GPUs" + on + "; the nodes of " + cluster_name + " can hold the cores of only " +
                         std::to_string(usable_in_cluster(layout, job, kCores)) + " of them");
  for (const bool rdma : {true, false})
    if (const std::size_t held = usable_in_cluster(layout, job, rdma ? kRdma : kDisk); held < job.gpus)
      throw_rdma_or_disk(job, rdma, held, std::to_string(job.gpus) + " GPUs" + on, file_label, where, cluster_name);
  throw InputError(file_label, where, "memory",
                   "needs " + describe_bytes(job.memory_bytes) + " of host memory split over its " +
                       std::to_string(job.gpus) + " GPUs" + on + "; the nodes of " + cluster_name +
                       " can hold the memory of only " + std::to_string(usable_in_cluster(layout, job, kMemory)) +
                       " of them");
}

// A CPU job no node of the empty cluster can hold: its cores, then its memory.
void check_a_node_holds_cpu_job(const JobSpec& job, const ClusterLayout& layout, const std::string& file_label,
                                const std::string& where, const std::string& cluster_name) {
  check_role_exists(job, layout, file_label, where, cluster_name);
  const NodeClaim claim = cpu_job_claim(job);
  NodeClaim most;    // the most of each host resource of any node of the job's role
  NodeId first = 0;  // nodes are numbered group by group, and the nodes of a group are alike
  for (const NodeGroup& group : layout.spec().node_groups) {
    if (group.count > 0 && role_allows(job.role, group.role)) {
      const NodeClaim capacity = node_capacity(layout, first);
      if (claim.fits_in(capacity)) return;
      most.millicores = std::max(most.millicores, capacity.millicores);
      most.memory_bytes = std::max(most.memory_bytes, capacity.memory_bytes);
      most.rdma_percent = std::max(most.rdma_percent, capacity.rdma_percent);
      most.disk_bytes = std::max(most.disk_bytes, capacity.disk_bytes);
    }
    first += group.count;
  }
  if (claim.millicores > most.millicores)
    throw InputError(file_label, where, "cpu_cores",
                     "a CPU job runs on one node and needs " + std::to_string(job.cpu_cores) +
                         " cores; the largest node of " + cluster_name + " has " +
                         std::to_string(most.millicores / 1000));
  if (claim.rdma_percent > most.rdma_percent)
    throw InputError(file_label, where, "rdma_percent",
                     "a CPU job runs on one node and needs " + std::to_string(job.rdma_percent) +
                         " percent of an RNIC's bandwidth; the most of any node of " + cluster_name + " is " +
                         std::to_string(most.rdma_percent) + " (100 percent per RNIC, a node group's \"rnics\")");
  if (claim.disk_bytes > most.disk_bytes)
    throw InputError(file_label, where, "disk",
                     "a CPU job runs on one node and needs " + describe_bytes(job.disk_bytes) +
                         " of disk; the most of any node of " + cluster_name + " is " +
                         describe_bytes(static_cast<double>(most.disk_bytes)) + " (a node group's \"disk\")");
  throw InputError(file_label, where, "memory",
                   "a CPU job runs on one node and needs " + describe_bytes(job.memory_bytes) +
                       " of host memory with its " + std::to_string(job.cpu_cores) + " cores; no node of " +
                       cluster_name + " has both");
}

// A DAG of CPU workers the empty cluster cannot hold: its workers may spread
// over nodes, each node holding as many as its cores and memory take.
void check_nodes_hold_cpu_workers(const JobSpec& job, const ClusterLayout& layout, const std::string& file_label,
                                  const std::string& where, const std::string& cluster_name) {
  const std::size_t workers = cpu_workers(job);
  // Workers the empty cluster's nodes of the job's role hold, by the host resources `counted`.
  auto held = [&](unsigned counted) {
    std::size_t total = 0;
    NodeId first = 0;  // nodes are numbered group by group, and the nodes of a group are alike
    for (const NodeGroup& group : layout.spec().node_groups) {
      if (group.count > 0 && role_allows(job.role, group.role))
        total += group.count * cpu_workers_that_fit(job, capacity_counting(layout, first, counted), workers);
      first += group.count;
    }
    return total;
  };
  if (held(kAllHost) >= workers) return;
  check_role_exists(job, layout, file_label, where, cluster_name);
  const std::string count = std::to_string(workers) + " CPU workers";
  if (held(kCores) < workers)
    throw InputError(file_label, where, "cpu_cores",
                     "needs " + std::to_string(job.cpu_cores) + " cores split over its " + count + "; the nodes of " +
                         cluster_name + " can hold the cores of only " + std::to_string(held(kCores)) + " of them");
  for (const bool rdma : {true, false})
    if (const std::size_t here = held(rdma ? kRdma : kDisk); here < workers)
      throw_rdma_or_disk(job, rdma, here, count, file_label, where, cluster_name);
  throw InputError(file_label, where, "memory",
                   "needs " + describe_bytes(job.memory_bytes) + " of host memory split over its " + count +
                       "; the nodes of " + cluster_name + " can hold the memory of only " +
                       std::to_string(held(kMemory)) + " of them");
}

// What the checks of a GPU job's GPUs, memory, cores and types against the
// empty cluster read of it: jobs alike in these pass or fail alike.
using GpuShape = std::tuple<std::uint32_t, double, double, std::uint32_t, double, bool, bool, std::vector<std::string>,
                            std::uint32_t, double, NodeRole>;
GpuShape gpu_shape(const JobSpec& job) {
  return {job.gpus,        job.gpu_memory_bytes, job.gpu_share, job.cpu_cores,    job.memory_bytes,
          job.single_node, job.mixed_gpu_types,  job.gpu_types, job.rdma_percent, job.disk_bytes,
          job.role};
}

}  // namespace

void validate_workload_against_cluster(const std::vector<JobSpec>& jobs, const ClusterLayout& layout,
                                       const std::string& file_label) {
  const ClusterSpec& cluster = layout.spec();
  const std::string cluster_name = "cluster '" + cluster.name + "'";
  // The shapes of GPU jobs that passed: a workload of many jobs has few
  // shapes, and each check walks the node groups (or, for GPU memory, the nodes).
  std::set<GpuShape> passed;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& job = jobs[i];
    const std::string where = job_where(i, job);

    // A trace's share is checked here, a native file's when it is read.
    if (!(job.gpu_share >= kSmallestGpuShare && job.gpu_share <= 1)) {
      char share[32];  // as given, however small: "1e-09", not "0.000000"
      std::snprintf(share, sizeof share, "%g", job.gpu_share);
      throw InputError(file_label, where, "gpu_share",
                       "expected a share of each GPU between a millionth and 1, got " + std::string(share));
    }

    if (job.gpus > layout.gpu_count())
      throw InputError(file_label, where, "gpus",
                       "needs " + std::to_string(job.gpus) + " GPUs, " + cluster_name + " has " +
                           std::to_string(layout.gpu_count()));

    const bool gpu_job = !runs_on_cpu(job);
    GpuShape shape;
    if (gpu_job) shape = gpu_shape(job);
    const bool known = gpu_job && passed.count(shape) > 0;

    if (job.gpu_memory_bytes > 0 && !known) {
      const std::size_t fitting = gpus_with_memory(layout, job.gpu_memory_bytes);
      if (fitting == 0) {
        const GpuType* largest = largest_memory_gpu(layout);
        throw InputError(file_label, where, "gpu_memory",
                         "needs " + describe_bytes(job.gpu_memory_bytes) + " per GPU, but the largest GPU memory in " +
                             cluster_name + " is " +
                             (largest ? largest->name + "'s " + describe_bytes(largest->memory_bytes)
                                      : std::string("0 (it has no GPUs)")));
      }
      if (fitting < job.gpus)
        throw InputError(file_label, where, "gpu_memory",
                         "needs " + std::to_string(job.gpus) + " GPUs with at least " +
                             describe_bytes(job.gpu_memory_bytes) + " each, " + cluster_name + " has only " +
                             std::to_string(fitting));
    }

    if (runs_on_cpu(job)) {
      if (cpu_workers(job) > 1) {
        check_nodes_hold_cpu_workers(job, layout, file_label, where, cluster_name);
      } else {
        check_a_node_holds_cpu_job(job, layout, file_label, where, cluster_name);
      }
      continue;
    }
    if (!known) {
      check_nodes_can_hold(job, layout, file_label, where, cluster_name);
      passed.insert(std::move(shape));
    }

    // A use no GPU can hold fails the job on any placement.
    if (!job.gpu_memory_use().empty()) {
      double most = 0;
      for (const MemoryUse& use : job.gpu_memory_use()) most = std::max(most, use.bytes);
      const GpuType* largest = largest_memory_gpu(layout);
      if (largest && most > largest->memory_bytes)
        throw InputError(file_label, where, "gpu_memory_use",
                         "uses up to " + describe_bytes(most) + " on a GPU, more than the largest GPU memory in " +
                             cluster_name + " (" + largest->name + "'s " + describe_bytes(largest->memory_bytes) +
                             "): the job could only fail");
    }

    builtin_kinds().writer_of(job.work).check_on(job, ClusterCheck(layout, file_label, where, cluster_name));
  }
}

void validate_workload_for_policy(const std::vector<JobSpec>& jobs, const SchedulingPolicy& policy,
                                  const std::string& file_label) {
  if (policy.shares_gpus()) return;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].gpu_share >= 1) continue;
    char share[32];
    std::snprintf(share, sizeof share, "%g", jobs[i].gpu_share);
    throw InputError(file_label, job_where(i, jobs[i]), "gpu_share",
                     "asks " + std::string(share) + " of a GPU, but policy '" + std::string(policy.name()) +
                         "' does not share GPUs; run a policy that does (`gcsim policies` says which), or give "
                         "every job whole GPUs with --whole-gpus");
  }
}

std::size_t give_whole_gpus(std::vector<JobSpec>& jobs) {
  std::size_t changed = 0;
  for (JobSpec& job : jobs)
    if (job.gpu_share < 1) {
      job.gpu_share = 1;
      ++changed;
    }
  return changed;
}

}  // namespace gcsim
