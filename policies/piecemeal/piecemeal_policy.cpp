#include "policies/piecemeal/piecemeal_policy.hpp"

#include "policies/kit/tentative_cluster.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

namespace gcsim {

PiecemealPolicy::PiecemealPolicy(Time hold_timeout) : hold_timeout_(hold_timeout) {}

std::unique_ptr<SchedulingPolicy> PiecemealPolicy::create(const PolicyOptions& options) {
  return std::make_unique<PiecemealPolicy>(options.number("hold_timeout", kNever, PolicyOptions::Above{0}));
}

void PiecemealPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  const ClusterLayout& layout = ctx.cluster.layout();
  // Forget jobs that started or were given nothing back.
  for (auto it = holding_since_.begin(); it != holding_since_.end();) {
    const JobRuntime& rt = ctx.jobs.runtime(it->first);
    it = rt.state == JobState::kWaiting && !rt.gpus.empty() ? std::next(it) : holding_since_.erase(it);
  }

  std::vector<bool> taken(layout.gpu_count(), false);
  std::set<JobIndex> backing_off;
  for (auto it = holding_since_.begin(); it != holding_since_.end();) {
    if (ctx.now - it->second >= hold_timeout_) {
      plan.release(it->first);
      backing_off.insert(it->first);
      it = holding_since_.erase(it);
    } else {
      ++it;
    }
  }

  // No GPU free and none released: no request can be granted anything.
  if (backing_off.empty() && ctx.cluster.free_gpu_count() == 0) return wake_for_timeouts(plan);

  std::vector<GpuId> released;
  TentativeCluster after_releases(ctx.cluster);  // their host cores and memory come back too
  for (JobIndex job : backing_off) {
    released.insert(released.end(), ctx.jobs.runtime(job).gpus.begin(), ctx.jobs.runtime(job).gpus.end());
    after_releases.free(ctx.jobs.runtime(job).gpus, ctx.jobs.spec(job));
  }
  std::sort(released.begin(), released.end());
  // GPUs that are free now or freed by this plan's releases, in GPU order
  // (GPU ids go node by node), listed a node at a time as far as the requests
  // read them: a call that grants a few GPUs does not list the whole cluster.
  std::vector<GpuId> free;
  const std::vector<std::size_t>& free_per_node = ctx.cluster.free_gpus_per_node();
  NodeId next_node = 0;
  std::size_t next_released = 0;
  auto list_next_node = [&] {
    for (; next_node < layout.node_count(); ++next_node) {
      const bool releases_here =
          next_released < released.size() && layout.node_of(released[next_released]) == next_node;
      if (free_per_node[next_node] == 0 && !releases_here) continue;
      const std::size_t before = free.size();
      ctx.cluster.visit_free_gpus_of_node(next_node, 0, [&](GpuId g) {
        free.push_back(g);
        return true;
      });
      for (; next_released < released.size() && layout.node_of(released[next_released]) == next_node; ++next_released)
        free.push_back(released[next_released]);
      std::sort(free.begin() + static_cast<std::ptrdiff_t>(before), free.end());
      ++next_node;
      return true;
    }
    return false;
  };
  // Host cores and memory granted in this call, per node.
  std::map<NodeId, NodeClaim> granted_host;
  // Jobs of an anti-affinity granted a first GPU on a node in this call, per application and node.
  std::map<std::pair<std::string, NodeId>, std::uint32_t> granted_instances;
  // Whether GPU `g` can be the next one of request `r`: its type, its node
  // (single_node) and the growth of the job's cores and memory on that node.
  if (gpus_of_type_.empty()) {
    gpus_of_type_.assign(layout.spec().gpu_types.size(), 0);
    for (NodeId n = 0; n < layout.node_count(); ++n)
      gpus_of_type_[layout.node(n).gpu_type] += layout.node(n).gpus.size();
  }
  auto host_allows = [&](const JobSpec& spec, const std::vector<GpuId>& mine, GpuId g) {
    if (!allows_gpu_type(spec, layout.gpu_type_of(g).name)) return false;
    // One type per job unless it allows several: its first GPU's, of a type with GPUs enough for it.
    if (!may_mix_gpu_types(spec) && (mine.empty() ? gpus_of_type_[layout.gpu_type_index(g)] < spec.gpus
                                                  : layout.gpu_type_index(g) != layout.gpu_type_index(mine.front())))
      return false;
    const NodeId node = layout.node_of(g);
    if (spec.single_node && !mine.empty() && layout.node_of(mine.front()) != node) return false;
    const auto here = static_cast<std::size_t>(
        std::count_if(mine.begin(), mine.end(), [&](GpuId m) { return layout.node_of(m) == node; }));
    // Role and anti-affinity: the jobs of its application there now and granted there in this call.
    const std::uint32_t instances = has_anti_affinity(spec)
                                        ? after_releases.instances_on_node(spec.application->name, node) +
                                              granted_instances[{spec.application->name, node}]
                                        : 0;
    if (!node_admits(layout, spec, node, instances, here > 0)) return false;
    return (node_claim(spec, here + 1) - node_claim(spec, here))
        .fits_in(after_releases.free_host(node) - granted_host[node]);
  };

