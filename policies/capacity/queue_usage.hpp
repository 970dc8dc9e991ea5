// queue_usage.hpp: what every queue and every user of a leaf holds and
// waits for.
//
// A job's usage is charged to its leaf, to every ancestor of the leaf and to
// its user in that leaf. The capacity policy keeps one QueueUsage across
// calls (live_queues.hpp); a scheduling call works on a copy, updated as it
// starts and preempts jobs, so that queue order, queue limits and user limits
// always see the call's own decisions.
//
//   QueueUsage usage(tree);
//   usage.start(leaf, "alice", ResourceVector::of(spec));
//   usage.used(QueueTree::root());
#pragma once

#include <map>
#include <string>
#include <vector>

#include "policies/capacity/queue_tree.hpp"
#include "policies/capacity/user_limits.hpp"

namespace gcsim {

class QueueUsage {
 public:
  explicit QueueUsage(const QueueTree& tree);

  /// A job of `user` in `leaf` runs (or leaves) with `resources`.
  void start(int leaf, const std::string& user, const ResourceVector& resources);
  void stop(int leaf, const std::string& user, const ResourceVector& resources);
  /// A running job to charge in bulk: its leaf, its user as a number (in
  /// `users` of start_all()) and its resources.
  struct Charge {
    int leaf;
    std::size_t user;
    const ResourceVector* resources;
  };
  /// start() for every charge, in order, on a usage where their users hold
  /// nothing yet: the same sums, added in the same order, but one user lookup
  /// per leaf and user instead of one per job.
  void start_all(const std::vector<Charge>& charges, const std::vector<std::string>& users);
  /// A job of `user` waits in `leaf` (or stops waiting).
  void add_waiting(int leaf, const std::string& user);
  void remove_waiting(int leaf, const std::string& user);
  /// Drops `user` from the leaf's users once it holds and waits for nothing.
  void forget_if_idle(int leaf, const std::string& user);

  const ResourceVector& used(int queue) const { return used_[queue]; }
  /// The users holding or waiting for something in `leaf`.
  const std::map<std::string, UserUsage>& users(int leaf) const { return users_[leaf]; }
  /// What `user` holds in `leaf` (zero when nothing).
  ResourceVector user_used(int leaf, const std::string& user) const;

 private:
  const QueueTree* tree_;                                // a pointer, so that a usage can be assigned
  std::vector<ResourceVector> used_;                     // per queue
  std::vector<std::map<std::string, UserUsage>> users_;  // per queue; leaves only
};

}  // namespace gcsim
