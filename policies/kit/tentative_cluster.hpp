// tentative_cluster.hpp: the cluster as it would be after some decisions of
// the plan being built.
//
// Policies ask "would this job fit if I preempted those?" or, placing jobs
// one after another in one call, "what is left once the earlier ones took
// theirs?". A TentativeCluster answers through the ordinary ClusterView
// interface, so any placement can be asked: GPUs marked freed look free,
// GPUs (or shares of GPUs) marked taken look held, the real state is
// untouched. Only the GPUs changed here are stored, so making one is cheap.
//
//   TentativeCluster what_if(ctx.cluster);
//   what_if.free(ctx.jobs.runtime(victim).gpus);
//   auto gpus = placement.place(job, what_if, no_gpus_taken);
//   what_if.take(*gpus, job);  // the job's share and memory of each
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <unordered_map>
#include <vector>

#include "sim/core/cluster_view.hpp"

namespace gcsim {

class TentativeCluster final : public ClusterView {
 public:
  explicit TentativeCluster(const ClusterView& base);

  /// GPUs a preemption or release in the plan would free entirely (whole-GPU
  /// jobs' GPUs: a policy that shares GPUs frees a shared one only with all its holders).
  /// Without the job, its host cores and memory stay claimed.
  void free(const std::vector<GpuId>& gpus);
  /// The same, and the cores and memory `job` claims with them come back.
  void free(const std::vector<GpuId>& gpus, const JobSpec& job);
  /// GPUs an allocation in the plan would take whole (host claims unchanged:
  /// the undo of free(gpus)).
  void take(const std::vector<GpuId>& gpus);
  /// GPUs an allocation to `job` would take: its gpu_share and gpu_memory of
  /// each, its host claims on their nodes (sim/core/node_fit.hpp), and, for
  /// a job of an anti-affinity, one more of its application on each of them.
  void take(const std::vector<GpuId>& gpus, const JobSpec& job);
  /// GPUs `job` would give back (its end, a preemption): its share and memory
  /// of each; a GPU is free again once its whole share is back.
  void release(const std::vector<GpuId>& gpus, const JobSpec& job);

  const ClusterLayout& layout() const override { return base_->layout(); }
  const Locality& locality() const override { return base_->locality(); }
  bool is_free(GpuId gpu) const override;
  /// The holder in the real state, kNoJob for GPUs freed here; GPUs taken
  /// here report kNoJob too unless they were held before.
  JobIndex owner(GpuId gpu) const override;
  std::size_t free_gpu_count() const override { return free_total_; }
  std::size_t free_gpus_on_node(NodeId node) const override;
  /// The base's array while nothing changed here; else a copy made on the
  /// first request and kept up to date from then on.
  const std::vector<std::size_t>& free_gpus_per_node() const override;
  /// The base's index while nothing changed here; else a scan.
  NodeId fullest_node_with_free(std::size_t need) const override;
  double free_share(GpuId gpu) const override;
  double free_memory(GpuId gpu) const override;
  std::size_t partly_free_gpu_count() const override { return partly_free_; }
  /// The base's, corrected by the GPUs changed here: O(theirs + changes).
  void visit_partly_free_gpus(const std::function<void(GpuId)>& visit) const override;
  /// O(GPUs visited + those taken here that the walk passes), but a walk
  /// from the start of the node passes each run of GPUs taken at its start
  /// once, whatever the number of walks.
  void visit_free_gpus_of_node(NodeId node, GpuId from, const std::function<bool(GpuId)>& visit) const override;
  NodeClaim free_host(NodeId node) const override;
  /// The base's count, with the jobs taken (released) here counted on (off)
  /// each node of their GPUs.
  std::uint32_t instances_on_node(const std::string& application, NodeId node) const override;

 private:
  struct Changed {
    bool free;
    double free_share;
    double free_memory;
  };
  Changed current(GpuId gpu) const;
  void set(GpuId gpu, const Changed& after);

  const ClusterView* base_;  // a pointer, so that a view can be assigned
  std::unordered_map<GpuId, Changed> changed_;
  std::vector<bool> is_changed_;                        // per GPU, sized on the first change: most queries skip the map
  const Changed* changed(GpuId gpu) const;              // null when the GPU is as in the base
  std::unordered_map<NodeId, NodeClaim> host_claimed_;  // per node: claimed here minus given back here
  void claim_host(const std::vector<GpuId>& gpus, const JobSpec& job, int sign);
  // Per application and node: jobs of an anti-affinity taken here minus those given back here.
  std::map<std::pair<std::string, NodeId>, std::int64_t> instances_change_;
  // Per node: GPUs freed here minus GPUs taken here. Only the nodes changed
  // are stored, so a TentativeCluster costs nothing per node of the cluster.
  std::unordered_map<NodeId, std::int64_t> free_change_per_node_;
  // Per node: the GPUs freed here that the base holds, and a GPU id below
  // which every GPU the base has free is taken here (visit_free_gpus_of_node()).
  std::unordered_map<NodeId, std::set<GpuId>> freed_of_node_;
  mutable std::unordered_map<NodeId, GpuId> taken_below_;
  mutable std::vector<std::size_t> free_per_node_;  // empty until free_gpus_per_node() needs it
  std::size_t free_total_;
  std::size_t partly_free_;
};

}  // namespace gcsim
