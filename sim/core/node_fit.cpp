#include "sim/core/node_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/work_forms.hpp"

namespace gcsim {
namespace {

// ceil(total x k / g) of a whole-number total, exact.
std::int64_t split_up(std::int64_t total, std::size_t k, std::size_t g) {
  if (k == 0 || total == 0) return 0;
  if (k >= g) return total;
  const auto kk = static_cast<std::int64_t>(k), gg = static_cast<std::int64_t>(g);
  return (total / gg) * kk + ((total % gg) * kk + gg - 1) / gg;
}

std::int64_t whole_bytes(double bytes) { return static_cast<std::int64_t>(std::ceil(bytes)); }

// The job's host claims split over `k` of its `parts` workers, each rounded up.
NodeClaim split_claim(const JobSpec& job, std::size_t k, std::size_t parts) {
  return {split_up(static_cast<std::int64_t>(job.cpu_cores) * 1000, k, parts),
          split_up(whole_bytes(job.memory_bytes), k, parts), split_up(job.rdma_percent, k, parts),
          split_up(whole_bytes(job.disk_bytes), k, parts)};
}

}  // namespace

std::string claim_beyond(const NodeClaim& used, const NodeClaim& capacity) {
  const auto text = [](std::int64_t amount, const char* unit, std::int64_t of) {
    return std::to_string(amount) + unit + " of its " + std::to_string(of);
  };
  if (used.millicores > capacity.millicores) return text(used.millicores, " millicores", capacity.millicores);
  if (used.memory_bytes > capacity.memory_bytes)
    return text(used.memory_bytes, " bytes of host memory", capacity.memory_bytes);
  if (used.rdma_percent > capacity.rdma_percent)
    return text(used.rdma_percent, " percent of RNIC bandwidth (rdma_percent)", capacity.rdma_percent);
  if (used.disk_bytes > capacity.disk_bytes) return text(used.disk_bytes, " bytes of disk", capacity.disk_bytes);
  return "";
}

bool node_admits(const ClusterLayout& layout, const JobSpec& job, NodeId node, std::uint32_t instances,
                 bool already_there) {
  if (!role_allows(job.role, layout.group_of_node(node).role)) return false;
  return already_there || !has_anti_affinity(job) || instances < job.application->max_per_node;
}

std::uint32_t cpu_workers(const JobSpec& job) {
  return job.gpus == 0 ? std::max<std::uint32_t>(cpu_workers_of(job.work), 1) : 1;
}

NodeClaim cpu_claim(const JobSpec& job, std::size_t k) { return split_claim(job, k, cpu_workers(job)); }

std::size_t cpu_workers_that_fit(const JobSpec& job, const NodeClaim& free, std::size_t most) {
  auto fits = [&](std::size_t k) { return cpu_claim(job, k).fits_in(free); };
  if (fits(most)) return most;
  std::size_t low = 0, high = most;  // fits(low), !fits(high): the claim grows with k
  while (high - low > 1) {
    const std::size_t mid = low + (high - low) / 2;
    (fits(mid) ? low : high) = mid;
  }
  return low;
}

NodeClaim node_claim(const JobSpec& job, std::size_t k) {
  return split_claim(job, k, std::max<std::size_t>(job.gpus, 1));
}

std::vector<std::pair<NodeId, NodeClaim>> host_changes(const ClusterLayout& layout, const JobSpec& job,
                                                       const std::vector<GpuId>& held, const std::vector<GpuId>& gpus) {
  std::vector<std::pair<NodeId, NodeClaim>> changes;
  if (!claims_host(job)) return changes;
  std::vector<std::pair<NodeId, std::size_t>> added;  // node, GPUs of `gpus` on it
  for (GpuId g : gpus) {
    const NodeId node = layout.node_of(g);
    auto it = std::find_if(added.begin(), added.end(), [&](const auto& a) { return a.first == node; });
    if (it == added.end())
      added.emplace_back(node, 1);
    else
      ++it->second;
  }
  for (const auto& [node, count] : added) {
    const auto before = static_cast<std::size_t>(
        std::count_if(held.begin(), held.end(), [&, node = node](GpuId g) { return layout.node_of(g) == node; }));
    const NodeClaim from = node_claim(job, before), to = node_claim(job, before + count);
    changes.emplace_back(node, to - from);
  }
  return changes;
}

NodeClaim node_capacity(const ClusterLayout& layout, NodeId node) {
  const NodeGroup& group = layout.group_of_node(node);
  return {static_cast<std::int64_t>(group.cpu_cores) * 1000, whole_bytes(group.memory_bytes),
          static_cast<std::int64_t>(group.rnics) * 100, whole_bytes(group.disk_bytes)};
}

bool allows_gpu_type(const JobSpec& job, const std::string& type) {
  return job.gpu_types.empty() || std::find(job.gpu_types.begin(), job.gpu_types.end(), type) != job.gpu_types.end();
}

bool spans_gpu_types(const ClusterLayout& layout, const std::vector<GpuId>& gpus) {
  return std::any_of(gpus.begin(), gpus.end(),
                     [&](GpuId g) { return layout.gpu_type_index(g) != layout.gpu_type_index(gpus.front()); });
}

std::size_t gpus_that_fit(const ClusterLayout& layout, const JobSpec& job, NodeId node, const NodeClaim& free,
                          std::size_t held, std::uint32_t instances) {
  if (!layout.has_gpus(node) || !allows_gpu_type(job, layout.gpu_type_name(node))) return 0;
  if (!node_admits(layout, job, node, instances, held > 0)) return 0;
  const std::size_t most = job.gpus > held ? job.gpus - held : 0;
  const NodeClaim before = node_claim(job, held);
  // The claim grows with k: the largest k whose growth fits (a binary search; k <= most).
  auto fits = [&](std::size_t k) { return (node_claim(job, held + k) - before).fits_in(free); };
  // A node that holds all the job's GPUs limits nothing: as many as it has free.
  if (fits(most)) return std::numeric_limits<std::size_t>::max();
  std::size_t low = 0, high = most;  // fits(low), !fits(high)
  while (high - low > 1) {
    const std::size_t mid = low + (high - low) / 2;
    (fits(mid) ? low : high) = mid;
  }
  return low;
}

}  // namespace gcsim
