#include "sim/engine/instant_guard.hpp"

#include <algorithm>

namespace gcsim {
namespace {

bool same(const Decision& a, const Decision& b) { return a.kind == b.kind && a.job == b.job; }

// The shortest period p such that the last 2p decisions are one sequence of
// p twice; 0 when none is.
std::size_t repeating_period(const std::deque<Decision>& decisions) {
  const std::size_t n = decisions.size();
  for (std::size_t p = 1; 2 * p <= n; ++p) {
    bool repeats = true;
    for (std::size_t i = n - p; i < n && repeats; ++i) repeats = same(decisions[i], decisions[i - p]);
    if (repeats) return p;
  }
  return 0;
}

}  // namespace

void InstantGuard::begin_call(Time now) {
  if (now - instant_ >= kInstantWidth) {
    instant_ = now;
    calls_ = 0;
    taken_away_.clear();
    recent_.clear();
  }
  if (++calls_ > kMaxCallsAtOneInstant) over_bound_ = true;
}

void InstantGuard::record(const Plan& plan) {
  for (const Decision& d : plan.decisions()) {
    recent_.push_back({d.kind, d.job, {}});
    if (recent_.size() > kKeptDecisions) recent_.pop_front();
    if (d.kind != Decision::Kind::kAllocate && ++taken_away_[d.job] > kMaxTakenAwayPerJob) over_bound_ = true;
  }
}

std::optional<LivelockReport> InstantGuard::livelock() const {
  if (!over_bound_) return std::nullopt;
  LivelockReport report;
  report.at = instant_;
  report.policy_calls = calls_;
  report.jobs.assign(taken_away_.begin(), taken_away_.end());
  std::sort(report.jobs.begin(), report.jobs.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  const std::size_t period = repeating_period(recent_);
  report.repeats = period > 0;
  const std::size_t shown = period > 0 ? period : std::min<std::size_t>(recent_.size(), 8);
  report.cycle.assign(recent_.end() - static_cast<std::ptrdiff_t>(shown), recent_.end());
  return report;
}

}  // namespace gcsim
