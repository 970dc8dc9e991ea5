// notebook_metrics.hpp: what interactive notebooks held and used.
//
// A notebook holds its GPUs from its start to the end of its session and
// keeps them busy only in its bursts (NotebookWork). Over the finished holds
// (a preempted notebook starts its session over, so its last run is the
// one that counts; what earlier runs held is in the preemptions' lost
// GPU-hours): GPU-hours held, busy and idle, each hold's GPUs x share. With
// an idle timeout a session is several holds: the later ones were released
// and had to queue again when their next burst came, and their waits are
// the price of giving the GPUs back.
//
//   NotebookMetrics n = compute_notebook_metrics(jobs, record);
//   if (n.sessions > 0) ... n.idle_gpu_hours ...
#pragma once

#include <cstddef>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

struct NotebookMetrics {
  std::size_t sessions = 0;  // notebooks in the workload (their first holds)
  std::size_t holds = 0;     // holds of GPUs, all sessions together
  std::size_t finished_holds = 0;
  double held_gpu_hours = 0, busy_gpu_hours = 0, idle_gpu_hours = 0;  // finished holds
  std::size_t requeued = 0;  // holds after the first that started: queued again after a release
  Time requeue_wait_mean_s = 0, requeue_wait_max_s = 0;
};

NotebookMetrics compute_notebook_metrics(const std::vector<JobSpec>& jobs, const RunRecord& record);

}  // namespace gcsim
