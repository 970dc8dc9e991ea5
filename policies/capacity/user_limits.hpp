// user_limits.hpp: YARN's per-user limit inside a leaf queue.
//
// Source: UsersManager.computeUserLimit and LeafQueue.canAssignToUser of
// Hadoop 3 (YARN-5889 and later), with every user's weight 1. All arithmetic
// is on ResourceVectors (GPUs, CPU cores, host memory), component by
// component; min and max pick a whole vector with the DominantResourceCalculator:
//
//   required         = minimum allocation = {1 GPU, 1 core, 1 byte}
//   queue_capacity   = max(absolute capacity x cluster, required)
//   consumed         = round_up(cluster x sum over the leaf's users of their dominant shares)
//   current_capacity = queue_capacity              if consumed < queue_capacity
//                      consumed + required          otherwise
//   limit = max( round_up((used by active users + required) / active users),
//                round_up(round_down(current_capacity x minimum-user-limit-percent) / 100) )
//   limit = round_up( min(limit, round_down(queue_capacity x user-limit-factor)) )
//           (user-limit-factor -1, or a queue capacity of 0: the cap is round_down(absolute maximum x cluster))
//
// An active user is one with waiting jobs in the leaf (YARN: an application
// with outstanding requests). The limit is the same for every user of the
// leaf. A user may start another job while its usage does not exceed the
// limit, compared as the DominantResourceCalculator compares (dominant shares
// first): the job being started is not counted (YARN's "used > limit" test),
// so a user may end one job above its limit, and a job larger than the limit
// can still start when its user holds nothing.
//
//   ResourceVector limit = compute_user_limit(drc, {capacity, maximum, 25, 1}, users);
//   if (within_user_limit(drc, users.at("alice").used, limit)) ...
#pragma once

#include <map>
#include <string>
#include <vector>

#include "policies/capacity/resource_vector.hpp"

namespace gcsim {

/// What one user holds and waits for in one leaf queue.
struct UserUsage {
  ResourceVector used;
  std::size_t waiting_jobs = 0;
  bool active() const { return waiting_jobs > 0; }
};

/// A leaf queue's inputs to the formula.
struct UserLimitQueue {
  ResourceVector capacity;  // absolute capacity x cluster
  ResourceVector maximum;   // absolute maximum capacity x cluster
  double minimum_user_limit_percent = 100;
  double user_limit_factor = 1;
};

/// yarn.scheduler.minimum-allocation-* as this policy takes it: one unit of each resource.
inline constexpr ResourceVector kMinimumAllocation{1, 1, 1};

/// The user limit of the leaf described by `queue` whose users are `users`
/// (every user holding or waiting for something in it).
ResourceVector compute_user_limit(const DominantResourceCalculator& drc, const UserLimitQueue& queue,
                                  const std::map<std::string, UserUsage>& users);

/// Whether a user holding `used` may start another job (YARN's canAssignToUser).
inline bool within_user_limit(const DominantResourceCalculator& drc, const ResourceVector& used,
                              const ResourceVector& limit) {
  return !drc.greater(used, limit);
}

}  // namespace gcsim
