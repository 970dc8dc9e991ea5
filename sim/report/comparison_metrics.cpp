#include "sim/report/comparison_metrics.hpp"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <map>

namespace gcsim {

std::optional<double> slowdown(const FinishedJobTimes& job) {
  if (!(job.uncontended > 0) || job.uncontended == kNever) return std::nullopt;
  return job.jct / job.uncontended;
}

SlowdownSummary summarize_slowdowns(const std::vector<FinishedJobTimes>& jobs) {
  SlowdownSummary s;
  double sum = 0;
  for (const FinishedJobTimes& job : jobs) {
    const auto x = slowdown(job);
    if (!x) continue;
    s.max = s.count == 0 ? *x : std::max(s.max, *x);
    sum += *x;
    ++s.count;
  }
  s.mean = s.count > 0 ? sum / static_cast<double>(s.count) : 0;
  return s;
}

std::map<std::string, double> mean_slowdown_by_user(const std::vector<FinishedJobTimes>& jobs) {
  std::map<std::string, std::pair<double, std::size_t>> sums;
  for (const FinishedJobTimes& job : jobs)
    if (const auto x = slowdown(job)) {
      auto& [sum, count] = sums[job.user];
      sum += *x;
      ++count;
    }
  std::map<std::string, double> means;
  for (const auto& [user, sum_count] : sums) means[user] = sum_count.first / static_cast<double>(sum_count.second);
  return means;
}

std::vector<double> user_values(const std::map<std::string, double>& by_user) {
  std::vector<double> values;
  values.reserve(by_user.size());
  for (const auto& [user, value] : by_user) values.push_back(value);
  return values;
}

std::optional<double> jain_index(const std::vector<double>& values) {
  double sum = 0, sum_of_squares = 0;
  for (double x : values) {
    sum += x;
    sum_of_squares += x * x;
  }
  // One value is always "fair" (x^2 / x^2 = 1): fairness needs two to compare.
  if (values.size() < 2 || sum_of_squares == 0) return std::nullopt;
  return sum * sum / (static_cast<double>(values.size()) * sum_of_squares);
}

double fragmentation_share(const std::vector<TimelinePoint>& timeline, std::size_t total_gpus, Time from, Time to) {
  if (total_gpus == 0 || !(to > from)) return 0;
  double idle_while_waiting = 0;  // GPU-seconds
  for (std::size_t i = 0; i < timeline.size(); ++i) {
    const TimelinePoint& p = timeline[i];
    if (p.queued == 0) continue;
    const Time begin = std::max(p.time, from);
    const Time end = std::min(i + 1 < timeline.size() ? timeline[i + 1].time : to, to);
    if (end <= begin) continue;
    const double free_gpus = static_cast<double>(total_gpus) - std::min<double>(p.allocated, total_gpus);
    idle_while_waiting += free_gpus * (end - begin);
  }
  return idle_while_waiting / (static_cast<double>(total_gpus) * (to - from));
}

std::vector<QueueAttainment> guarantee_attainment(const std::vector<QueueGuarantee>& queues,
                                                  const std::vector<QueueJobSpan>& jobs, Time until) {
  // Per queue, the changes of demand and allocation at each instant, in time order.
  struct Change {
    double demand = 0, allocated = 0;
  };
  assert(until != kNever && "attainment is taken up to the end of a run");
  std::vector<std::map<Time, Change>> changes(queues.size());
  for (const QueueJobSpan& job : jobs) {
    assert(job.queue < queues.size() && "every job's queue indexes the guarantees");
    const double gpus = job.gpus;
    const Time end = std::min(job.end, until);
    if (!(job.submit < end)) continue;
    auto& at = changes[job.queue];
    at[job.submit].demand += gpus;
    at[end].demand -= gpus;
    if (const Time start = std::max(job.start, job.submit); start < end) {  // kNever: never started
      at[start].allocated += gpus;
      at[end].allocated -= gpus;
    }
  }

  std::vector<QueueAttainment> out;
  out.reserve(queues.size());
  for (std::size_t q = 0; q < queues.size(); ++q) {
    QueueAttainment a{queues[q].queue, queues[q].gpus, 0, std::nullopt};
    double demand = 0, allocated = 0, attained = 0;  // attained: integral of the ratio
    for (auto it = changes[q].begin(); it != changes[q].end(); ++it) {
      demand += it->second.demand;
      allocated += it->second.allocated;
      const auto next = std::next(it);
      const Time length = (next == changes[q].end() ? until : next->first) - it->first;  // the last holds until `until`
      if (!(demand > 0) || !(length > 0)) continue;
      const double owed = std::min(demand, a.guaranteed_gpus);
      a.demand_time += length;
      attained += length * (owed > 0 ? std::min(1.0, allocated / owed) : 1.0);
    }
    if (a.demand_time > 0) a.attainment = attained / a.demand_time;
    out.push_back(std::move(a));
  }
  return out;
}

std::optional<double> minimum_attainment(const std::vector<QueueAttainment>& queues) {
  std::optional<double> least;
  for (const QueueAttainment& q : queues)
    if (q.attainment) least = least ? std::min(*least, *q.attainment) : *q.attainment;
  return least;
}

}  // namespace gcsim
