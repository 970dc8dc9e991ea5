#include "sim/report/run_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/core/work_forms.hpp"

namespace gcsim {

RunMetrics compute_run_metrics(const std::vector<JobSpec>& jobs, const RunRecord& record) {
  RunMetrics m;
  m.jobs = jobs.size();
  std::vector<double> jct, wait;
  std::vector<double> jct_censored, wait_censored;  // the finished jobs' and those cut by the stop
  const Time stop = record.simulated_time;
  bool any_end = false;
  m.first_submit = jobs.empty() ? 0 : kNever;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const JobOutcome& o = record.outcomes[i];
    m.first_submit = std::min(m.first_submit, jobs[i].submit);
    m.preemptions += o.preemptions;
    switch (o.state) {
      case JobState::kFinished:
        ++m.finished;
        // A serving replica completes nothing: its deployment's latency
        // (RunRecord::serving) says how it did, not the time it held GPUs.
        if (!replica_of(jobs[i].work)) {
          jct.push_back(o.end - o.queued_from(jobs[i].submit));
          wait.push_back(o.start - o.queued_from(jobs[i].submit));
        }
        m.last_end = any_end ? std::max(m.last_end, o.end) : o.end;
        any_end = true;
        break;
      case JobState::kFailed:
        ++m.failed;
        if (o.end != kNever) {
          m.last_end = any_end ? std::max(m.last_end, o.end) : o.end;
          any_end = true;
        }
        break;
      default:
        ++m.unfinished;
        if (o.submitted != kNever && o.submitted <= stop && !replica_of(jobs[i].work)) {
          ++m.censored;
          jct_censored.push_back(stop - o.submitted);
          wait_censored.push_back((o.start != kNever && o.start <= stop ? o.start : stop) - o.submitted);
        }
    }
  }
  m.restarts_from_zero = record.restarts_from_zero;
  m.gpu_hours_lost = record.lost_gpu_seconds / 3600.0;
  // Runs are held at least as long as they lose; rounding aside.
  m.gpu_hours_useful = std::max(0.0, record.run_gpu_seconds - record.lost_gpu_seconds) / 3600.0;
  const double ran = m.gpu_hours_lost + m.gpu_hours_useful;
  m.lost_share = ran > 0 ? m.gpu_hours_lost / ran : 0;
  if (!any_end) m.last_end = record.simulated_time;
  m.makespan = std::max(0.0, m.last_end - m.first_submit);
  jct_censored.insert(jct_censored.end(), jct.begin(), jct.end());
  wait_censored.insert(wait_censored.end(), wait.begin(), wait.end());
  m.jct = summarize(std::move(jct));
  m.wait = summarize(std::move(wait));
  m.jct_censored = summarize(std::move(jct_censored));
  m.wait_censored = summarize(std::move(wait_censored));

  // Integrate the step functions of the timeline over [first_submit, last_end].
  double allocated_s = 0, busy_s = 0;
  for (std::size_t i = 0; i < record.timeline.size(); ++i) {
    const Time from = std::max(record.timeline[i].time, m.first_submit);
    const Time to = std::min(i + 1 < record.timeline.size() ? record.timeline[i + 1].time : m.last_end, m.last_end);
    if (to <= from) continue;
    allocated_s += record.timeline[i].allocated * (to - from);
    busy_s += record.timeline[i].busy * (to - from);
  }
  m.gpu_hours_allocated = allocated_s / 3600.0;
  m.gpu_hours_busy = busy_s / 3600.0;
  const double capacity = static_cast<double>(record.total_gpus) * m.makespan;
  m.allocated_share = capacity > 0 ? allocated_s / capacity : 0;
  m.busy_share = capacity > 0 ? busy_s / capacity : 0;
  return m;
}

}  // namespace gcsim
