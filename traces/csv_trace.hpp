// csv_trace.hpp: any job log in CSV with a header line, read through a
// column mapping (TraceReadOptions::columns), for traces gcsim has no
// dedicated reader for.
//
//   gcsim trace stats jobs.csv --format csv --time-unit ms
//     --map submit=submission_time,gpus=num_gpu,duration=duration,user=user_name
//
// Properties a mapping may name (the value is the header name of the column,
// for cpu, memory, gpu_memory, share and disk optionally followed by ":UNIT"):
//   submit    (required) submission time: a calendar time "YYYY-MM-DD HH:MM:SS"
//             or a number of time units (below 0: malformed); made relative
//             to the earliest submission or to TraceReadOptions::time_origin.
//             Empty: submitted before the trace's window began (censored,
//             below) where the row has a start or end, else not replayable
//   gpus      (required) GPUs the job used: a number >= 0; below 1, the
//             share of one GPU it held (JobSpec::gpu_share); above, a
//             fraction is rounded up; 0 marks a CPU job (skipped as not
//             replayable)
//   duration  the run time, in time units ...
//   start, end  ... or the start and end times, run time = end - start
//             (one of the two is required; duration wins when both are
//             mapped). A start before the submission is malformed; an empty
//             start with a submission: never started (not replayable); an
//             empty end: still running when the log was cut (censored)
//   id        job id (default "csv-<line>"); an id used twice is malformed
//   user, queue, status   (default "unknown", "unknown", none)
//   gpu_type  the GPU type the run time was measured on (default, and for
//             empty fields, TraceReadOptions::gpu_type)
//   estimate  the user's run time estimate, in time units
//   job_type  the job's model, for sizing its work from a throughput table
//             (throughput_work.hpp, `--trace-opt work=throughput:...`)
//   cpu       host cores of the whole job: plain numbers in cores, or in
//             millicores with cpu_unit=millicores or "cpu=COL:millicores";
//             "500m" is millicores in any case
//   memory    host memory of the whole job; cpu and memory are split over
//             its GPUs per node (sim/core/node_fit.hpp)
//   gpu_memory    GPU memory per GPU
//             Memory fields with their own unit ("16GB", "16GiB", "16Gi",
//             "16G") need no other; a plain number needs the column's unit,
//             "memory=COL:GiB" or memory_unit (gpu_memory_unit), one of B,
//             KB, MB, GB, TB, KiB, MiB, GiB, TiB: without one the read fails
//             (InputError naming the line and column, in every mode)
//   share     the share of each GPU the job uses, in (0, 1] (JobSpec::gpu_share);
//             "share=COL:percent" or "share=COL:milli" reads 50 or 500 as a half
//             (the default unit is "fraction"); ignored on a row of 0 GPUs
//   gpu_types the GPU types the job may run on, "V100|A100" (node selectors)
//   single_node   true/false, 1/0, yes/no: all its GPUs on one node (a pod)
//   priority  an integer (larger is more important), or a level named by
//             TraceReadOptions::priority_levels (`--trace-opt
//             priority_levels=low=0,high=10`); empty: 0
//   qos       the job's QoS class: a value of TraceReadOptions::spot_values
//             makes a spot job, one of guaranteed_values (or an empty field)
//             a guaranteed one, ignoring case (trace_qos.hpp gives the
//             defaults: BE, BestEffort, Spot, ... spot; LS, Burstable,
//             Guaranteed, ... guaranteed); any other value is malformed
// Kubernetes placement constraints (sim/core/node_fit.hpp), as Alibaba's 2025
// GPU-disaggregated DLRM trace gives them:
//   rdma      the job's share of the nodes' RDMA NICs in whole percent of one
//             RNIC (rdma_request: 25 is a quarter of one); empty: 0
//   disk      host disk of the whole job, a memory-like amount: "680Gi", or a
//             plain number with the mapping's unit, "disk=COL:GiB" (no setting
//             declares it; without a unit the read fails, naming line and column)
//   role      the node role it runs on, CN or HN (node_role.hpp); empty: any
//   application   the application it belongs to (app_name); empty: none
//   max_per_node  at most this many jobs of its application on a node
//             (max_instance_per_node, anti_affinity.hpp); empty or -1: no
//             limit of its own; needs the application column mapped
//   Any other value (a negative or fractional percent, an unknown role, a
//   limit of 0 or below -1, a limit on a row of no application) is malformed.
// Time units: TraceReadOptions::time_unit_s seconds per unit (numbers only;
// calendar times are always seconds). Separator: TraceReadOptions::delimiter.
// A quoted field may hold the separator, quotes and line breaks (a job of
// several lines is named by its first). The submit, start and end columns
// each hold calendar times or numbers: a value in the other format than the
// column's first is malformed ("mixed time formats in one column").
//
// Censored rows (trace_read.hpp): the trace's window runs from the time
// origin (the earliest submission, or start of a row without one) to the
// latest time the kept rows record. A row without a submit time is submitted
// at the window's start, before every other job, and runs the part of its
// run inside the window (end - window start, or end - start when it started
// later); a row without an end time runs until the window's end. Both kinds
// are counted apart, or skipped with TraceReadOptions::keep_censored false.
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

/// Parses "submit=submission_time,gpus=num_gpu,memory=mem:GiB": throws
/// std::invalid_argument naming an unknown property, a missing '=', a
/// property given twice, a unit after a property without one (only cpu,
/// memory, gpu_memory, share and disk have units) or an unknown unit.
std::map<std::string, std::string> parse_csv_column_map(const std::string& text);

/// Throws std::invalid_argument when the mapping lacks submit, gpus, or a
/// run time (duration, or start and end), or names max_per_node without
/// application.
TraceReadResult read_csv_trace(const std::string& path, const TraceReadOptions& options);
TraceReadResult parse_csv_trace(std::istream& in, const std::string& file_label, const TraceReadOptions& options);

}  // namespace gcsim
