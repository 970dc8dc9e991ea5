#include "sim/report/qos_metrics.hpp"

#include <algorithm>

#include "sim/core/work_forms.hpp"

namespace gcsim {

bool workload_has_spot_jobs(const std::vector<JobSpec>& jobs) {
  return std::any_of(jobs.begin(), jobs.end(), [](const JobSpec& job) { return is_spot(job); });
}

QosMetrics compute_qos_metrics(const std::vector<JobSpec>& jobs, const RunRecord& record) {
  QosMetrics m;
  Time jct[2] = {0, 0}, wait[2] = {0, 0};
  std::size_t timed[2] = {0, 0};
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const bool spot = is_spot(jobs[i]);
    QosClassMetrics& c = spot ? m.spot : m.guaranteed;
    const JobOutcome& o = record.outcomes[i];
    ++c.jobs;
    c.preemptions += o.preemptions;
    if (o.preemptions > 0) ++c.preempted_jobs;
    if (o.state != JobState::kFinished) continue;
    ++c.finished;
    // A serving replica completes nothing: the means leave it out, as the JCT figures do.
    if (replica_of(jobs[i].work)) continue;
    ++timed[spot];
    const Time queued = o.queued_from(jobs[i].submit);
    jct[spot] += o.end - queued;
    wait[spot] += o.start - queued;
  }
  for (const bool spot : {false, true}) {
    QosClassMetrics& c = spot ? m.spot : m.guaranteed;
    if (timed[spot] == 0) continue;
    c.jct_mean_s = jct[spot] / static_cast<double>(timed[spot]);
    c.queueing_delay_mean_s = wait[spot] / static_cast<double>(timed[spot]);
  }
  return m;
}

}  // namespace gcsim
