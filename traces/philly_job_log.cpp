#include "traces/philly_job_log.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <nlohmann/json.hpp>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "traces/trace_row.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

// The line each element of the top-level array starts on (1-based), found by
// scanning brackets outside strings, so that skipped jobs can be located.
std::vector<std::size_t> element_lines(const std::string& text) {
  std::vector<std::size_t> lines;
  std::size_t line = 1;
  int depth = 0;
  bool in_string = false, escaped = false, expect_element = false;
  for (char c : text) {
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (depth == 1 && expect_element && c != ']') {
      lines.push_back(line);
      expect_element = false;
    }
    if (c == '"')
      in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth == 1 && c == '[') expect_element = true;
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 1) {
      expect_element = true;
    }
  }
  return lines;
}

// A date field: the calendar time, nothing for "None"/null, or an error text.
struct DateField {
  std::optional<double> seconds;
  bool absent = false;
};

DateField read_date(const nlohmann::json& object, const char* field) {
  if (!object.contains(field) || object.at(field).is_null()) return {std::nullopt, true};
  const auto& v = object.at(field);
  if (!v.is_string()) return {};
  const std::string text = v.get<std::string>();
  if (text == "None" || text.empty()) return {std::nullopt, true};
  return {parse_calendar_time(text), false};
}

}  // namespace

bool looks_like_philly_job_log(const std::string& text) {
  // After a UTF-8 byte-order mark, if the file opens with one.
  const auto begin = text.rfind("\xEF\xBB\xBF", 0) == 0 ? text.begin() + 3 : text.begin();
  const auto first =
      std::find_if(begin, text.end(), [](char c) { return !std::isspace(static_cast<unsigned char>(c)); });
  return first != text.end() && *first == '[';
}

