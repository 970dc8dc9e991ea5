#include "workloads/notebook_activity.hpp"

#include <cmath>
#include <random>

namespace gcsim {
namespace {

// An exponential draw of mean `mean`: inverse transform of a uniform in
// [0, 1) made of the generator's top 53 bits (std::exponential_distribution
// differs between standard libraries).
Time exponential(std::mt19937_64& random, Time mean) {
  const double uniform = static_cast<double>(random() >> 11) * 0x1.0p-53;
  return -mean * std::log1p(-uniform);
}

}  // namespace

std::vector<NotebookPhase> draw_activity(const NotebookPattern& pattern) {
  std::mt19937_64 random(pattern.seed);
  const Time mean_gap = pattern.burst * (1 - pattern.busy_fraction) / pattern.busy_fraction;
  std::vector<NotebookPhase> activity;
  Time at = 0;
  while (at < pattern.length) {
    NotebookPhase phase;
    phase.idle = std::min(exponential(random, mean_gap), pattern.length - at);
    at += phase.idle;
    phase.busy = std::min(exponential(random, pattern.burst), pattern.length - at);
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
