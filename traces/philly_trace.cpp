#include "traces/philly_trace.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/core/input_error.hpp"
#include "traces/philly_job_log.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {

TraceReadResult read_philly_trace(const std::string& path, const TraceReadOptions& options) {
  std::ifstream in = open_trace_file(path);
  std::ostringstream text;
  text << in.rdbuf();
  // The raw job log is a JSON array; the derived log a CSV with a header.
  if (looks_like_philly_job_log(text.str())) return parse_philly_job_log(text.str(), path, options);
  std::istringstream csv(text.str());
  return parse_philly_trace(csv, path, options);
}

TraceReadResult parse_philly_trace(std::istream& in, const std::string& file, const TraceReadOptions& options) {
  TraceReadResult result;
  result.format = "philly";
  result.calendar_clock = true;
  result.work_source =
      "recorded run time (duration) on the recorded GPU count (num_gpus), taken as measured on " + options.gpu_type;
  result.assumptions = {
      "the derived Philly log has no users: every job belongs to user 'unknown'",
      "the Philly log does not name GPU types: run times are taken as measured on " + options.gpu_type,
      "the derived Philly log has no status and no retries: every job replays its whole recorded run time",
      "the Philly virtual cluster (cluster column) is the job's queue"};
  SkipLog log(result.skipped, options.strict);

  TraceLines lines(in);
  std::string text;
  const CsvHeader header = read_csv_header(lines, file, ',');
  const std::size_t c_time = header.require("timestamp");
  const std::size_t c_duration = header.require("duration");
  const std::size_t c_gpus = header.require("num_gpus");
  const std::size_t c_gpu_time = header.require("gpu_time");
  const std::size_t c_cluster = header.require("cluster");

  std::vector<PendingTraceJob> pending;
  while (lines.next(text)) {
    if (is_blank(text)) continue;
    ++result.rows;
    const std::size_t line = lines.number();
    const std::vector<std::string> fields = split_csv_line(text, ',');
    if (fields.size() != header.size()) {
      log.malformed(file, line, "", "wrong number of fields",
                    "expected " + std::to_string(header.size()) + ", got " + std::to_string(fields.size()));
      continue;
    }
    const std::optional<double> submit = parse_calendar_time(fields[c_time]);
    if (!submit) {
      log.malformed(file, line, "timestamp", "not a date and time YYYY-MM-DD HH:MM:SS", "got '" + fields[c_time] + "'");
      continue;
    }
    const std::optional<double> duration = parse_trace_number(fields[c_duration]);
    if (!duration) {
      log.malformed(file, line, "duration", "not a number", "got '" + fields[c_duration] + "'");
      continue;
    }
    if (*duration < 0) {
      log.malformed(file, line, "duration", "negative run time", "got " + describe_number(*duration));
      continue;
    }
    const std::optional<double> gpus = parse_trace_number(fields[c_gpus]);
    if (!gpus || *gpus != std::floor(*gpus) || *gpus < 0 || *gpus > 4294967295.0) {
      log.malformed(file, line, "num_gpus", "not a GPU count (an integer >= 1)", "got '" + fields[c_gpus] + "'");
      continue;
    }
    if (*gpus == 0) {
      log.malformed(file, line, "num_gpus", "zero GPUs");
      continue;
    }
    const std::optional<double> gpu_time = parse_trace_number(fields[c_gpu_time]);
    if (!gpu_time) {
      log.malformed(file, line, "gpu_time", "not a number", "got '" + fields[c_gpu_time] + "'");
      continue;
    }
    const double expected = *duration * *gpus;
    if (std::fabs(*gpu_time - expected) > 1e-9 * std::max(1.0, std::fabs(expected))) {
      log.malformed(file, line, "gpu_time", "gpu_time is not duration x num_gpus",
                    "got " + describe_number(*gpu_time) + ", expected " + describe_number(expected));
      continue;
    }
    if (*duration == 0) {
      log.not_replayable(file, line, "duration", "ran for 0 s (gcsim replays positive run times)");
      continue;
    }
    PendingTraceJob job;
    job.file = file;
    job.line = line;
    job.submit_field = "timestamp";
    job.run_time_field = "duration";
    job.spec.id = "philly-" + std::to_string(line);
    job.spec.user = "unknown";
    const std::string vc(trim(fields[c_cluster]));
    job.spec.queue = vc.empty() ? "unknown" : vc;
    job.spec.submit = *submit;
    job.spec.gpus = static_cast<std::uint32_t>(*gpus);
    job.spec.work = MeasuredWork{*duration, options.gpu_type};
    pending.push_back(std::move(job));
  }
  finish_trace(std::move(pending), options, std::nullopt, log, result);
  return result;
}

}  // namespace gcsim
