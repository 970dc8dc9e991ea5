#include "policies/capacity/user_limits.hpp"

#include <algorithm>

namespace gcsim {

ResourceVector compute_user_limit(const DominantResourceCalculator& drc, const UserLimitQueue& queue,
                                  const std::map<std::string, UserUsage>& users) {
  const ResourceVector& required = kMinimumAllocation;
  const ResourceVector queue_capacity = drc.max(queue.capacity, required);

  double usage_ratio = 0;
  ResourceVector active_used;
  std::size_t active_users = 0;
  for (const auto& [name, user] : users) {
    usage_ratio += drc.share(user.used);
    if (user.active()) {
      active_used += user.used;
      ++active_users;
    }
  }
  const ResourceVector consumed = round_up(drc.cluster().scaled(usage_ratio));
  const ResourceVector current_capacity = drc.less(consumed, queue_capacity) ? queue_capacity : consumed + required;

  // With no active user nobody asks; the formula is then evaluated for one.
  const double count = static_cast<double>(std::max<std::size_t>(active_users, 1));
  const ResourceVector fair = round_up((active_used + required).scaled(1.0 / count));
  const ResourceVector floor_share =
      round_up(round_down(current_capacity.scaled(queue.minimum_user_limit_percent)).scaled(1.0 / 100));
  const ResourceVector limit = drc.max(fair, floor_share);

  const bool uncapped = queue.user_limit_factor == -1 || !drc.any_positive(queue.capacity);
  const ResourceVector cap =
      uncapped ? round_down(queue.maximum) : round_down(queue_capacity.scaled(queue.user_limit_factor));
  return round_up(drc.min(limit, cap));
}

}  // namespace gcsim
