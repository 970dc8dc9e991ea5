#include "sim/report/notebook_metrics.hpp"

#include <algorithm>

#include "sim/core/work_forms.hpp"

namespace gcsim {

NotebookMetrics compute_notebook_metrics(const std::vector<JobSpec>& jobs, const RunRecord& record) {
  NotebookMetrics m;
  double held_gpu_seconds = 0, busy_gpu_seconds = 0, waited = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const NotebookWork* notebook = notebook_of(jobs[i].work);
    if (!notebook) continue;
    ++m.holds;
    if (notebook->hold == 1) ++m.sessions;
    const JobOutcome& o = record.outcomes[i];
    const double gpus = jobs[i].gpus * jobs[i].gpu_share;
    if (o.state == JobState::kFinished) {
      ++m.finished_holds;
      // Its last run held the GPUs for its whole session.
      held_gpu_seconds += notebook->seconds() * gpus;
      busy_gpu_seconds += notebook->busy_seconds() * gpus;
    }
    if (notebook->hold > 1 && o.start != kNever) {
      ++m.requeued;
      const Time wait = o.start - o.queued_from(jobs[i].submit);
      waited += wait;
      m.requeue_wait_max_s = std::max(m.requeue_wait_max_s, wait);
    }
  }
  m.held_gpu_hours = held_gpu_seconds / 3600;
  m.busy_gpu_hours = busy_gpu_seconds / 3600;
  m.idle_gpu_hours = (held_gpu_seconds - busy_gpu_seconds) / 3600;
  m.requeue_wait_mean_s = m.requeued > 0 ? waited / static_cast<double>(m.requeued) : 0;
  return m;
}

}  // namespace gcsim