  struct Request {
    JobIndex job;
    std::size_t held, need;
    std::vector<GpuId> granted;
  };
  std::vector<Request> requests;
  for (JobIndex job : ctx.jobs.waiting()) {
    if (backing_off.count(job)) continue;
    const std::size_t held = ctx.jobs.runtime(job).gpus.size();
    requests.push_back({job, held, ctx.jobs.spec(job).gpus, {}});
  }

  // The requests still short of GPUs, by GPUs held and granted, then in
  // submission order: the first is the neediest.
  std::set<std::pair<std::size_t, std::size_t>> short_of;
  for (std::size_t i = 0; i < requests.size(); ++i)
    if (requests[i].held < requests[i].need) short_of.insert({requests[i].held, i});

  std::size_t next_free = 0;
  // The request holding the fewest GPUs (ties: submission order) gets the next GPU it can use.
  while (!short_of.empty() && (next_free < free.size() || list_next_node())) {
    Request* neediest = &requests[short_of.begin()->second];
    short_of.erase(short_of.begin());
    const JobSpec& spec = ctx.jobs.spec(neediest->job);
    std::vector<GpuId> mine = ctx.jobs.runtime(neediest->job).gpus;
    if (backing_off.count(neediest->job)) mine.clear();
    mine.insert(mine.end(), neediest->granted.begin(), neediest->granted.end());
    auto fits_here = [&](GpuId g) {
      return !taken[g] && layout.gpu_type_of(g).memory_bytes >= spec.gpu_memory_bytes && host_allows(spec, mine, g);
    };
    std::size_t k = next_free;
    while ((k < free.size() || list_next_node()) && !fits_here(free[k])) ++k;
    if (k == free.size()) {
      neediest->need = neediest->held + neediest->granted.size();  // nothing here fits it
      continue;
    }
    const GpuId fit = free[k];
    taken[fit] = true;
    {
      const NodeId node = layout.node_of(fit);
      const auto here = static_cast<std::size_t>(
          std::count_if(mine.begin(), mine.end(), [&](GpuId m) { return layout.node_of(m) == node; }));
      granted_host[node] += node_claim(spec, here + 1) - node_claim(spec, here);
      if (spec.application && here == 0) ++granted_instances[{spec.application->name, node}];
    }
    neediest->granted.push_back(fit);
    const std::size_t now_held = neediest->held + neediest->granted.size();
    if (now_held < neediest->need) short_of.insert({now_held, static_cast<std::size_t>(neediest - requests.data())});
    while (next_free < free.size() && taken[free[next_free]]) ++next_free;
  }

  for (const Request& r : requests) {
    if (r.granted.empty()) continue;
    plan.allocate(r.job, r.granted);
    if (r.held + r.granted.size() < ctx.jobs.spec(r.job).gpus) holding_since_.emplace(r.job, ctx.now);
  }
  wake_for_timeouts(plan);
}

void PiecemealPolicy::wake_for_timeouts(Plan& plan) const {
  if (hold_timeout_ == kNever) return;
  Time earliest_timeout = kNever;
  for (const auto& [job, since] : holding_since_) earliest_timeout = std::min(earliest_timeout, since + hold_timeout_);
  if (earliest_timeout != kNever) plan.wake_at(earliest_timeout);
}

}  // namespace gcsim
