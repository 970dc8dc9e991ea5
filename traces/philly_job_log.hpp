// philly_job_log.hpp: the raw Microsoft Philly job log (msr-fiddle/philly-traces
// `cluster_job_log`), a JSON array of jobs, each with its scheduling attempts.
//
//   [{"status": "Pass", "vc": "6214e9", "jobid": "application_1506638472019_10238",
//     "user": "b5a2b4", "submitted_time": "2017-10-03 00:51:41",
//     "attempts": [{"start_time": "2017-10-03 00:51:47", "end_time": "2017-10-03 01:46:17",
//                   "detail": [{"ip": "m123", "gpus": ["gpu0", "gpu1"]}]}]}, ...]
//
// Mapping:
//   jobid          -> id (else "philly-<line>")
//   user           -> user
//   vc             -> queue (the virtual cluster)
//   submitted_time -> submit (calendar time, zone unknown; made relative to the
//                     earliest submission like every calendar-clock trace)
//   status         -> the job's status as written (Pass, Killed, Failed, ...)
//   attempts       -> the run time: the sum over attempts of end_time - start_time,
//                     the time the job held GPUs (a retried job's failed
//                     attempts used GPUs too); the GPU count: the GPUs of the
//                     last attempt that lists machines (every machine's "gpus").
//                     The number of jobs with more than one attempt is reported.
// Censored (trace_read.hpp): a job whose last attempt has a start and no end
// time ("None": still running when the log was cut); that attempt runs to the
// log's last recorded time. Not replayable: a job with no attempt (it never
// ran), one whose last attempt has no start time, a run time of 0 s, no GPUs
// in any attempt's detail. Malformed: a job that is not an object, a missing
// or malformed date, a first attempt starting before the submission, an
// attempt ending before it started, attempts or gpus that are not arrays.
// Each is reported with the line the job's object starts on.
//
// The log does not name GPU types: run times are taken as measured on
// TraceReadOptions::gpu_type.
//
//   TraceReadResult trace = parse_philly_job_log(text, "cluster_job_log", {});
#pragma once

#include <string>

#include "traces/trace_read.hpp"

namespace gcsim {

TraceReadResult parse_philly_job_log(const std::string& text, const std::string& file_label,
                                     const TraceReadOptions& options);

/// True when `text` looks like the raw JSON log (its first non-blank character opens an array).
bool looks_like_philly_job_log(const std::string& text);

}  // namespace gcsim
