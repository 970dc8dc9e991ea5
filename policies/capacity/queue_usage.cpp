#include "policies/capacity/queue_usage.hpp"

#include <cassert>

namespace gcsim {

QueueUsage::QueueUsage(const QueueTree& tree) : tree_(&tree), used_(tree.size()), users_(tree.size()) {}

void QueueUsage::start(int leaf, const std::string& user, const ResourceVector& resources) {
  assert(tree_->queue(leaf).is_leaf() && "jobs run in leaf queues");
  for (int q = leaf; q >= 0; q = tree_->queue(q).parent) used_[q] += resources;
  users_[leaf][user].used += resources;
}

void QueueUsage::start_all(const std::vector<Charge>& charges, const std::vector<std::string>& users) {
  // Per (leaf, user), the user's sum as start() would build it: from zero,
  // job after job.
  std::map<std::pair<int, std::size_t>, ResourceVector> by_user;
  for (const Charge& charge : charges) {
    assert(tree_->queue(charge.leaf).is_leaf() && "jobs run in leaf queues");
    for (int q = charge.leaf; q >= 0; q = tree_->queue(q).parent) used_[q] += *charge.resources;
    by_user[{charge.leaf, charge.user}] += *charge.resources;
  }
  for (const auto& [key, sum] : by_user) users_[key.first][users[key.second]].used += sum;
}

void QueueUsage::stop(int leaf, const std::string& user, const ResourceVector& resources) {
  assert(users_[leaf].count(user) && "only a user holding resources can give them back");
  for (int q = leaf; q >= 0; q = tree_->queue(q).parent) used_[q] -= resources;
  users_[leaf][user].used -= resources;
}

void QueueUsage::add_waiting(int leaf, const std::string& user) {
  assert(tree_->queue(leaf).is_leaf() && "jobs wait in leaf queues");
  ++users_[leaf][user].waiting_jobs;
}

void QueueUsage::remove_waiting(int leaf, const std::string& user) {
  UserUsage& u = users_[leaf][user];
  assert(u.waiting_jobs > 0 && "a user stops waiting only for a job it waited for");
  --u.waiting_jobs;
}

void QueueUsage::forget_if_idle(int leaf, const std::string& user) {
  auto it = users_[leaf].find(user);
  if (it != users_[leaf].end() && it->second.waiting_jobs == 0 && it->second.used == ResourceVector{})
    users_[leaf].erase(it);
}

ResourceVector QueueUsage::user_used(int leaf, const std::string& user) const {
  auto it = users_[leaf].find(user);
  return it == users_[leaf].end() ? ResourceVector{} : it->second.used;
}

}  // namespace gcsim
