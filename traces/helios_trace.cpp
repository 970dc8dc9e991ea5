#include "traces/helios_trace.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/core/input_error.hpp"
#include "traces/trace_row.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {

TraceReadResult read_helios_trace(const std::string& path, const TraceReadOptions& options) {
  std::ifstream in = open_trace_file(path);
  return parse_helios_trace(in, path, options);
}

TraceReadResult parse_helios_trace(std::istream& in, const std::string& file, const TraceReadOptions& options) {
  TraceReadResult result;
  result.format = "helios";
  result.work_source =
      "recorded run time (end_time - start_time) on the recorded GPU count (gpu_num), taken as "
      "measured on " +
      options.gpu_type;
  result.assumptions = {
      "Helios does not name GPU types per job: run times are taken as measured on " + options.gpu_type,
      "every job replays its whole recorded run time, whatever its final state",
      "the virtual cluster (vc) is the job's queue; the recorded queueing delay is not used, gcsim simulates it",
      "no time zone is applied to the log's times"};
  SkipLog log(result.skipped, options.strict);

  CsvRecords records(in, file);
  const CsvHeader header = read_csv_header(records);
  const TraceColumn job_id = header.column("job_id"), user = header.column("user"), vc = header.column("vc"),
                    gpu_num = header.column("gpu_num"), state = header.column("state"),
                    submit_time = header.column("submit_time"), start_time = header.column("start_time"),
                    end_time = header.column("end_time");
  const std::optional<TraceColumn> cpu_num = header.find_column("cpu_num");
  const std::string not_a_time = "not a time (YYYY-MM-DD HH:MM:SS or seconds)";

  std::map<std::string, std::size_t> line_of_id;
  std::vector<PendingTraceJob> pending;
  bool calendar = false;
  TimeFormats time_formats;
  for (CsvRecord record; records.next(record);) {
    ++result.rows;
    const std::size_t line = record.line;
    TraceRow row(log, file, line, std::move(record.fields), header.size());
    const std::string id = row.trimmed(job_id);
    row.malformed_if(id.empty(), job_id, "empty job id");
    row.first_of(line_of_id, id, job_id.name, "duplicate job id", "'" + id + "'");
    const double gpus = row.number_if(gpu_num, is_whole_count, "not a GPU count (an integer >= 0)");
    const double cpus = cpu_num && !row.empty(*cpu_num)
                            ? row.number_if(*cpu_num, is_whole_count, "not a CPU count (an integer >= 0)")
                            : 0;
    const double submit = row.submit_time(submit_time, 1, not_a_time, time_formats);
    if (row) calendar = calendar || parse_calendar_time(row.text(submit_time)).has_value();
    const std::string status = row.trimmed(state);
    row.not_replayable_if(gpus == 0, gpu_num, "CPU job (gpu_num 0)");
    row.not_replayable_if(row.empty(start_time), start_time, "never started (no start_time)", status);
    // No end: still running when the log was cut (censored, finish_trace ends it with the log).
    const bool running = row.empty(end_time);
    const double start = row.time(start_time, 1, not_a_time, time_formats);
    const double end = running ? start : row.time(end_time, 1, not_a_time, time_formats);
    row.malformed_if(end < start, end_time, "end before start",
                     "ends " + describe_number(start - end) + " s before it starts");
    row.starts_after_submit(submit, start, start_time.name);
    row.not_replayable_if(!running && end == start, end_time, "ran for 0 s (gcsim replays positive run times)", status);
    if (!row) continue;
    PendingTraceJob job;
    job.file = file;
    job.line = line;
    job.submit_field = "submit_time";
    job.run_time_field = "end_time";
    job.status = status;
    job.spec.id = id;
    const std::string user_name = row.trimmed(user), queue = row.trimmed(vc);
    job.spec.user = user_name.empty() ? "unknown" : user_name;
    job.spec.queue = queue.empty() ? "unknown" : queue;
    job.spec.submit = submit;
    job.spec.gpus = static_cast<std::uint32_t>(gpus);
    job.spec.cpu_cores = static_cast<std::uint32_t>(cpus);
    job.spec.work = MeasuredWork{end - start, options.gpu_type};
    job.start = start;
    job.recorded_start = start;
    if (!running) job.end = end;
    job.end_unknown = running;
    job.end_field = "end_time";
    pending.push_back(std::move(job));
  }
  result.calendar_clock = calendar;
  finish_trace(std::move(pending), options, std::nullopt, log, result);
  return result;
}

}  // namespace gcsim
