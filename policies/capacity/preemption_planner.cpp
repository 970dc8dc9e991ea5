#include "policies/capacity/preemption_planner.hpp"

#include <algorithm>
#include <limits>

namespace gcsim {
namespace {

// Shares closer than this are equal (they come out of sums and a linear solve).
constexpr double kTolerance = 1e-9;

// One queue in a water-filling: clamp(start + level x weight, floor, cap).
struct FillItem {
  double floor, cap, start, weight;
  double at(double level) const { return std::clamp(start + level * weight, floor, cap); }
};

// The values at the level where they sum to `amount` (all floors below it, all caps above it).
std::vector<double> water_fill(const std::vector<FillItem>& items, double amount) {
  auto total = [&](double level) {
    double sum = 0;
    for (const FillItem& item : items) sum += item.at(level);
    return sum;
  };
  std::vector<double> levels{0};
  for (const FillItem& item : items) {
    levels.push_back(std::max(0.0, (item.floor - item.start) / item.weight));
    levels.push_back(std::max(0.0, (item.cap - item.start) / item.weight));
  }
  std::sort(levels.begin(), levels.end());
  double level = levels.back();
  if (amount <= total(0)) {
    level = 0;
  } else {
    // The sum is piecewise linear and non-decreasing between consecutive breakpoints.
    for (std::size_t i = 1; i < levels.size(); ++i) {
      const double low = total(levels[i - 1]), high = total(levels[i]);
      if (amount > high) continue;
      level = high > low ? levels[i - 1] + (amount - low) * (levels[i] - levels[i - 1]) / (high - low) : levels[i];
      break;
    }
  }
  std::vector<double> values;
  for (const FillItem& item : items) values.push_back(item.at(level));
  return values;
}

}  // namespace

struct PreemptionPlanner::Work {
  std::vector<QueueTargets> q;
  std::vector<double> untouchable_extra, preemptable_extra;
};

PreemptionPlanner::PreemptionPlanner(const QueueTree& tree, const DominantResourceCalculator& drc,
                                     const PreemptionConfig& config)
    : tree_(tree), drc_(drc), config_(config) {}

std::vector<QueueTargets> PreemptionPlanner::compute_targets(const std::vector<ResourceVector>& used,
                                                             const std::vector<ResourceVector>& pending) const {
  const int n = static_cast<int>(tree_.size());
  std::vector<ResourceVector> subtree_pending(n);
  for (int i = 0; i < n; ++i)
    if (tree_.queue(i).is_leaf()) subtree_pending[i] = pending[i];
  // Children come after their parent: in reverse order a child is complete when seen.
  for (int i = n - 1; i > 0; --i) subtree_pending[tree_.queue(i).parent] += subtree_pending[i];

  Work work;
  work.q.resize(n);
  work.untouchable_extra.assign(n, 0);
  work.preemptable_extra.assign(n, 0);
  for (int i = 0; i < n; ++i) {
    QueueTargets& t = work.q[i];
    t.used = drc_.share(used[i]);
    t.demand = drc_.share(used[i] + subtree_pending[i]);
    t.guaranteed = tree_.queue(i).absolute_capacity;
    t.maximum = tree_.queue(i).absolute_maximum_capacity;
  }
  // What is over the guarantee, split into what preemption may and may not
  // take (TempQueuePerPartition.updatePreemptableExtras).
  for (int i = n - 1; i >= 0; --i) {
    const double extra = std::max(0.0, work.q[i].used - work.q[i].guaranteed);
    if (tree_.queue(i).is_leaf()) {
      (tree_.queue(i).config.disable_preemption ? work.untouchable_extra[i] : work.preemptable_extra[i]) = extra;
      continue;
    }
    double children_preemptable = 0;
    for (int c : tree_.queue(i).children) children_preemptable += work.preemptable_extra[c];
    work.untouchable_extra[i] = std::max(0.0, extra - children_preemptable);
    work.preemptable_extra[i] = std::min(children_preemptable, extra);
  }

  work.q[QueueTree::root()].ideal = 1.0;
  distribute(work, QueueTree::root());

  for (int leaf : tree_.leaves()) {
    QueueTargets& t = work.q[leaf];
    const bool in_dead_zone = t.used <= t.guaranteed * (1.0 + config_.max_ignored_over_capacity) + kTolerance;
    if (tree_.queue(leaf).config.disable_preemption || in_dead_zone || t.to_be_preempted <= kTolerance) continue;
    t.to_obtain = t.to_be_preempted * config_.natural_termination_factor;
  }
  return std::move(work.q);
}

// computeIdealResourceDistribution for the children of `parent`.
void PreemptionPlanner::distribute(Work& work, int parent) const {
  const QueueNode& node = tree_.queue(parent);
  if (node.is_leaf()) return;
  double unassigned = work.q[parent].ideal;
  std::vector<int> guaranteed_children, zero_children;
  for (int c : node.children) (work.q[c].guaranteed > 0 ? guaranteed_children : zero_children).push_back(c);
  fill(work, guaranteed_children, unassigned, false);
  fill(work, zero_children, unassigned, true);

  double needed = 0;
  for (int c : node.children) needed += std::max(0.0, work.q[c].used - work.q[c].ideal);
  const double allowed = config_.total_preemption_per_round;
  const double scaling = needed > allowed ? allowed / needed : 1.0;
  for (int c : node.children) {  // TempQueuePerPartition.assignPreemption
    QueueTargets& t = work.q[c];
    const double keep = std::max(std::min(t.demand, t.guaranteed), t.ideal);
    t.to_be_preempted = t.used > keep + kTolerance ? (t.used - keep) * scaling : 0.0;
  }
  for (int c : node.children) distribute(work, c);
}

// computeFixpointAllocation, solved as a water-filling.
void PreemptionPlanner::fill(Work& work, const std::vector<int>& queues, double& unassigned,
                             bool equal_increments) const {
  std::vector<int> wanting;
  std::vector<FillItem> items;
  double wanting_start = 0;
  for (int q : queues) {
    QueueTargets& t = work.q[q];
    t.ideal = t.used > t.guaranteed ? t.guaranteed + work.untouchable_extra[q] : t.used;
    unassigned -= t.ideal;
    if (t.ideal >= t.demand - kTolerance) continue;
    double cap = std::min(t.maximum, t.demand);
    if (tree_.queue(q).is_leaf()) cap = std::min(cap, std::max(t.used, t.guaranteed));
    cap = std::max(cap, t.ideal);
    wanting.push_back(q);
    wanting_start += t.ideal;
    items.push_back(equal_increments ? FillItem{t.ideal, cap, t.ideal, 1.0}
                                     : FillItem{t.ideal, cap, 0.0, t.guaranteed});
  }
  if (wanting.empty() || unassigned <= kTolerance) return;
  const std::vector<double> values = water_fill(items, wanting_start + unassigned);
  for (std::size_t i = 0; i < wanting.size(); ++i) {
    unassigned -= values[i] - work.q[wanting[i]].ideal;
    work.q[wanting[i]].ideal = values[i];
  }
}

std::vector<JobIndex> PreemptionPlanner::select_victims(
    const std::vector<QueueTargets>& targets, const std::vector<std::vector<PreemptionCandidate>>& candidates) const {
  std::vector<JobIndex> victims;
  double allowance = config_.total_preemption_per_round;
  for (int leaf : tree_.leaves()) {
    double to_obtain = targets[leaf].to_obtain;
    double excess = targets[leaf].used - targets[leaf].guaranteed;
    for (const PreemptionCandidate& c : candidates[leaf]) {
      if (to_obtain <= kTolerance) break;
      const double share = drc_.share(c.resources);
      if (share > allowance + kTolerance || share > excess + kTolerance) continue;
      victims.push_back(c.job);
      to_obtain -= share;
      allowance -= share;
      excess -= share;
    }
  }
  return victims;
}

ResourceVector demand_preemption_can_serve(const DominantResourceCalculator& drc, const ResourceVector& queue_used,
                                           double guarantee, const ResourceVector& user_limit,
                                           const std::map<std::string, UserUsage>& users,
                                           const std::vector<WaitingRequest>& waiting) {
  std::map<std::string, ResourceVector> counted;  // usage plus the jobs counted so far, per user
  ResourceVector queue = queue_used;
  ResourceVector pending;
  for (const WaitingRequest& w : waiting) {
    auto it = counted.find(w.user);
    if (it == counted.end()) {
      auto user = users.find(w.user);
      it = counted.emplace(w.user, user == users.end() ? ResourceVector{} : user->second.used).first;
    }
    if (!within_user_limit(drc, it->second, user_limit)) continue;
    if (drc.share(queue + w.request) > guarantee + kTolerance) continue;
    it->second += w.request;
    queue += w.request;
    pending += w.request;
  }
  return pending;
}

}  // namespace gcsim
