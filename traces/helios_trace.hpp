// helios_trace.hpp: SenseTime Helios job logs (cluster_log.csv of the
// HeliosData release: Venus, Earth, Saturn, Uranus), one row per Slurm job.
//
//   job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue
//   1425512,uVMrF,vchbv,4,16,1,FAILED,2020-06-09 18:41:27,2020-06-09 18:41:27,2020-06-09 18:45:36,249,0
//
// Column mapping (found by header name, in any order; duration, queue,
// cpu_num and node_num may be absent):
//   job_id      -> id (used twice: malformed)
//   user        -> user
//   vc          -> queue (the virtual cluster)
//   gpu_num     -> gpus (an integer; 0 marks a CPU job, skipped as not replayable)
//   cpu_num     -> cpu_cores
//   state       -> the job's status (COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL)
//   submit_time -> submit (calendar time, or a number of seconds), made relative
//                  to the earliest submission or TraceReadOptions::time_origin;
//                  each time column holds one of the two: a value in the other
//                  format than its first is malformed (mixed time formats)
//   start_time, end_time -> the run time end - start of MeasuredWork (an empty
//                  start: never started, not replayable; an empty end: still
//                  running when the log was cut, censored, ending at the log's
//                  last time (trace_read.hpp); end before start, start before
//                  submit, a negative submit: malformed)
//   duration, queue, node_num -> not used: duration and queue are end - start
//                  and start - submit by definition, and gcsim simulates
//                  queueing and placement itself
//
// What the trace lacks, and what gcsim assumes instead: the GPU type (run
// times are taken as measured on TraceReadOptions::gpu_type; Helios clusters
// are mostly V100 and some 1080Ti) and the time zone (none applied). Jobs are
// replayed with their whole recorded run time whatever their state: a
// cancelled or failed job held its GPUs that long.
//
//   TraceReadResult trace = read_helios_trace("Venus/cluster_log.csv", {});
#pragma once

#include <istream>
#include <string>

#include "traces/trace_read.hpp"

namespace gcsim {

TraceReadResult read_helios_trace(const std::string& path, const TraceReadOptions& options);
TraceReadResult parse_helios_trace(std::istream& in, const std::string& file_label, const TraceReadOptions& options);

}  // namespace gcsim
