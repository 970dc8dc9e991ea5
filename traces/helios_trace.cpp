#include "traces/helios_trace.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/core/input_error.hpp"
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

  TraceLines lines(in);
  std::string text;
  const CsvHeader header = read_csv_header(lines, file, ',');
  const std::size_t c_id = header.require("job_id");
  const std::size_t c_user = header.require("user");
  const std::size_t c_vc = header.require("vc");
  const std::size_t c_gpus = header.require("gpu_num");
  const std::optional<std::size_t> c_cpus = header.find("cpu_num");
  const std::size_t c_state = header.require("state");
  const std::size_t c_submit = header.require("submit_time");
  const std::size_t c_start = header.require("start_time");
  const std::size_t c_end = header.require("end_time");

  std::map<std::string, std::size_t> line_of_id;
  std::vector<PendingTraceJob> pending;
  bool calendar = false;
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
    const std::string id(trim(fields[c_id]));
    if (id.empty()) {
      log.malformed(file, line, "job_id", "empty job id");
      continue;
    }
    if (const auto [it, inserted] = line_of_id.emplace(id, line); !inserted) {
      log.malformed(file, line, "job_id", "duplicate job id",
                    "'" + id + "' is also on line " + std::to_string(it->second));
      continue;
    }
    const std::optional<double> gpus = parse_trace_number(fields[c_gpus]);
    if (!gpus || *gpus < 0 || *gpus != std::floor(*gpus) || *gpus > 4294967295.0) {
      log.malformed(file, line, "gpu_num", "not a GPU count (an integer >= 0)", "got '" + fields[c_gpus] + "'");
      continue;
    }
    std::optional<double> cpus = 0.0;
    if (c_cpus && !trim(fields[*c_cpus]).empty()) {
      cpus = parse_trace_number(fields[*c_cpus]);
      if (!cpus || *cpus < 0 || *cpus != std::floor(*cpus) || *cpus > 4294967295.0) {
        log.malformed(file, line, "cpu_num", "not a CPU count (an integer >= 0)", "got '" + fields[*c_cpus] + "'");
        continue;
      }
    }
    const std::optional<double> submit = parse_trace_time(fields[c_submit]);
    if (!submit) {
      log.malformed(file, line, "submit_time", "not a time (YYYY-MM-DD HH:MM:SS or seconds)",
                    "got '" + fields[c_submit] + "'");
      continue;
    }
    calendar = calendar || parse_calendar_time(fields[c_submit]).has_value();
    const std::string state(trim(fields[c_state]));
    if (*gpus == 0) {
      log.not_replayable(file, line, "gpu_num", "CPU job (gpu_num 0)");
      continue;
    }
    if (trim(fields[c_start]).empty()) {
      log.not_replayable(file, line, "start_time", "never started (no start_time)", state);
      continue;
    }
    if (trim(fields[c_end]).empty()) {
      log.not_replayable(file, line, "end_time", "had not ended when the log was cut (no end_time)", state);
      continue;
    }
    const std::optional<double> start = parse_trace_time(fields[c_start]);
    if (!start) {
      log.malformed(file, line, "start_time", "not a time (YYYY-MM-DD HH:MM:SS or seconds)",
                    "got '" + fields[c_start] + "'");
      continue;
    }
    const std::optional<double> end = parse_trace_time(fields[c_end]);
    if (!end) {
      log.malformed(file, line, "end_time", "not a time (YYYY-MM-DD HH:MM:SS or seconds)",
                    "got '" + fields[c_end] + "'");
      continue;
    }
    if (*end < *start) {
      log.malformed(file, line, "end_time", "end before start",
                    "ends " + describe_number(*start - *end) + " s before it starts");
      continue;
    }
    if (*start < *submit) {
      log.malformed(file, line, "start_time", "start before submit",
                    "starts " + describe_number(*submit - *start) + " s before it is submitted");
      continue;
    }
    if (*end == *start) {
      log.not_replayable(file, line, "end_time", "ran for 0 s (gcsim replays positive run times)", state);
      continue;
    }
    PendingTraceJob job;
    job.file = file;
    job.line = line;
    job.submit_field = "submit_time";
    job.run_time_field = "end_time";
    job.status = state;
    job.spec.id = id;
    const std::string user(trim(fields[c_user])), vc(trim(fields[c_vc]));
    job.spec.user = user.empty() ? "unknown" : user;
    job.spec.queue = vc.empty() ? "unknown" : vc;
    job.spec.submit = *submit;
    job.spec.gpus = static_cast<std::uint32_t>(*gpus);
    job.spec.cpu_cores = static_cast<std::uint32_t>(*cpus);
    job.spec.work = MeasuredWork{*end - *start, options.gpu_type};
    pending.push_back(std::move(job));
  }
  result.calendar_clock = calendar;
  finish_trace(std::move(pending), options, std::nullopt, log, result);
  return result;
}

}  // namespace gcsim
