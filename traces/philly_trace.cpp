#include "traces/philly_trace.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "sim/core/input_error.hpp"
#include "traces/philly_job_log.hpp"
#include "traces/trace_row.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {

TraceReadResult read_philly_trace(const std::string& path, const TraceReadOptions& options) {
  std::ifstream in = open_trace_file(path);
  // The raw job log is a JSON array; the derived log a CSV with a header,
  // read from the file row by row rather than held whole. The opening up to
  // the first character that is neither a byte-order mark nor white space
  // tells them apart.
  const std::string mark = "\xEF\xBB\xBF";
  std::string opening;
  for (char c = 0; in.get(c);) {
    opening += c;
    const bool in_mark = opening.size() <= mark.size() && mark.compare(0, opening.size(), opening) == 0;
    if (!in_mark && !std::isspace(static_cast<unsigned char>(c))) break;
  }
  in.clear();
  in.seekg(0);
  if (looks_like_philly_job_log(opening)) {
    std::ostringstream text;
    text << in.rdbuf();
    return parse_philly_job_log(text.str(), path, options);
  }
  return parse_philly_trace(in, path, options);
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

  CsvRecords records(in, file);
  const CsvHeader header = read_csv_header(records);
  const TraceColumn timestamp = header.column("timestamp"), duration = header.column("duration"),
                    num_gpus = header.column("num_gpus"), gpu_time = header.column("gpu_time"),
                    cluster = header.column("cluster");

  std::vector<PendingTraceJob> pending;
  for (CsvRecord record; records.next(record);) {
    ++result.rows;
    const std::size_t line = record.line;
    TraceRow row(log, file, line, std::move(record.fields), header.size());
    const double submit = row.calendar_time(timestamp, "not a date and time YYYY-MM-DD HH:MM:SS");
    const double seconds = row.number(duration);
    row.malformed_if(seconds < 0, duration, "negative run time", "got " + describe_number(seconds));
    const double gpus = row.number_if(num_gpus, is_whole_count, "not a GPU count (an integer >= 1)");
    row.malformed_if(gpus == 0, num_gpus, "zero GPUs");
    const double gpu_seconds = row.number(gpu_time);
    const double expected = seconds * gpus;
    row.malformed_if(std::fabs(gpu_seconds - expected) > 1e-9 * std::max(1.0, std::fabs(expected)), gpu_time,
                     "gpu_time is not duration x num_gpus",
                     "got " + describe_number(gpu_seconds) + ", expected " + describe_number(expected));
    row.not_replayable_if(seconds == 0, duration, "ran for 0 s (gcsim replays positive run times)");
    if (!row) continue;
    PendingTraceJob job;
    job.file = file;
    job.line = line;
    job.submit_field = "timestamp";
    job.run_time_field = "duration";
    job.spec.id = "philly-" + std::to_string(line);
    job.spec.user = "unknown";
    const std::string vc = row.trimmed(cluster);
    job.spec.queue = vc.empty() ? "unknown" : vc;
    job.spec.submit = submit;
    job.spec.gpus = static_cast<std::uint32_t>(gpus);
    job.spec.work = MeasuredWork{seconds, options.gpu_type};
    pending.push_back(std::move(job));
  }
  finish_trace(std::move(pending), options, std::nullopt, log, result);
  return result;
}

}  // namespace gcsim
