#include "sim/report/run_output_reader.hpp"

#include <fstream>
#include <sstream>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>

#include <nlohmann/json.hpp>

#include "sim/core/input_error.hpp"
#include "sim/io/csv_records.hpp"

namespace gcsim {

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}
namespace {

using nlohmann::json;

// ---- summary.json ----------------------------------------------------------------------

const json& member(const json& object, const std::string& key, const std::string& file, const std::string& where) {
  if (!object.is_object() || !object.contains(key))
    throw InputError(file, where, key, "missing (is this a summary.json written by gcsim run?)");
  return object.at(key);
}

double number(const json& object, const std::string& key, const std::string& file, const std::string& where = "") {
  const json& value = member(object, key, file, where);
  if (!value.is_number()) throw InputError(file, where, key, "expected a number, got " + value.dump());
  return value.get<double>();
}

std::size_t count(const json& object, const std::string& key, const std::string& file, const std::string& where = "") {
  const json& value = member(object, key, file, where);
  if (!value.is_number_unsigned()) throw InputError(file, where, key, "expected a count, got " + value.dump());
  return value.get<std::size_t>();
}

Distribution distribution(const json& summary, const std::string& key, const std::string& file) {
  const json& d = member(summary, key, file, "");
  Distribution out;
  out.count = count(d, "count", file, key);
  out.mean = number(d, "mean", file, key);
  out.p50 = number(d, "p50", file, key);
  out.p95 = number(d, "p95", file, key);
  out.p99 = number(d, "p99", file, key);
  out.max = number(d, "max", file, key);
  return out;
}

// ---- CSV -------------------------------------------------------------------------------

/// Column positions by header name; every required column must be present.
class CsvColumns {
 public:
  CsvColumns(const CsvRecord& header, const std::vector<std::string>& required, const std::string& file) : file_(file) {
    for (std::size_t i = 0; i < header.fields.size(); ++i) index_[header.fields[i]] = i;
    for (const std::string& name : required)
      if (!index_.count(name))
        throw InputError(file, "line " + std::to_string(header.line), name, "missing column in the header");
  }

  bool has(const std::string& name) const { return index_.count(name) > 0; }
  const std::string& text(const CsvRecord& record, const std::string& name) const {
    const std::size_t i = index_.at(name);
    if (i >= record.fields.size())
      throw InputError(file_, "line " + std::to_string(record.line), name,
                       "missing: the row has " + std::to_string(record.fields.size()) + " fields");
    return record.fields[i];
  }

  double number(const CsvRecord& record, const std::string& name) const {
    const std::string& t = text(record, name);
    char* end = nullptr;
    errno = 0;
    const double value = t.empty() ? 0 : std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(value))
      throw InputError(file_, "line " + std::to_string(record.line), name, "expected a number, got '" + t + "'");
    return value;
  }

  /// Empty means "never" (a job not started or not ended).
  Time time_or_never(const CsvRecord& record, const std::string& name) const {
    return text(record, name).empty() ? kNever : number(record, name);
  }

  std::uint32_t unsigned_int(const CsvRecord& record, const std::string& name) const {
    const double value = number(record, name);
    if (value < 0 || value != std::floor(value) || value > 4294967295.0)
      throw InputError(file_, "line " + std::to_string(record.line), name,
                       "expected a non-negative integer, got '" + text(record, name) + "'");
    return static_cast<std::uint32_t>(value);
  }

 private:
  std::string file_;
  std::map<std::string, std::size_t> index_;
};

std::vector<CsvRecord> records_with_header(const std::string& text, const std::string& file) {
  std::vector<CsvRecord> records = read_csv_records(text, file);
  if (records.empty()) throw InputError(file, "line 1", "", "empty file: expected a header line");
  return records;
}

}  // namespace

