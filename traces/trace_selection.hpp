// trace_selection.hpp: cutting a trace down to the part a study replays,
// and scaling its load, after it has been read.
//
// The steps, in this order:
//   1. window   keep jobs submitted in [from, until) (seconds after the time
//               origin); with `from`, submit times become relative to it
//   2. filters  keep jobs in the given queues, with min_gpus <= gpus <= max_gpus
//   3. sample   keep each job with probability `sample`, drawn from `seed`
//               (std::mt19937_64, whose output the C++ standard fixes, so the
//               same seed keeps the same jobs everywhere)
//   4. load     divide every submit time by `load_scale`: inter-arrival times
//               shrink by that factor while run times stay, so the offered
//               load grows by it (2 = twice as many arrivals per hour)
// Removed jobs are not skipped rows (nothing is wrong with them); each step
// reports how many jobs it kept, in TraceReadResult::selection. After a load
// scale, submit times no longer map to the trace's calendar, so the result
// stops claiming one (calendar_clock = false).
//
//   TraceSelection selection;
//   selection.until = 86400;        // the first day
//   selection.min_gpus = 2;
//   selection.load_scale = 1.5;
//   apply_trace_selection(trace, selection);  // trace.selection says what each step kept
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "traces/trace_read.hpp"

namespace gcsim {

struct TraceSelection {
  std::optional<double> from, until;  // seconds after the time origin
  std::set<std::string> queues;       // empty: every queue
  std::optional<std::uint32_t> min_gpus, max_gpus;
  std::optional<double> sample;  // in (0, 1]
  std::uint64_t seed = 0;
  double load_scale = 1;  // > 0

  bool empty() const {
    return !from && !until && queues.empty() && !min_gpus && !max_gpus && !sample && load_scale == 1;
  }
};

/// Applies the steps that are set, keeping `job_status` parallel to `jobs`
/// and moving `time_origin` by `from`; appends one line per step applied to
/// trace.selection ("window [0 s, 86400 s): 812 of 82247 jobs kept"). Throws
/// std::invalid_argument for an empty window, min_gpus > max_gpus, a sample
/// outside (0, 1], a load scale <= 0, or one that submits a job beyond the
/// horizon (work_horizon.hpp).
void apply_trace_selection(TraceReadResult& trace, const TraceSelection& selection);

}  // namespace gcsim
