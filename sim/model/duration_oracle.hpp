// duration_oracle.hpp: how long a job would run alone on an empty cluster.
//
// Policies that need durations (shortest-remaining-time-first as a lower
// bound, backfilling without user estimates) read this figure. It assumes
// the best case a packing placement gets: the fastest GPU type with enough
// memory, all GPUs in one node when the job fits in one, else in as few
// racks as possible (full racks, and pods, of that type's nodes), in GPU
// order, and no other job on its links. On a fabric of one NIC per node in
// one pod it is a closed form; with NICs per GPU (rails) or pods the packed
// placement's routes are worked out link by link (sim/core/fabric_route.hpp),
// as the engine runs them. Contention makes real runs longer, never shorter.
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
