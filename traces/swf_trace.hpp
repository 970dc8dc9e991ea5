// swf_trace.hpp: the Standard Workload Format of the Parallel Workloads
// Archive (PWA), read into gcsim jobs and written from them.
//
// Lines starting with ';' are header comments ("; MaxProcs: 128",
// "; Queue: 0 interactive", "; UnixStartTime: 749458803"); every other
// non-blank line is one job of 18 whitespace-separated fields (not CSV: no
// quoting), -1 = unknown:
//
//   1 job number   2 submit (s)   3 wait (s)   4 run time (s)   5 allocated processors
//   6 average CPU time   7 used memory   8 requested processors   9 requested time (s)
//   10 requested memory   11 status   12 user   13 group   14 executable   15 queue
//   16 partition   17 preceding job   18 think time
//
// Column mapping:
//   1  -> id "swf-<job number>" (a number used twice by full job lines is malformed)
//   2  -> submit: seconds since the log's UnixStartTime, kept as they are
//         unless TraceReadOptions::time_origin says otherwise
//   4  -> the run time of MeasuredWork (-1 or 0: not replayable; other negatives malformed)
//   5  -> gpus = ceil(processors / procs_per_gpu), falling back to field 8 when
//         field 5 is -1 (both -1: not replayable; 0 or other negatives: malformed)
//   9  -> runtime_estimate, when > 0
//   11 -> status: 1 completed, 0 failed, 5 cancelled, -1 unknown; 2, 3 and 4 mark
//         partial executions of checkpointed or swapped jobs, whose summary line
//         carries the whole run, so they are skipped (not replayable); any other
//         value is malformed
//   12 -> user (its name from a "; Note: user N = name" header line, as gcsim's
//         writer names users, else the number as text; -1 "unknown")
//   15 -> queue (its name from a "; Queue: N name" header line, else the number;
//         -1 "unknown")
// Header MaxProcs (else MaxNodes) / procs_per_gpu gives the traced machine's
// GPUs, the default capacity for offered load.
//
// What the trace lacks, and what gcsim assumes instead: SWF logs come from
// CPU machines, so a stated ratio of processors per GPU (procs_per_gpu,
// default 1) turns processors into GPUs, and run times are taken as measured
// on TraceReadOptions::gpu_type; the recorded wait time (field 3) is not
// used, since gcsim simulates queueing itself; CPU time, memory, group,
// executable, partition and dependencies (fields 6, 7, 10, 13, 14, 16-18) are
// not modelled.
//
// The writer emits what both formats hold: job number, submit, run time,
// processors (GPUs x procs_per_gpu, also as the request), requested time,
// status, user and queue, with the header lines above (MaxProcs only when
// the machine's size is known). Job numbers are N
// when every id is "swf-N", else 1, 2, ... in submit order; users and queues
// whose names are not numbers are numbered in order of first appearance
// ("; Queue: N name" lines name the queues, "; Note: user N = name" lines the
// users), so reading the file back restores every name. Status is -1 unless
// statuses are given. Only measured-duration jobs on one GPU type can be written: SWF has
// neither training work nor per-job GPU types.
//
//   TraceReadOptions options;
//   options.procs_per_gpu = 4;
//   TraceReadResult trace = read_swf_trace("NASA-iPSC-1993-3.1-cln.swf", options);
//   write_file_atomically("copy.swf", swf_text(trace.jobs, {}));
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "traces/trace_read.hpp"

namespace gcsim {

TraceReadResult read_swf_trace(const std::string& path, const TraceReadOptions& options);
TraceReadResult parse_swf_trace(std::istream& in, const std::string& file_label, const TraceReadOptions& options);

struct SwfWriteOptions {
  /// Processors per GPU, a whole number >= 1.
  std::uint32_t procs_per_gpu = 1;
  /// Parallel to the jobs, or empty: statuses as a trace writes them
  /// ("COMPLETED", "Terminated", "failed", ...), mapped to SWF's 1, 0, 5 or -1.
  std::vector<std::string> job_status;
  /// "; Computer:" header line.
  std::string computer = "gcsim workload";
  /// GPUs of the machine the jobs ran on, written as "; MaxProcs:" (times
  /// procs_per_gpu); unset: no MaxProcs line.
  std::optional<std::uint64_t> machine_gpus;
};

/// The jobs as an SWF log, in submit order. Throws InputError naming the job
/// ("jobs[i] (id 'x')") for a training or DAG job, a job sharing GPUs
/// (gpu_share < 1) or a second GPU type.
std::string swf_text(const std::vector<JobSpec>& jobs, const SwfWriteOptions& options);

}  // namespace gcsim
