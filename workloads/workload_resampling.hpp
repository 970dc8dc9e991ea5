// workload_resampling.hpp: workloads that could have happened, drawn from a
// given one, for planning over their spread (`gcsim plan --sample-workload`).
//
// The given workload is cut into periods (days or weeks) by submit time:
// period k holds the jobs submitted in [k x length, (k+1) x length), from 0
// to the period of the last submission. A sampled workload has as many
// periods, each drawn with replacement from the given ones (a bootstrap of
// periods: the load within a period, its bursts and quiet hours, stays
// whole). The period drawn for place i has its jobs shifted by
// (i - k) x length, and their ids (and study ids) suffixed "@d<i>" ("@w<i>"
// for weeks) so that two copies of one period stay distinct. A dependency
// ("after") on a job of the same period follows that copy; one on a job of
// another period is dropped and counted, since that job may not be drawn.
//
//   ResampledWorkload days = resample_periods(jobs, kDay, 'd', /*seed=*/3);
//   days.periods_drawn;  // which given day each place holds
//   scale_load(days.jobs, 2.0);  // twice the arrival rate
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

inline constexpr Time kDay = 86400;
inline constexpr Time kWeek = 7 * kDay;

/// The periods seed draws: `count` indices in [0, count), with replacement,
/// from PortableRandom(seed) (the same on every platform).
std::vector<std::size_t> drawn_periods(std::size_t count, std::uint64_t seed);

struct ResampledWorkload {
  std::vector<JobSpec> jobs;               // in the order of the places, each period's jobs in the given order
  std::vector<std::size_t> periods_drawn;  // place i holds given period periods_drawn[i]
  std::size_t dependencies_dropped = 0;    // "after" entries naming a job of another period
};

/// A workload drawn from `jobs` by periods of `length` seconds; `tag` marks
/// the ids ('d' for days, 'w' for weeks). Deterministic per seed. Jobs with a
/// negative submit time belong to period 0.
ResampledWorkload resample_periods(const std::vector<JobSpec>& jobs, Time length, char tag, std::uint64_t seed);

/// The arrival rate scaled by `factor` (> 0): every submit time divided by it.
void scale_load(std::vector<JobSpec>& jobs, double factor);

}  // namespace gcsim
