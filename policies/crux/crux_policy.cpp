#include "policies/crux/crux_policy.hpp"

#include <algorithm>
#include <stdexcept>

#include "policies/crux/link_loads.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {
namespace {

// A waiting job, where it would go now and how it ranks.
struct Candidate {
  JobIndex job;
  bool overdue;
  double intensity;
};

// The placement's choice for `job`, or one that leaves out the racks whose
// uplinks carry the most traffic, whichever meets the least loaded busiest link.
std::optional<std::vector<GpuId>> least_loaded(const JobSpec& job, const ClusterView& cluster,
                                               const PlacementPolicy& placement, const LinkLoads& loads) {
  const std::vector<bool> none;
  auto best = placement.place(job, cluster, none);
  if (!best) return best;
  const ClusterLayout& layout = cluster.layout();
  const JobTraffic own = loads.traffic(job, *best);
  double best_load = loads.busiest_utilization(own);
  // Nothing else on its links: the placement's choice stands.
  if (own.bytes.empty() || best_load <= LinkLoads(layout).busiest_utilization(own)) return best;
  // The racks whose uplinks carry traffic, the hottest first (ties: index).
  std::vector<std::pair<double, RackId>> hot;
  for (RackId r = 0; r < layout.rack_count(); ++r)
    if (const double u = loads.rack_utilization(r); u > 0) hot.push_back({-u, r});
  std::sort(hot.begin(), hot.end());
  std::vector<bool> left_out(layout.gpu_count(), false);
  for (const auto& [minus_load, rack] : hot) {
    for (NodeId n : layout.nodes_of_rack(rack))
      for (GpuId g : layout.node(n).gpus) left_out[g] = true;
    auto gpus = placement.place(job, cluster, left_out);
    if (!gpus) break;
    const double load = loads.busiest_utilization(loads.traffic(job, *gpus));
    if (load < best_load) {
      best_load = load;
      best = std::move(gpus);
    }
  }
  return best;
}

}  // namespace

CruxPolicy::CruxPolicy(std::unique_ptr<PlacementPolicy> placement, CruxOptions options)
    : placement_(std::move(placement)), options_(options) {
  if (!placement_) throw std::invalid_argument("crux needs a placement policy");
}

std::unique_ptr<SchedulingPolicy> CruxPolicy::create(const PolicyOptions& options,
                                                     std::unique_ptr<PlacementPolicy> placement) {
  CruxOptions crux;
  if (const auto order = options.find("order"); order != options.end()) {
    if (order->second != "intensity" && order->second != "submission")
      throw std::invalid_argument("option order must be intensity or submission, got '" + order->second + "'");
    crux.by_intensity = order->second == "intensity";
  }
  crux.patience = options.number("patience", crux.patience, PolicyOptions::AtLeast{0});
  return std::make_unique<CruxPolicy>(std::move(placement), crux);
}

void CruxPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  const ClusterLayout& layout = ctx.cluster.layout();
  LinkLoads loads(layout);
  for (JobIndex job : ctx.jobs.running()) loads.add(loads.traffic(ctx.jobs.spec(job), ctx.jobs.runtime(job).gpus));

  // Whom to start: overdue jobs in submission order, then the rest by intensity.
  const std::vector<bool> none;
  std::vector<Candidate> line;
  for (JobIndex job : ctx.jobs.waiting()) {
    const bool overdue = !options_.by_intensity || ctx.now - ctx.jobs.runtime(job).submitted >= options_.patience;
    double intensity = 0;
    if (!overdue) {
      const auto gpus = placement_->place(ctx.jobs.spec(job), ctx.cluster, none);
      if (!gpus) continue;  // cannot start in this call: the placements only shrink
      intensity = loads.traffic(ctx.jobs.spec(job), *gpus).intensity();
    }
    line.push_back({job, overdue, intensity});
  }
  // waiting() is in submission order; a stable sort keeps it among equals.
  std::stable_sort(line.begin(), line.end(), [](const Candidate& a, const Candidate& b) {
    if (a.overdue != b.overdue) return a.overdue;
    return !a.overdue && a.intensity > b.intensity;
  });

  // Where: each in turn, the earlier ones' GPUs taken and their traffic counted.
  TentativeCluster cluster(ctx.cluster);
  for (const Candidate& candidate : line) {
    const JobSpec& spec = ctx.jobs.spec(candidate.job);
    auto gpus = least_loaded(spec, cluster, *placement_, loads);
    if (!gpus) {
      if (candidate.overdue) return;  // head-of-line blocking for a job waiting too long
      continue;
    }
    loads.add(loads.traffic(spec, *gpus));
    cluster.take(*gpus, spec);  // its host claims too, so that a later job sees them taken
    plan.allocate(candidate.job, std::move(*gpus));
  }
}

}  // namespace gcsim
