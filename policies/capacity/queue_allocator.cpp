#include "policies/capacity/queue_allocator.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "policies/capacity/user_limits.hpp"

namespace gcsim {
namespace {

constexpr double kShareTolerance = 1e-9;

}  // namespace

bool serves_before(const QueueView& jobs, JobIndex a, JobIndex b) {
  const JobSpec& x = jobs.spec(a);
  const JobSpec& y = jobs.spec(b);
  if (x.priority != y.priority) return x.priority > y.priority;
  const Time x_submitted = jobs.runtime(a).submitted, y_submitted = jobs.runtime(b).submitted;
  if (x_submitted != y_submitted) return x_submitted < y_submitted;
  return a < b;
}

SchedulingRound::SchedulingRound(const QueueUsage& queue_usage, std::vector<std::vector<JobIndex>> waiting_jobs,
                                 const ClusterView& view)
    : usage(queue_usage),
      waiting(std::move(waiting_jobs)),
      cluster(view),
      taken(view.layout().gpu_count(), false),
      free_gpus(view.free_gpu_count()) {}

QueueAllocator::QueueAllocator(const QueueTree& tree, const DominantResourceCalculator& drc,
                               const PlacementPolicy& placement, const QueueView& jobs,
                               const std::vector<int>& leaf_of_job)
    : tree_(tree), drc_(drc), placement_(placement), jobs_(jobs), leaf_of_job_(leaf_of_job) {}

ResourceVector QueueAllocator::user_limit(const QueueUsage& usage, int leaf) const {
  const QueueNode& q = tree_.queue(leaf);
  const UserLimitQueue inputs{tree_.guaranteed(leaf, drc_.cluster()), tree_.maximum(leaf, drc_.cluster()),
                              q.config.minimum_user_limit_percent, q.config.user_limit_factor};
  return compute_user_limit(drc_, inputs, usage.users(leaf));
}

std::vector<int> QueueAllocator::children_in_order(const SchedulingRound& round, int parent) const {
  std::vector<int> children = tree_.queue(parent).children;
  auto key = [&](int q) {
    const double capacity = tree_.queue(q).absolute_capacity;
    const double share = drc_.share(round.usage.used(q));
    return std::make_tuple(capacity > 0 ? 0 : 1, capacity > 0 ? share / capacity : share);
  };
  std::stable_sort(children.begin(), children.end(), [&](int a, int b) {
    const auto ka = key(a), kb = key(b);
    if (std::get<0>(ka) != std::get<0>(kb)) return std::get<0>(ka) < std::get<0>(kb);
    if (std::fabs(std::get<1>(ka) - std::get<1>(kb)) > 1e-12) return std::get<1>(ka) < std::get<1>(kb);
    return tree_.queue(a).path() < tree_.queue(b).path();
  });
  return children;
}

bool QueueAllocator::within_queue_maximums(const QueueUsage& usage, int leaf, const ResourceVector& request) const {
  // Root's maximum is the cluster itself: fits_cluster() checks what is free.
  for (int q = leaf; q != QueueTree::root(); q = tree_.queue(q).parent)
    if (drc_.greater(usage.used(q) + request, tree_.maximum(q, drc_.cluster()))) return false;
  return true;
}

bool QueueAllocator::admits(const QueueUsage& usage, int leaf, const std::string& user,
                            const ResourceVector& request) const {
  return within_queue_maximums(usage, leaf, request) &&
         within_user_limit(drc_, usage.user_used(leaf, user), user_limit(usage, leaf));
}

bool QueueAllocator::fits_cluster(const SchedulingRound& round, const JobSpec& spec, std::size_t kept_gpus) const {
  if (round.free_gpus < static_cast<std::size_t>(spec.gpus) + kept_gpus) return false;
  const ResourceVector free = drc_.cluster() - round.usage.used(QueueTree::root());
  const ResourceVector host{0, static_cast<double>(spec.cpu_cores), spec.memory_bytes};
  return drc_.fits_in(host, componentwise_max(free, {}));
}

void QueueAllocator::start(SchedulingRound& round, JobIndex job, std::vector<GpuId> gpus, Plan& plan) const {
  const JobSpec& spec = jobs_.spec(job);
  const int leaf = leaf_of_job_[job];
  round.cluster.take(gpus, spec);  // its host cores and memory too
  for (GpuId g : gpus) round.taken[g] = true;
  round.free_gpus -= gpus.size();
  round.usage.start(leaf, spec.user, ResourceVector::of(spec));
  round.usage.remove_waiting(leaf, spec.user);
  auto& waiting = round.waiting[leaf];
  waiting.erase(std::find(waiting.begin(), waiting.end(), job));
  round.started.push_back(job);
  plan.allocate(job, std::move(gpus));
}

void QueueAllocator::serve_reservations(SchedulingRound& round, ReservationBook& reservations, Time now,
                                        Plan& plan) const {
  for (std::size_t r = 0; r < reservations.reservations().size(); ++r) {
    const Reservation& res = reservations.reservations()[r];
    if (!res.active(now)) continue;
    std::uint32_t unused = reservations.unused_gpus(r, jobs_, now);
    const std::vector<JobIndex> candidates = round.waiting[res.leaf];
    for (JobIndex job : candidates) {
      const JobSpec& spec = jobs_.spec(job);
      if (spec.user != res.user || spec.gpus > unused || !fits_cluster(round, spec, 0)) continue;
      auto gpus = placement_.place(spec, round.cluster, round.taken);
      if (!gpus) continue;
      start(round, job, std::move(*gpus), plan);
      reservations.charge(job, r);
      unused -= spec.gpus;
    }
  }
}

void QueueAllocator::serve_queues(SchedulingRound& round, std::size_t kept_gpus, Plan& plan,
                                  const SpotRoom* spot_room) const {
  Pass pass;
  pass.kept_gpus = kept_gpus;
  pass.spot_room = spot_room;
  while (serve(round, QueueTree::root(), pass, plan)) {
  }
  if (!spot_room) return;
  pass.spot_turn = true;
  while (serve(round, QueueTree::root(), pass, plan)) {
  }
}

bool QueueAllocator::serve(SchedulingRound& round, int queue, Pass& pass, Plan& plan) const {
  if (!tree_.queue(queue).is_leaf()) {
    for (int child : children_in_order(round, queue))
      if (serve(round, child, pass, plan)) return true;
    return false;
  }
  if (round.waiting[queue].empty()) return false;
  const ResourceVector limit = user_limit(round, queue);
  const double guarantee = tree_.queue(queue).absolute_capacity;
  for (JobIndex job : round.waiting[queue]) {
    if (pass.unplaceable.count(job)) continue;
    const JobSpec& spec = jobs_.spec(job);
    if (pass.spot_room && is_spot(spec) != pass.spot_turn) continue;
    const ResourceVector request = ResourceVector::of(spec);
    // A guaranteed job may preempt the spot jobs in its way (SpotRoom).
    const bool may_preempt = pass.spot_room && !is_spot(spec);
    const bool admitted = within_queue_maximums(round, queue, request) &&
                          within_user_limit(drc_, round.usage.user_used(queue, spec.user), limit);
    if (!admitted && !may_preempt) continue;
    const bool borrowing = drc_.share(round.usage.used(queue) + request) > guarantee + kShareTolerance;
    const std::size_t keep = pass.kept_gpus + (borrowing ? pass.claimed_gpus : 0);
    std::optional<std::vector<GpuId>> gpus;
    if (admitted && fits_cluster(round, spec, keep)) gpus = placement_.place(spec, round.cluster, round.taken);
    // Room made by preempting spot jobs changes round.waiting (they wait
    // again), and the job then starts: the loop ends.
    if (!gpus && may_preempt) gpus = (*pass.spot_room)(round, job, keep, plan);
    if (!gpus && !admitted) {
      pass.unplaceable.insert(job);  // fewer spot jobs, more usage: no later try in the pass does better
      continue;
    }
    if (!gpus) {
      pass.unplaceable.insert(job);
      // The first job of a queue within its guarantee that finds no room claims the room it needs.
      if (!borrowing && pass.claiming.insert(queue).second) pass.claimed_gpus += spec.gpus;
      continue;
    }
    start(round, job, std::move(*gpus), plan);
    return true;
  }
  return false;
}

}  // namespace gcsim
