// qos_metrics.hpp: what each QoS class of jobs (JobSpec::qos: guaranteed or
// spot) got: how many, how many finished, how often they were preempted,
// and their mean completion time and queueing delay, so that a run shows
// what spot jobs paid for the guaranteed jobs' preemptions.
//
// Means are over the class's finished jobs but serving replicas, which
// complete nothing (0 when none finished), each
// counted from when it joined the queue; a job's queueing delay runs to its
// first start, as jobs.csv's `wait`. A workload without spot jobs has no
// figures here (workload_has_spot_jobs).
//
//   if (workload_has_spot_jobs(jobs)) QosMetrics q = compute_qos_metrics(jobs, record);
#pragma once

#include <cstddef>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

struct QosClassMetrics {
  std::size_t jobs = 0, finished = 0;
  std::size_t preempted_jobs = 0;  // preempted at least once
  std::size_t preemptions = 0;
  Time jct_mean_s = 0, queueing_delay_mean_s = 0;  // over the finished jobs, serving replicas left out
};

struct QosMetrics {
  QosClassMetrics guaranteed, spot;
};

bool workload_has_spot_jobs(const std::vector<JobSpec>& jobs);

QosMetrics compute_qos_metrics(const std::vector<JobSpec>& jobs, const RunRecord& record);

}  // namespace gcsim
