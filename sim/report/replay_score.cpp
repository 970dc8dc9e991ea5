#include "sim/report/replay_score.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "sim/core/sample_comparison.hpp"
#include "sim/core/statistics.hpp"

namespace gcsim {
namespace {

bool scored(const ReplayJob& job) { return !std::isnan(job.recorded_wait) && job.simulated_start != kNever; }

// The groups of most scored jobs, `top` of them, each its scored waits.
template <typename Key>
std::vector<GroupWaitScore> group_scores(const std::vector<ReplayJob>& jobs, Key key, std::size_t top) {
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> groups;
  for (const ReplayJob& job : jobs) {
    if (!scored(job)) continue;
    auto& [simulated, recorded] = groups[key(job)];
    simulated.push_back(job.simulated_start - job.submit);
    recorded.push_back(job.recorded_wait);
  }
  std::vector<GroupWaitScore> scores;
  for (const auto& [name, waits] : groups) scores.push_back({name, score_waits(waits.first, waits.second)});
  std::stable_sort(scores.begin(), scores.end(),
                   [](const GroupWaitScore& a, const GroupWaitScore& b) { return a.score.jobs > b.score.jobs; });
  if (scores.size() > top) scores.resize(top);
  return scores;
}

// Both GPU series as one step series: at each time either changes, both values from then on.
std::vector<GpuStep> gpu_steps(const std::vector<ReplayJob>& jobs, const std::vector<TimelinePoint>& timeline) {
  std::map<Time, double> recorded_change;
  for (const ReplayJob& job : jobs) {
    if (std::isnan(job.recorded_wait) || !(job.recorded_run > 0)) continue;
    const Time start = job.submit + job.recorded_wait;
    recorded_change[start] += job.gpus;
    recorded_change[start + job.recorded_run] -= job.gpus;
  }
  std::vector<Time> times;
  for (const TimelinePoint& point : timeline) times.push_back(point.time);
  for (const auto& [time, change] : recorded_change) times.push_back(time);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  std::vector<GpuStep> steps;
  std::size_t next_point = 0;
  auto next_change = recorded_change.begin();
  double simulated = 0, recorded = 0;
  for (const Time time : times) {
    while (next_point < timeline.size() && timeline[next_point].time <= time)
      simulated = timeline[next_point++].allocated;
    while (next_change != recorded_change.end() && next_change->first <= time) recorded += (next_change++)->second;
    // Sums of shares: a difference below a millionth of a GPU is rounding.
    if (std::fabs(recorded) < 1e-6) recorded = 0;
    // A time at which neither changes (one job ended as another began) is no step.
    if (!steps.empty() && steps.back().simulated == simulated && steps.back().recorded == recorded) continue;
    steps.push_back({time, simulated, recorded});
  }
  return steps;
}

}  // namespace

WaitScore score_waits(const std::vector<double>& simulated, const std::vector<double>& recorded) {
  WaitScore score;
  score.jobs = simulated.size();
  if (simulated.empty()) return score;
  const Distribution simulated_waits = summarize(simulated), recorded_waits = summarize(recorded);
  score.mean_simulated = simulated_waits.mean;
  score.mean_recorded = recorded_waits.mean;
  score.median_simulated = simulated_waits.p50;
  score.median_recorded = recorded_waits.p50;
  score.mean_relative_error = relative_error(score.mean_simulated, score.mean_recorded);
  score.median_relative_error = relative_error(score.median_simulated, score.median_recorded);
  std::vector<double> errors(simulated.size());
  for (std::size_t i = 0; i < simulated.size(); ++i) errors[i] = std::fabs(simulated[i] - recorded[i]);
  score.within_60s = share_at_most(errors, 60);
  std::sort(errors.begin(), errors.end());
  score.abs_error_p50 = percentile_of_sorted(errors, 50);
  score.abs_error_p90 = percentile_of_sorted(errors, 90);
  score.abs_error_p99 = percentile_of_sorted(errors, 99);
  score.ks = ks_distance(simulated, recorded);
  return score;
}

ReplayScore score_replay(const std::vector<ReplayJob>& jobs, const std::vector<TimelinePoint>& timeline,
                         std::size_t top) {
  ReplayScore score;
  score.jobs = jobs.size();
  std::vector<double> simulated, recorded;
  for (const ReplayJob& job : jobs) {
    if (std::isnan(job.recorded_wait)) {
      ++score.without_recorded_start;
    } else if (job.simulated_start == kNever) {
      ++score.not_started;
    } else {
      simulated.push_back(job.simulated_start - job.submit);
      recorded.push_back(job.recorded_wait);
    }
  }
  score.all = score_waits(simulated, recorded);
  score.queues = group_scores(
      jobs, [](const ReplayJob& job) { return job.queue; }, top);
  score.users = group_scores(
      jobs, [](const ReplayJob& job) { return job.user; }, top);
  score.gpus = gpu_steps(jobs, timeline);
  if (score.gpus.size() > 1) {
    double simulated_area = 0, recorded_area = 0;
    for (std::size_t i = 0; i + 1 < score.gpus.size(); ++i) {
      const double width = score.gpus[i + 1].time - score.gpus[i].time;
      simulated_area += score.gpus[i].simulated * width;
      recorded_area += score.gpus[i].recorded * width;
    }
    const double span = score.gpus.back().time - score.gpus.front().time;
    if (span > 0) {
      score.mean_gpus_simulated = simulated_area / span;
      score.mean_gpus_recorded = recorded_area / span;
    }
  }
  return score;
}

}  // namespace gcsim
