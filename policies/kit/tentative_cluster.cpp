#include "policies/kit/tentative_cluster.hpp"

#include <algorithm>

namespace gcsim {

TentativeCluster::TentativeCluster(const ClusterView& base)
    : base_(&base), free_total_(base.free_gpu_count()), partly_free_(base.partly_free_gpu_count()) {}

std::size_t TentativeCluster::free_gpus_on_node(NodeId node) const {
  const std::size_t base = base_->free_gpus_on_node(node);
  if (free_change_per_node_.empty()) return base;
  const auto it = free_change_per_node_.find(node);
  return it == free_change_per_node_.end() ? base
                                           : static_cast<std::size_t>(static_cast<std::int64_t>(base) + it->second);
}

const std::vector<std::size_t>& TentativeCluster::free_gpus_per_node() const {
  if (free_change_per_node_.empty()) return base_->free_gpus_per_node();
  if (free_per_node_.empty()) {
    free_per_node_ = base_->free_gpus_per_node();
    for (const auto& [node, change] : free_change_per_node_)
      free_per_node_[node] = static_cast<std::size_t>(static_cast<std::int64_t>(free_per_node_[node]) + change);
  }
  return free_per_node_;
}

NodeId TentativeCluster::fullest_node_with_free(std::size_t need) const {
  if (free_change_per_node_.empty()) return base_->fullest_node_with_free(need);
  return ClusterView::fullest_node_with_free(need);
}

const TentativeCluster::Changed* TentativeCluster::changed(GpuId gpu) const {
  if (is_changed_.empty() || !is_changed_[gpu]) return nullptr;
  return &changed_.find(gpu)->second;
}

void TentativeCluster::visit_partly_free_gpus(const std::function<void(GpuId)>& visit) const {
  if (changed_.empty()) return base_->visit_partly_free_gpus(visit);
  const auto partly_free = [](const Changed& c) { return !c.free && c.free_share > kGpuShareTolerance; };
  // The base's that stay partly free here, then those that became so here.
  base_->visit_partly_free_gpus([&](GpuId g) {
    const Changed* here = changed(g);
    if (here == nullptr || partly_free(*here)) visit(g);
  });
  for (const auto& [g, after] : changed_)
    if (partly_free(after) && !partly_free({base_->is_free(g), base_->free_share(g), 0})) visit(g);
}

void TentativeCluster::visit_free_gpus_of_node(NodeId node, GpuId from, const std::function<bool(GpuId)>& visit) const {
  if (changed_.empty()) return base_->visit_free_gpus_of_node(node, from, visit);
  // The node's GPUs freed here that the base holds, merged in order with the
  // base's free GPUs that stay free here. Those the base has free below
  // taken_below_ are all taken here: the walk starts past them, and moves
  // that mark up over the taken ones it meets before any it visits.
  static const std::set<GpuId> kNone;
  const auto freed_here = freed_of_node_.find(node);
  const std::set<GpuId>& freed = freed_here == freed_of_node_.end() ? kNone : freed_here->second;
  auto next_freed = freed.lower_bound(from);
  const auto below = taken_below_.find(node);
  const GpuId skip_to = below == taken_below_.end() ? 0 : below->second;
  bool at_the_mark = from <= skip_to;  // every base-free GPU met so far is taken here
  bool more = true;
  base_->visit_free_gpus_of_node(node, std::max(from, skip_to), [&](GpuId g) {
    for (; more && next_freed != freed.end() && *next_freed < g; ++next_freed) more = visit(*next_freed);
    if (!more) return false;
    const Changed* here = changed(g);
    if (here == nullptr || here->free) {
      at_the_mark = false;
      more = visit(g);
    } else if (at_the_mark) {
      taken_below_[node] = g + 1;
    }
    return more;
  });
  for (; more && next_freed != freed.end(); ++next_freed) more = visit(*next_freed);
}

TentativeCluster::Changed TentativeCluster::current(GpuId gpu) const {
  if (const Changed* here = changed(gpu)) return *here;
  return {base_->is_free(gpu), base_->free_share(gpu), base_->free_memory(gpu)};
}

bool TentativeCluster::is_free(GpuId gpu) const {
  const Changed* here = changed(gpu);
  return here == nullptr ? base_->is_free(gpu) : here->free;
}

JobIndex TentativeCluster::owner(GpuId gpu) const { return is_free(gpu) ? kNoJob : base_->owner(gpu); }

double TentativeCluster::free_share(GpuId gpu) const {
  const Changed* here = changed(gpu);
  return here == nullptr ? base_->free_share(gpu) : here->free_share;
}

double TentativeCluster::free_memory(GpuId gpu) const {
  const Changed* here = changed(gpu);
  return here == nullptr ? base_->free_memory(gpu) : here->free_memory;
}

void TentativeCluster::set(GpuId gpu, const Changed& after) {
  const Changed before = current(gpu);
  const auto partly_free = [](const Changed& c) { return !c.free && c.free_share > kGpuShareTolerance; };
  partly_free_ = partly_free_ - (partly_free(before) ? 1 : 0) + (partly_free(after) ? 1 : 0);
  const bool was_free = before.free;
  changed_[gpu] = after;
  if (is_changed_.empty()) is_changed_.resize(base_->layout().gpu_count(), false);
  is_changed_[gpu] = true;
  if (was_free == after.free) return;
  const NodeId node = base_->layout().node_of(gpu);
  if (!base_->is_free(gpu)) {
    if (after.free)
      freed_of_node_[node].insert(gpu);
    else
      freed_of_node_[node].erase(gpu);
  } else if (after.free) {  // free again: no longer taken here
    if (const auto below = taken_below_.find(node); below != taken_below_.end() && below->second > gpu)
      below->second = gpu;
  }
  const int step = after.free ? 1 : -1;
  free_change_per_node_[node] += step;
  free_total_ += step;
  if (!free_per_node_.empty()) free_per_node_[node] += step;
}

NodeClaim TentativeCluster::free_host(NodeId node) const {
  NodeClaim free = base_->free_host(node);
  if (const auto it = host_claimed_.find(node); it != host_claimed_.end()) free -= it->second;
  return free;
}

std::uint32_t TentativeCluster::instances_on_node(const std::string& application, NodeId node) const {
  const std::uint32_t base = base_->instances_on_node(application, node);
  if (instances_change_.empty()) return base;
  const auto it = instances_change_.find({application, node});
  return it == instances_change_.end() ? base : static_cast<std::uint32_t>(base + it->second);
}

void TentativeCluster::claim_host(const std::vector<GpuId>& gpus, const JobSpec& job, int sign) {
  for (const auto& [node, claim] : host_changes(base_->layout(), job, {}, gpus)) {
    NodeClaim& claimed = host_claimed_[node];
    if (sign > 0)
      claimed += claim;
    else
      claimed -= claim;
  }
  if (!job.application) return;
  std::vector<NodeId> nodes;  // each node of `gpus` once
  for (GpuId g : gpus)
    if (const NodeId node = base_->layout().node_of(g); std::find(nodes.begin(), nodes.end(), node) == nodes.end())
      nodes.push_back(node);
  for (NodeId node : nodes) instances_change_[{job.application->name, node}] += sign;
}

void TentativeCluster::free(const std::vector<GpuId>& gpus, const JobSpec& job) {
  free(gpus);
  claim_host(gpus, job, -1);
}

void TentativeCluster::free(const std::vector<GpuId>& gpus) {
  for (GpuId g : gpus) set(g, {true, 1.0, base_->layout().gpu_type_of(g).memory_bytes});
}

void TentativeCluster::take(const std::vector<GpuId>& gpus) {
  for (GpuId g : gpus) set(g, {false, 0.0, current(g).free_memory});
}

void TentativeCluster::take(const std::vector<GpuId>& gpus, const JobSpec& job) {
  for (GpuId g : gpus) {
    const Changed now = current(g);
    set(g, {false, std::max(0.0, now.free_share - job.gpu_share), now.free_memory - job.gpu_memory_bytes});
  }
  claim_host(gpus, job, 1);
}

void TentativeCluster::release(const std::vector<GpuId>& gpus, const JobSpec& job) {
  for (GpuId g : gpus) {
    const Changed now = current(g);
    const double share = now.free_share + job.gpu_share;
    if (share >= 1 - kGpuShareTolerance)
      set(g, {true, 1.0, base_->layout().gpu_type_of(g).memory_bytes});
    else
      set(g, {false, share, now.free_memory + job.gpu_memory_bytes});
  }
  claim_host(gpus, job, -1);
}

}  // namespace gcsim