RunSummaryFigures parse_summary_json(const std::string& text, const std::string& file) {
  json summary;
  try {
    summary = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(file, "byte " + std::to_string(e.byte), "", "not valid JSON");
  }
  RunSummaryFigures s;
  const json& policy = member(summary, "policy", file, "");
  s.policy = policy.is_string() ? policy.get<std::string>() : policy.dump();
  s.gpus = count(summary, "gpus", file);
  const json& jobs = member(summary, "jobs", file, "");
  s.jobs = count(jobs, "total", file, "jobs");
  s.finished = count(jobs, "finished", file, "jobs");
  s.failed = count(jobs, "failed", file, "jobs");
  s.unfinished = count(jobs, "unfinished", file, "jobs");
  s.makespan = number(summary, "makespan_s", file);
  s.simulated_time = number(summary, "simulated_time_s", file);
  s.jct = distribution(summary, "jct_s", file);
  s.wait = distribution(summary, "queueing_delay_s", file);
  const json& utilization = member(summary, "gpu_utilization", file, "");
  s.allocated_share = number(utilization, "allocated_share", file, "gpu_utilization");
  s.busy_share = number(utilization, "busy_share", file, "gpu_utilization");
  const json& preemptions = member(summary, "preemptions", file, "");
  s.preemptions = count(preemptions, "count", file, "preemptions");
  s.lost_gpu_hours = number(preemptions, "lost_gpu_hours", file, "preemptions");
  s.lost_share = number(preemptions, "lost_share", file, "preemptions");
  const json& deadlock = member(summary, "deadlock", file, "");
  if (!deadlock.is_null()) s.deadlock_at = number(deadlock, "detected_at_s", file, "deadlock");
  // A run stops early for one reason; each is null in summary.json unless it happened.
  for (const char* reason : {"deadlock", "livelock", "thrashing"})
    if (const json& report = member(summary, reason, file, ""); !report.is_null()) {
      s.stopped = reason;
      s.stopped_at = number(report, "detected_at_s", file, reason);
    }
  if (summary.contains("partial")) {
    s.stopped = "signal";
    s.stopped_at = number(summary.at("partial"), "simulated_time_s", file, "partial");
  }
  if (summary.contains("wall_time_s")) s.wall_seconds = number(summary, "wall_time_s", file);
  if (summary.contains("energy")) {
    const json& energy = summary.at("energy");
    s.energy_kwh = number(energy, "it_kwh", file, "energy");
    s.facility_kwh = number(energy, "facility_kwh", file, "energy");
    s.peak_kw = number(energy, "peak_kw", file, "energy");
  }
  if (summary.contains("queues")) {
    const json& queues = summary.at("queues");
    if (!queues.is_array()) throw InputError(file, "", "queues", "expected an array, got " + queues.dump());
    for (std::size_t q = 0; q < queues.size(); ++q) {
      const std::string where = "queues[" + std::to_string(q) + "]";
      const json& path = member(queues[q], "path", file, where);
      if (!path.is_string()) throw InputError(file, where, "path", "expected a queue path, got " + path.dump());
      QueueAttainment queue{path.get<std::string>(), number(queues[q], "guaranteed_gpus", file, where),
                            number(queues[q], "demand_s", file, where), std::nullopt};
      if (!member(queues[q], "attainment", file, where).is_null())
        queue.attainment = number(queues[q], "attainment", file, where);
      s.queues.push_back(std::move(queue));
    }
  }
  if (summary.contains("serving")) {
    const json& deployments = summary.at("serving");
    if (!deployments.is_array()) throw InputError(file, "", "serving", "expected an array, got " + deployments.dump());
    for (std::size_t d = 0; d < deployments.size(); ++d) {
      const std::string where = "serving[" + std::to_string(d) + "]";
      const json& name = member(deployments[d], "deployment", file, where);
      if (!name.is_string()) throw InputError(file, where, "deployment", "expected an id, got " + name.dump());
      const json& latency = member(deployments[d], "latency_s", file, where);
      const std::string latency_where = where + ".latency_s";
      s.serving.push_back({name.get<std::string>(), number(deployments[d], "requests", file, where),
                           number(deployments[d], "served", file, where),
                           number(deployments[d], "dropped", file, where), number(deployments[d], "late", file, where),
                           number(latency, "p50", file, latency_where), number(latency, "p95", file, latency_where),
                           number(latency, "p99", file, latency_where),
                           number(deployments[d], "gpu_hours", file, where)});
    }
  }
  return s;
}

std::vector<JobsCsvRow> parse_jobs_csv(const std::string& text, const std::string& file) {
  const std::vector<CsvRecord> records = records_with_header(text, file);
  const CsvColumns columns(records.front(),
                           {"id", "user", "queue", "gpus", "submit", "start", "end", "wait", "jct", "state",
                            "preemptions", "uncontended", "placement", "gpu_share"},
                           file);
  std::vector<JobsCsvRow> rows;
  rows.reserve(records.size() - 1);
  for (std::size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& record = records[r];
    JobsCsvRow row;
    row.id = columns.text(record, "id");
    row.user = columns.text(record, "user");
    row.queue = columns.text(record, "queue");
    row.gpus = columns.unsigned_int(record, "gpus");
    row.gpu_share = columns.number(record, "gpu_share");
    if (!(row.gpu_share > 0 && row.gpu_share <= 1))
      throw InputError(file, "line " + std::to_string(record.line), "gpu_share",
                       "expected a share of a GPU in (0, 1], got '" + columns.text(record, "gpu_share") + "'");
    row.submit = columns.time_or_never(record, "submit");  // empty: a replica its deployment never asked for
    row.start = columns.time_or_never(record, "start");
    row.end = columns.time_or_never(record, "end");
    row.wait = columns.time_or_never(record, "wait");
    row.jct = columns.time_or_never(record, "jct");
    row.state = columns.text(record, "state");
    row.preemptions = columns.unsigned_int(record, "preemptions");
    row.uncontended = columns.time_or_never(record, "uncontended");
    row.placement = columns.text(record, "placement");
    if (columns.has("type")) row.type = columns.text(record, "type");  // written since jobs had types
    if (columns.has("qos")) {                                          // written when the workload holds spot jobs
      row.qos = columns.text(record, "qos");
      if (row.qos != "guaranteed" && row.qos != "spot")
        throw InputError(file, "line " + std::to_string(record.line), "qos",
                         "expected guaranteed or spot, got '" + row.qos + "'");
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<TimelinePoint> parse_timeline_csv(const std::string& text, const std::string& file) {
  const std::vector<CsvRecord> records = records_with_header(text, file);
  const CsvColumns columns(records.front(), {"time", "allocated_gpus", "busy_gpus", "queued_jobs"}, file);
  std::vector<TimelinePoint> points;
  points.reserve(records.size() - 1);
  for (std::size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& record = records[r];
    TimelinePoint p{columns.number(record, "time"), columns.number(record, "allocated_gpus"),
                    columns.number(record, "busy_gpus"), columns.unsigned_int(record, "queued_jobs")};
    if (p.allocated < 0 || p.busy < 0 || p.busy > p.allocated)
      throw InputError(file, "line " + std::to_string(record.line), "busy_gpus",
                       "GPU counts must satisfy 0 <= busy_gpus <= allocated_gpus");
    if (!points.empty() && p.time < points.back().time)
      throw InputError(file, "line " + std::to_string(record.line), "time",
                       "times must not decrease (previous row has " + std::to_string(points.back().time) + ")");
    points.push_back(p);
  }
  return points;
}

}  // namespace gcsim
