// duration_oracle.hpp: how long a job would run alone on an empty cluster.
//
// Policies that need durations (shortest-remaining-time-first as a lower
// bound, backfilling without user estimates) read this figure. It assumes
// the best case a packing placement gets: the fastest GPU type with enough
// memory, all GPUs in one node when the job fits in one, else in as few
// racks as possible, and no other job on its links. Contention makes real
// runs longer, never shorter.
//
//   Time t = uncontended_duration(job, layout);
#pragma once

#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

Time uncontended_duration(const JobSpec& job, const ClusterLayout& layout);

/// uncontended_duration() of every job, in workload order.
std::vector<Time> uncontended_durations(const std::vector<JobSpec>& jobs, const ClusterLayout& layout);

}  // namespace gcsim
