#include "policies/capacity/preemption_monitor.hpp"

#include <algorithm>
#include <cmath>

namespace gcsim {
namespace {

bool same_time(Time a, Time b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(a)); }

}  // namespace

PreemptionMonitor::PreemptionMonitor(const PreemptionConfig& config)
    : enabled_(config.enabled),
      interval_(config.monitoring_interval_ms / 1000.0),
      max_wait_(config.max_wait_before_kill_ms / 1000.0) {}

bool PreemptionMonitor::is_round(Time now) const {
  if (!enabled_ || same_time(now, last_round_) || now < last_round_) return false;
  const double k = std::round(now / interval_);
  return same_time(k * interval_, now);
}

Time PreemptionMonitor::next_round_after(Time now) const {
  double k = std::floor(now / interval_) + 1;
  if (same_time(k * interval_, now)) k += 1;  // `now` itself sat just below a round time
  return k * interval_;
}

std::vector<JobIndex> PreemptionMonitor::record_round(const std::vector<JobIndex>& selected, Time now) {
  last_round_ = now;
  std::vector<JobIndex> preempt;
  for (JobIndex job : selected) {
    auto it = marked_.find(job);
    if (it == marked_.end()) {
      marked_.emplace(job, now);
    } else if (now - it->second >= max_wait_ || same_time(now - it->second, max_wait_)) {
      preempt.push_back(job);
      marked_.erase(it);
    }
  }
  for (auto it = marked_.begin(); it != marked_.end();)
    it = it->second + 2 * max_wait_ < now && !same_time(it->second + 2 * max_wait_, now) ? marked_.erase(it)
                                                                                         : std::next(it);
  return preempt;
}

void PreemptionMonitor::forget_stopped(const QueueView& jobs) {
  for (auto it = marked_.begin(); it != marked_.end();)
    it = jobs.runtime(it->first).state != JobState::kRunning ? marked_.erase(it) : std::next(it);
}

std::optional<Time> PreemptionMonitor::marked_at(JobIndex job) const {
  auto it = marked_.find(job);
  if (it == marked_.end()) return std::nullopt;
  return it->second;
}

}  // namespace gcsim
