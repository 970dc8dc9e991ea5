// contention_outputs.hpp: the files and summary figures of `gcsim run
// --contention` (contention_ledger.hpp says how they are counted).
//
//   contention.csv        job, other_job, link, seconds_shared, seconds_lost:
//                         per job, per other job it shared a link with, per
//                         link; the part of the job's loss a link and job
//                         explain. A job's seconds_lost add up to its loss
//                         (its communication time minus the same steps
//                         alone); a row with other_job and link "-" holds
//                         what no link explains.
//   link_utilization.csv  link, time, used: the busiest links' use (the share
//                         of their bandwidth in use) in bins from `time`, as
//                         wide as summary.json's contention.bin_width_s
//   summary.json          "contention": jobs that ran, the shares of them
//                         that lost more than 5% and 20% of the time they ran,
//                         the seconds of communication, alone and lost, and
//                         the links of most seconds lost
//
//   out.stage("contention.csv", [&](std::ostream& f) { write_contention_csv(f, jobs, report); });
#pragma once

#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/job_spec.hpp"
#include "sim/report/contention_ledger.hpp"

namespace gcsim {

/// A job lost more than this share of the time it ran (summary.json).
inline constexpr double kHurtShares[] = {0.05, 0.20};

void write_contention_csv(std::ostream& out, const std::vector<JobSpec>& jobs, const ContentionReport& report);
void write_link_utilization_csv(std::ostream& out, const ContentionReport& report);
/// summary.json's "contention".
nlohmann::ordered_json contention_summary_json(const ContentionReport& report);

}  // namespace gcsim
