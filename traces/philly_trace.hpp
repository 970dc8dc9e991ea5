// philly_trace.hpp: the Microsoft Philly job log in its derived per-job CSV
// form (as published with the Pollux artifact, philly.csv). read_philly_trace
// also reads the raw JSON job log (philly_job_log.hpp), told apart by its
// first character ('[').
//
//   timestamp,duration,num_gpus,gpu_time,cluster
//   2017-10-09 07:01:55,66.0,1,66.0,11cb48
//
// Column mapping (columns are found by header name, in any order):
//   timestamp -> submit    calendar time, rows need not be sorted; jobs are
//                          sorted by it and made relative to the earliest one
//                          (or to TraceReadOptions::time_origin)
//   duration  -> the run time (seconds, > 0) of MeasuredWork
//   num_gpus  -> gpus      (an integer >= 1; 0 is malformed: the file holds GPU jobs only)
//   gpu_time  -> checked:  must equal duration x num_gpus, else the row is malformed
//   cluster   -> queue     (the Philly virtual cluster, VC)
//   (line N)  -> id "philly-N"
//
// What the trace lacks, and what gcsim assumes instead:
//   - users: every job belongs to user "unknown";
//   - the GPU type: run times are taken as measured on TraceReadOptions::gpu_type;
//   - status, start and end times and retries: the derived file dropped them,
//     so every job is replayed with its whole recorded run time, failed or not,
//     and no job status is reported;
//   - time zone: none is applied (the raw log has none either).
// Blank lines (the file ends with one) are not rows.
//
//   TraceReadResult trace = read_philly_trace("philly_jobs_pollux.csv", {});
#pragma once

#include <istream>
#include <string>

#include "traces/trace_read.hpp"

namespace gcsim {

TraceReadResult read_philly_trace(const std::string& path, const TraceReadOptions& options);
/// The same from a stream; `file_label` names it in skipped rows and errors.
TraceReadResult parse_philly_trace(std::istream& in, const std::string& file_label, const TraceReadOptions& options);

}  // namespace gcsim
