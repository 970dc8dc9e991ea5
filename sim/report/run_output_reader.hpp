// run_output_reader.hpp: reads back the files `gcsim run` writes
// (sim/report/run_outputs.hpp), for tools that compare runs.
//
// Each parser takes the file's text and the name to use in errors; anything
// that does not match the format is an InputError naming the file, the line
// (or JSON field) and what was expected. The CSV files are read as RFC 4180
// records (sim/io/csv_records.hpp): a quoted id or user may hold commas,
// quotes and line breaks.
//
//   RunSummaryFigures s = parse_summary_json(read_whole_file(dir + "/summary.json"), dir + "/summary.json");
//   std::vector<JobsCsvRow> jobs = parse_jobs_csv(text, "runs/fifo/jobs.csv");
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/report/comparison_metrics.hpp"
#include "sim/report/run_metrics.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

/// The figures of summary.json that comparisons use.
/// A serving deployment's figures in summary.json ("serving").
struct ServingFigures {
  std::string deployment;
  double requests = 0, served = 0, dropped = 0, late = 0;
  double p50 = 0, p95 = 0, p99 = 0;  // latency, seconds
  double gpu_hours = 0;
};

struct RunSummaryFigures {
  std::string policy;
  std::size_t gpus = 0;
  std::size_t jobs = 0, finished = 0, failed = 0, unfinished = 0;
  double makespan = 0;
  Time simulated_time = 0;  // the clock when the run ended
  Distribution jct, wait;
  double allocated_share = 0, busy_share = 0;
  std::size_t preemptions = 0;
  double lost_gpu_hours = 0;
  double lost_share = 0;            // lost / (lost + useful) GPU time (run_metrics.hpp)
  std::optional<Time> deadlock_at;  // set when the run ended in a deadlock
  /// Why the run stopped before its end: "none", "deadlock", "livelock",
  /// "thrashing" or "signal" (summary.json's "partial"), and when.
  std::string stopped = "none";
  std::optional<Time> stopped_at;
  std::optional<double> wall_seconds;  // absent when the run was told --no-wall-time
  /// The energy drawn ("energy", a run told --energy): IT and facility kWh, peak IT kW.
  std::optional<double> energy_kwh, facility_kwh, peak_kw;
  /// The guarantee attainment of each queue the policy guaranteed ("queues"); empty without.
  std::vector<QueueAttainment> queues;
  /// Each serving deployment's figures ("serving"); empty without.
  std::vector<ServingFigures> serving;
};

/// One row of jobs.csv; times that are empty in the file are kNever.
struct JobsCsvRow {
  std::string id, user, queue, state, placement;
  std::string type;                // empty in a jobs.csv without the column
  std::string qos = "guaranteed";  // "spot" or "guaranteed"; without the column, every job was guaranteed
  std::uint32_t gpus = 0;
  double gpu_share = 1;  // of each of its GPUs
  Time submit = 0, start = kNever, end = kNever, wait = kNever, jct = kNever;
  std::uint32_t preemptions = 0;
  Time uncontended = kNever;
};

/// The whole content of a file; std::runtime_error naming it when it cannot be read.
std::string read_whole_file(const std::string& path);

RunSummaryFigures parse_summary_json(const std::string& text, const std::string& file);
std::vector<JobsCsvRow> parse_jobs_csv(const std::string& text, const std::string& file);
std::vector<TimelinePoint> parse_timeline_csv(const std::string& text, const std::string& file);

}  // namespace gcsim