TraceReadResult parse_philly_job_log(const std::string& text, const std::string& file,
                                     const TraceReadOptions& options) {
  TraceReadResult result;
  result.format = "philly";
  result.calendar_clock = true;
  result.work_source =
      "recorded run time (the sum of the attempts' end - start) on the GPUs of the last attempt, "
      "taken as measured on " +
      options.gpu_type;
  SkipLog log(result.skipped, options.strict);

  const nlohmann::json jobs = parse_json_text(text, file);
  if (!jobs.is_array()) throw InputError(file, "", "", "expected a JSON array of jobs (the Philly cluster_job_log)");
  const std::vector<std::size_t> lines = element_lines(text);
  std::size_t retried = 0;
  std::set<std::string> ids;
  std::vector<PendingTraceJob> pending;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    ++result.rows;
    const std::size_t line = i < lines.size() ? lines[i] : 0;
    const nlohmann::json& job = jobs[i];
    RowCheck row(log, file, line);
    if (!row.malformed_if(!job.is_object(), "", "a job is not a JSON object", "got " + std::string(job.type_name())))
      continue;
    const DateField submitted = read_date(job, "submitted_time");
    row.malformed_if(!submitted.seconds, "submitted_time", "not a date and time YYYY-MM-DD HH:MM:SS",
                     job.contains("submitted_time") ? "got " + job.at("submitted_time").dump() : "missing");
    row.malformed_if(!job.contains("attempts") || !job.at("attempts").is_array(), "attempts",
                     "attempts is not an array");
    if (!row) continue;
    const nlohmann::json& attempts = job.at("attempts");
    row.not_replayable_if(attempts.empty(), "attempts", "never ran (no attempt)");
    double run_time = 0;
    std::uint64_t gpus = 0;
    bool never_started = false;
    // The last attempt's start and end, where the log records them: a last
    // attempt with a start and no end was running when the log was cut (censored).
    std::optional<double> last_start, last_end;
    // The first attempt's start: when the cluster first scheduled the job.
    std::optional<double> first_start;
    for (std::size_t a = 0; a < attempts.size() && row; ++a) {
      const nlohmann::json& attempt = attempts[a];
      if (!row.malformed_if(!attempt.is_object(), "attempts", "an attempt is not a JSON object")) break;
      const DateField start = read_date(attempt, "start_time");
      const DateField end = read_date(attempt, "end_time");
      const bool bad_start = !start.seconds && !start.absent, bad_end = !end.seconds && !end.absent;
      if (!row.malformed_if(bad_start || bad_end, bad_start ? "attempts.start_time" : "attempts.end_time",
                            "not a date and time YYYY-MM-DD HH:MM:SS", "attempt " + std::to_string(a + 1)))
        break;
      if (a == 0 && start.seconds) {
        if (!row.starts_after_submit(*submitted.seconds, *start.seconds, "attempts.start_time")) break;
        first_start = start.seconds;
      }
      // The log was cut before the last attempt started (not replayable) or
      // while it ran (censored: its GPUs count, finish_trace ends it with the
      // log); an earlier attempt without both times is left out.
      const bool last = a + 1 == attempts.size();
      if (last) {
        last_start = start.seconds;
        last_end = end.seconds;
        never_started = start.absent;
      }
      if (start.absent || (end.absent && !last)) continue;
      if (!end.absent) {
        if (!row.malformed_if(
                *end.seconds < *start.seconds, "attempts.end_time", "an attempt ends before it starts",
                "attempt " + std::to_string(a + 1) + " ran " + describe_number(*end.seconds - *start.seconds) + " s"))
          break;
        run_time += *end.seconds - *start.seconds;
      }
      if (attempt.contains("detail") && !attempt.at("detail").is_null()) {
        const nlohmann::json& machines = attempt.at("detail");
        if (!row.malformed_if(!machines.is_array(), "attempts.detail", "detail is not an array of machines")) break;
        std::uint64_t attempt_gpus = 0;
        for (const nlohmann::json& machine : machines) {
          const bool listed = machine.is_object() && machine.contains("gpus") && machine.at("gpus").is_array();
          if (!row.malformed_if(!listed, "attempts.detail.gpus", "a machine's gpus is not an array")) break;
          attempt_gpus += machine.at("gpus").size();
        }
        if (attempt_gpus > 0) gpus = attempt_gpus;  // the last attempt that lists its GPUs
      }
    }
    row.not_replayable_if(never_started, "attempts.start_time", "never started (its last attempt has no start_time)");
    row.not_replayable_if(gpus == 0, "attempts.detail", "no GPUs recorded in any attempt");
    const bool running = last_start && !last_end;
    row.not_replayable_if(!running && run_time <= 0, "attempts", "ran for 0 s (gcsim replays positive run times)");
    if (!row) continue;
    if (attempts.size() > 1) ++retried;
    PendingTraceJob pending_job;
    pending_job.file = file;
    pending_job.line = line;
    pending_job.submit_field = "submitted_time";
    pending_job.run_time_field = "attempts";
    const auto text_field = [&](const char* field, const std::string& fallback) {
      return job.contains(field) && job.at(field).is_string() && !job.at(field).get<std::string>().empty()
                 ? job.at(field).get<std::string>()
                 : fallback;
    };
    pending_job.spec.id = text_field("jobid", "philly-" + std::to_string(line));
    if (!row.malformed_if(!ids.insert(pending_job.spec.id).second, "jobid", "a job id used twice",
                          "'" + pending_job.spec.id + "'"))
      continue;
    pending_job.spec.user = text_field("user", "unknown");
    pending_job.spec.queue = text_field("vc", "unknown");
    pending_job.spec.submit = *submitted.seconds;
    pending_job.spec.gpus = static_cast<std::uint32_t>(std::min<std::uint64_t>(gpus, 4294967295u));
    pending_job.spec.work = MeasuredWork{run_time, options.gpu_type};
    pending_job.start = last_start;
    pending_job.recorded_start = first_start;
    pending_job.end = last_end;
    pending_job.end_unknown = running;
    pending_job.end_field = "attempts.end_time";
    pending_job.status = text_field("status", "");
    pending.push_back(std::move(pending_job));
  }
  result.assumptions = {
      "the Philly log does not name GPU types: run times are taken as measured on " + options.gpu_type,
      "a job's run time is the sum of its attempts' run times (" + std::to_string(retried) +
          " jobs had more than one attempt); it replays as one run on the GPUs of its last attempt",
      "the Philly virtual cluster (vc) is the job's queue"};
  finish_trace(std::move(pending), options, std::nullopt, log, result);
  return result;
}

}  // namespace gcsim
