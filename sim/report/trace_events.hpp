// trace_events.hpp: the schedule of a run as a Chrome trace (the Trace Event
// Format that Perfetto, ui.perfetto.dev, and chrome://tracing load), for
// `gcsim run --timeline FILE.json`.
//
// - process "GPUs": a track per GPU ("dgx1-0:3"), a slice per run of a job on
//   it, named by the job's id, with its user, queue and how the run ended;
// - process "CPU jobs": a track per node, a slice per run of a CPU job;
// - process "cluster": counters of allocated and busy GPUs and queued jobs
//   (timeline.csv's), and instant events: preemptions, failures (on the
//   job's first GPU), node failures and a deadlock.
// Times are in microseconds of simulated time. Needs RunRecord::runs
// (SimulationOptions::keep_runs).
//
//   write_trace_events(file, jobs, layout, record);
#pragma once

#include <ostream>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

void write_trace_events(std::ostream& out, const std::vector<JobSpec>& jobs, const ClusterLayout& layout,
                        const RunRecord& record);

}  // namespace gcsim
