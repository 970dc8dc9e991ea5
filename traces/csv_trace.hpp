// csv_trace.hpp: any job log in CSV with a header line, read through a
// column mapping (TraceReadOptions::columns), for traces gcsim has no
// dedicated reader for.
//
//   gcsim trace stats jobs.csv --format csv --time-unit ms
//     --map submit=submission_time,gpus=num_gpu,duration=duration,user=user_name
//
// Properties a mapping may name (the value is the header name of the column):
//   submit    (required) submission time: a calendar time "YYYY-MM-DD HH:MM:SS"
//             or a number of time units; made relative to the earliest
//             submission or to TraceReadOptions::time_origin
//   gpus      (required) GPUs the job used: a number >= 0; below 1, the
//             share of one GPU it held (JobSpec::gpu_share); above, a
//             fraction is rounded up; 0 marks a CPU job (skipped as not
//             replayable)
//   duration  the run time, in time units ...
//   start, end  ... or the start and end times, run time = end - start
//             (one of the two is required; duration wins when both are mapped)
//   id        job id (default "csv-<line>"); an id used twice is malformed
//   user, queue, status   (default "unknown", "unknown", none)
//   gpu_type  the GPU type the run time was measured on (default, and for
//             empty fields, TraceReadOptions::gpu_type)
//   estimate  the user's run time estimate, in time units
//   job_type  the job's model, for sizing its work from a throughput table
//             (throughput_work.hpp, `--trace-opt work=throughput:...`)
//   cpu, memory   host cores and memory of the whole job, split over its
//             GPUs per node (sim/core/node_fit.hpp); memory in bytes or as a
//             quantity ("16GB")
//   gpu_memory    GPU memory per GPU, bytes or a quantity
//   share     the share of each GPU the job uses, in (0, 1] (JobSpec::gpu_share)
//   gpu_types the GPU types the job may run on, "V100|A100" (node selectors)
//   single_node   true/false, 1/0, yes/no: all its GPUs on one node (a pod)
// Time units: TraceReadOptions::time_unit_s seconds per unit (numbers only;
// calendar times are always seconds). Separator: TraceReadOptions::delimiter.
// A quoted field may hold the separator, quotes and line breaks (a job of
// several lines is named by its first). The submit, start and end columns
// each hold calendar times or numbers: a value in the other format than the
// column's first is malformed ("mixed time formats in one column").
//
// What the trace lacks is whatever the mapping leaves out; the defaults
// above are what gcsim assumes instead, and the result lists them.
//
//   TraceReadOptions options;
//   options.columns = {{"submit", "submission_time"}, {"gpus", "num_gpu"}, {"duration", "duration"}};
//   TraceReadResult trace = read_csv_trace("jobs.csv", options);
#pragma once

#include <istream>
#include <map>
#include <string>
#include <vector>

#include "traces/trace_read.hpp"

namespace gcsim {

/// The properties a column mapping may name, in documentation order.
const std::vector<std::string>& csv_trace_properties();

/// Parses "submit=submission_time,gpus=num_gpu": throws std::invalid_argument
/// naming an unknown property, a missing '=' or a property given twice.
std::map<std::string, std::string> parse_csv_column_map(const std::string& text);

/// Throws std::invalid_argument when the mapping lacks submit, gpus, or a
/// run time (duration, or start and end).
TraceReadResult read_csv_trace(const std::string& path, const TraceReadOptions& options);
TraceReadResult parse_csv_trace(std::istream& in, const std::string& file_label, const TraceReadOptions& options);

}  // namespace gcsim
