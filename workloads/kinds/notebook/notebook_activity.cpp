#include "workloads/kinds/notebook/notebook_activity.hpp"

#include <algorithm>

#include "sim/core/portable_random.hpp"

namespace gcsim {

std::vector<NotebookPhase> draw_activity(const NotebookPattern& pattern) {
  PortableRandom random(pattern.seed);
  const Time mean_gap = pattern.burst * (1 - pattern.busy_fraction) / pattern.busy_fraction;
  std::vector<NotebookPhase> activity;
  Time at = 0;
  while (at < pattern.length) {
    NotebookPhase phase;
    phase.idle = std::min(random.exponential(mean_gap), pattern.length - at);
    at += phase.idle;
    phase.busy = std::min(random.exponential(pattern.burst), pattern.length - at);
    at += phase.busy;
    activity.push_back(phase);
  }
  return activity;
}

std::vector<NotebookHold> split_at_idle_timeout(const std::vector<NotebookPhase>& activity, Time timeout) {
  std::vector<NotebookHold> holds(1);
  for (const NotebookPhase& phase : activity) {
    if (timeout > 0 && phase.idle > timeout) {
      // Idle for the timeout, released; the burst comes back as a new hold.
      holds.back().activity.push_back({timeout, 0});
      holds.push_back({{{0, phase.busy}}, phase.idle - timeout});
      continue;
    }
    holds.back().activity.push_back(phase);
  }
  return holds;
}

}  // namespace gcsim
