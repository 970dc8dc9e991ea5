#include "traces/swf_trace.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "sim/core/input_error.hpp"
#include "sim/core/work_forms.hpp"
#include "sim/core/number_text.hpp"
#include "sim/io/text_lines.hpp"
#include "traces/trace_row.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

constexpr std::size_t kFields = 18;
// The 18 fields of a job line, named as in the SWF definition.
const TraceColumn kColumns[kFields] = {{0, "job number"},
                                       {1, "submit time"},
                                       {2, "wait time"},
                                       {3, "run time"},
                                       {4, "allocated processors"},
                                       {5, "average CPU time"},
                                       {6, "used memory"},
                                       {7, "requested processors"},
                                       {8, "requested time"},
                                       {9, "requested memory"},
                                       {10, "status"},
                                       {11, "user"},
                                       {12, "group"},
                                       {13, "executable"},
                                       {14, "queue"},
                                       {15, "partition"},
                                       {16, "preceding job"},
                                       {17, "think time"}};

// "; Key: value" -> (Key, value); nullopt for other comment lines.
std::optional<std::pair<std::string, std::string>> header_entry(const std::string& line) {
  const std::string_view body = trim(std::string_view(line).substr(1));
  const auto colon = body.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string_view key = trim(body.substr(0, colon));
  if (key.empty() || key.find(' ') != std::string_view::npos) return std::nullopt;
  return std::make_pair(std::string(key), std::string(trim(body.substr(colon + 1))));
}

bool is_integer(double value) { return value == std::floor(value); }

/// A user or queue number as a key of the names the header gives: nothing for
/// a fraction or a number beyond a long long's range (2^63).
std::optional<long long> name_key(double value) {
  if (!is_integer(value) || std::fabs(value) >= 9223372036854775808.0) return std::nullopt;
  return static_cast<long long>(value);
}

std::string status_name(int status) {
  switch (status) {
    case 1:
      return "completed";
    case 0:
      return "failed";
    case 5:
      return "cancelled";
    default:
      return "unknown";
  }
}

}  // namespace

TraceReadResult read_swf_trace(const std::string& path, const TraceReadOptions& options) {
  std::ifstream in = open_trace_file(path);
  return parse_swf_trace(in, path, options);
}

TraceReadResult parse_swf_trace(std::istream& in, const std::string& file, const TraceReadOptions& options) {
  if (!(options.procs_per_gpu > 0)) throw InputError(file, "", "procs_per_gpu", "must be positive");
  TraceReadResult result;
  result.format = "swf";
  result.work_source = "recorded run time (field 4) on the recorded processors (field 5, else 8) / " +
                       describe_number(options.procs_per_gpu) + " per GPU, taken as measured on " + options.gpu_type;
  SkipLog log(result.skipped, options.strict);

  std::map<long long, std::string> queue_names, user_names;
  std::optional<double> max_procs, max_nodes;
  std::string start_time;
  std::map<long long, std::size_t> line_of_job;
  std::size_t rounded_up = 0, from_requested = 0;
  std::vector<PendingTraceJob> pending;

  TextLines lines(in, file);
  std::string text;
  while (lines.next(text)) {
    const std::size_t line = lines.number();
    const std::string_view trimmed = trim(text);
    if (trimmed.empty()) continue;
    if (trimmed.front() == ';') {
      const auto entry = header_entry(std::string(trimmed));
      if (!entry) continue;
      const auto& [key, value] = *entry;
      if (key == "MaxProcs")
        max_procs = parse_trace_number(value);
      else if (key == "MaxNodes")
        max_nodes = parse_trace_number(value);
      else if (key == "StartTime")
        start_time = value;
      else if (key == "Queue") {
        const std::vector<std::string> words = split_whitespace(value);
        const auto number = words.empty() ? std::nullopt : parse_trace_number(words[0]);
        if (number && words.size() >= 2 && name_key(*number)) queue_names[*name_key(*number)] = words[1];
      } else if (key == "Note") {
        // "; Note: user N = name", as gcsim's writer names users.
        const std::vector<std::string> words = split_whitespace(value);
        const auto number = words.size() >= 4 ? parse_trace_number(words[1]) : std::nullopt;
        if (number && words[0] == "user" && words[2] == "=" && name_key(*number))
          user_names[*name_key(*number)] = std::string(trim(value.substr(value.find('=') + 1)));
      }
      continue;
    }
    ++result.rows;
    TraceRow row(log, file, line, split_whitespace(trimmed), kFields);
    double field[kFields];
    for (std::size_t i = 0; i < kFields; ++i) field[i] = row.number(kColumns[i]);
    const double number = field[0], submit = field[1], run_time = field[3], requested_time = field[8];
    const double status = field[10], user = field[11], queue = field[14];
    const TraceColumn &c_number = kColumns[0], &c_submit = kColumns[1], &c_run_time = kColumns[3],
                      &c_status = kColumns[10];
    row.malformed_if(!name_key(number) || number < 1, c_number, "not a job number (an integer >= 1)",
                     row.got(c_number));
    row.malformed_if(!is_integer(status) || status < -1 || status > 5, c_status,
                     "unknown status (expected -1, 0, 1, 2, 3, 4 or 5)", row.got(c_status));
    row.not_replayable_if(status >= 2 && status <= 4, c_status,
                          "partial execution line (status 2, 3 or 4); the job's summary line carries its whole run",
                          "status " + row.text(c_status));
    const auto job_number = row ? static_cast<long long>(number) : 0;
    row.first_of(line_of_job, job_number, c_number.name, "duplicate job number", row.text(c_number));
    row.not_replayable_if(submit == -1, c_submit, "submit time unknown (-1)");
    row.malformed_if(submit < 0, c_submit, "negative submit time", "got " + row.text(c_submit));
    row.not_replayable_if(run_time == -1, c_run_time, "run time unknown (-1)");
    row.malformed_if(run_time < 0, c_run_time, "negative run time", "got " + row.text(c_run_time));
    // Allocated processors (field 5), else the requested ones (field 8).
    const bool requested = field[4] == -1 && field[7] != -1;
    const double procs = requested ? field[7] : field[4];
    const std::string& procs_field = kColumns[requested ? 7 : 4].name;
    row.not_replayable_if(procs == -1, kColumns[4], "processor count unknown (-1 in fields 5 and 8)");
    row.malformed_if(procs < 0 || !is_integer(procs), procs_field, "not a processor count (an integer >= 1)",
                     "got " + describe_number(procs));
    row.malformed_if(procs == 0, procs_field, "zero processors");
    row.not_replayable_if(run_time == 0, c_run_time, "ran for 0 s (gcsim replays positive run times)");
    const double gpus = std::ceil(procs / options.procs_per_gpu);
    row.malformed_if(gpus > 4294967295.0, procs_field, "too many processors", "got " + describe_number(procs));
    if (!row) continue;
    if (gpus * options.procs_per_gpu != procs) ++rounded_up;
    if (requested) ++from_requested;

    PendingTraceJob job;
    job.file = file;
    job.line = line;
    job.submit_field = c_submit.name;
    job.run_time_field = c_run_time.name;
    job.estimate_field = kColumns[8].name;
    job.status = status_name(static_cast<int>(status));
    job.spec.id = "swf-" + std::to_string(job_number);
    if (user == -1) {
      job.spec.user = "unknown";
    } else {
      const auto named = name_key(user) ? user_names.find(*name_key(user)) : user_names.end();
      job.spec.user = named != user_names.end() ? named->second : describe_number(user);
    }
    if (queue == -1) {
      job.spec.queue = "unknown";
    } else {
      const auto named = name_key(queue) ? queue_names.find(*name_key(queue)) : queue_names.end();
      job.spec.queue = named != queue_names.end() ? named->second : describe_number(queue);
    }
    job.spec.submit = submit;
    // Field 3, the wait time: -1 when the log does not know it.
    if (field[2] >= 0) job.recorded_start = submit + field[2];
    job.spec.gpus = static_cast<std::uint32_t>(gpus);
    if (requested_time > 0) job.spec.runtime_estimate = requested_time;
    job.spec.work = MeasuredWork{run_time, options.gpu_type};
    pending.push_back(std::move(job));
  }

  const std::optional<double> machine_procs = max_procs ? max_procs : max_nodes;
  // A header of more GPUs than any count holds names no machine; like any
  // header value that is not a number, it is left out.
  if (machine_procs && *machine_procs >= options.procs_per_gpu &&
      below_uint64_limit(*machine_procs / options.procs_per_gpu))
    result.machine_gpus = static_cast<std::uint64_t>(std::floor(*machine_procs / options.procs_per_gpu));
  result.assumptions = {"SWF logs come from CPU machines: " + describe_number(options.procs_per_gpu) +
                            " processor(s) per GPU, a job asks for ceil(processors / " +
                            describe_number(options.procs_per_gpu) + ") GPUs",
                        "SWF names no GPU type: run times are taken as measured on " + options.gpu_type,
                        "submit times are seconds since the log's UnixStartTime" +
                            (start_time.empty() ? std::string() : " (" + start_time + ")") +
                            "; the recorded wait time is not used, gcsim simulates queueing",
                        "CPU time, memory, group, executable, partition and job dependencies are not modelled"};
  result.assume_for(rounded_up, " jobs' processor counts are not multiples of " +
                                    describe_number(options.procs_per_gpu) + ": rounded up to whole GPUs");
  result.assume_for(from_requested, " jobs have no allocated processor count: the requested count (field 8) is used");
  finish_trace(std::move(pending), options, 0.0, log, result);
  return result;
}

namespace {

// Numbers for names: names that are numbers keep them, "unknown" is -1, and
// other names get 1, 2, ... in order of first appearance, skipping the
// numbers that names already are.
class SwfNumbering {
 public:
  explicit SwfNumbering(const std::vector<std::string>& names) {
    std::set<long long> taken;
    for (const std::string& name : names)
      if (auto n = as_number(name)) taken.insert(*n);
    long long next = 0;
    for (const std::string& name : names) {
      if (name == "unknown" || as_number(name) || numbers_.count(name)) continue;
      do ++next;
      while (taken.count(next));
      numbers_[name] = next;
      named_.emplace_back(next, name);
    }
  }
  long long number(const std::string& name) const {
    if (name == "unknown") return -1;
    if (auto n = as_number(name)) return *n;
    return numbers_.at(name);
  }
  const std::vector<std::pair<long long, std::string>>& named() const { return named_; }

 private:
  static std::optional<long long> as_number(const std::string& name) {
    if (name.empty() || name.size() > 15) return std::nullopt;
    for (char c : name)
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    return std::stoll(name);
  }
  std::map<std::string, long long> numbers_;
  std::vector<std::pair<long long, std::string>> named_;
};

int swf_status(std::string status) {
  for (char& c : status) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (status == "completed" || status == "terminated" || status == "pass") return 1;
  if (status == "failed" || status == "timeout" || status == "node_fail") return 0;
  if (status == "cancelled" || status == "killed" || status == "interrupted") return 5;
  return -1;
}

// "swf-N" -> N.
std::optional<long long> swf_job_number(const std::string& id) {
  if (id.rfind("swf-", 0) != 0 || id.size() == 4 || id.size() > 19) return std::nullopt;
  for (std::size_t i = 4; i < id.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(id[i]))) return std::nullopt;
  const long long n = std::stoll(id.substr(4));
  if (n < 1) return std::nullopt;
  return n;
}

std::string job_where(std::size_t index, const JobSpec& job) {
  return "jobs[" + std::to_string(index) + "] (id '" + job.id + "')";
}

}  // namespace

std::string swf_text(const std::vector<JobSpec>& jobs, const SwfWriteOptions& options) {
  if (options.procs_per_gpu < 1) throw std::invalid_argument("procs_per_gpu must be at least 1");
  if (!options.job_status.empty() && options.job_status.size() != jobs.size())
    throw std::invalid_argument("job_status must be empty or hold one status per job");
  std::string gpu_type;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const auto* measured = std::get_if<MeasuredWork>(&jobs[i].work);
    if (is_cpu_job(jobs[i].work))
      throw InputError("", job_where(i, jobs[i]), "cpu",
                       "SWF counts processors, not a CPU job's cores beside GPU jobs; write this workload in the "
                       "native format");
    if (!measured)
      throw InputError("", job_where(i, jobs[i]), std::string(form_name(jobs[i].work)),
                       "SWF holds recorded run times only; a " + std::string(form_name(jobs[i].work)) +
                           " job's run time depends on the cluster");
    if (jobs[i].gpu_share < 1)
      throw InputError("", job_where(i, jobs[i]), "gpu_share",
                       "SWF has no field for a share of a GPU; write this workload in the native format");
    if (gpu_type.empty()) gpu_type = measured->gpu_type;
    if (measured->gpu_type != gpu_type)
      throw InputError("", job_where(i, jobs[i]), "duration.gpu_type",
                       "SWF names no GPU type per job; this job's run time is measured on " + measured->gpu_type +
                           ", earlier ones on " + gpu_type);
  }

  std::vector<std::size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return jobs[a].submit < jobs[b].submit; });

  std::vector<long long> numbers(jobs.size());
  std::set<long long> used;
  bool keep_numbers = true;
  for (std::size_t i = 0; i < jobs.size() && keep_numbers; ++i) {
    const auto n = swf_job_number(jobs[i].id);
    keep_numbers = n && used.insert(*n).second;
    if (keep_numbers) numbers[i] = *n;
  }
  if (!keep_numbers)
    for (std::size_t k = 0; k < order.size(); ++k) numbers[order[k]] = static_cast<long long>(k + 1);

  std::vector<std::string> users, queues;
  for (std::size_t i : order) {
    users.push_back(jobs[i].user);
    queues.push_back(jobs[i].queue);
  }
  const SwfNumbering user_numbers(users), queue_numbers(queues);

  std::ostringstream out;
  out << "; Version: 2.2\n";
  out << "; Computer: " << options.computer << "\n";
  out << "; Note: written by gcsim; processors are GPUs x " << options.procs_per_gpu;
  if (!gpu_type.empty()) out << "; run times measured on " << gpu_type << " GPUs";
  out << "\n";
  out << "; MaxJobs: " << jobs.size() << "\n";
  out << "; MaxRecords: " << jobs.size() << "\n";
  if (options.machine_gpus) out << "; MaxProcs: " << *options.machine_gpus * options.procs_per_gpu << "\n";
  if (!queue_numbers.named().empty()) out << "; MaxQueues: " << queue_numbers.named().size() << "\n";
  for (const auto& [number, name] : queue_numbers.named()) out << "; Queue: " << number << " " << name << "\n";
  for (const auto& [number, name] : user_numbers.named()) out << "; Note: user " << number << " = " << name << "\n";
  out << ";\n";
  for (std::size_t i : order) {
    const JobSpec& job = jobs[i];
    const double seconds = std::get<MeasuredWork>(job.work).seconds;
    const std::uint64_t procs = std::uint64_t{job.gpus} * options.procs_per_gpu;
    const int status = options.job_status.empty() ? -1 : swf_status(options.job_status[i]);
    out << numbers[i] << ' ' << exact_decimal(job.submit) << " -1 " << exact_decimal(seconds) << ' ' << procs
        << " -1 -1 " << procs << ' ' << (job.runtime_estimate > 0 ? exact_decimal(job.runtime_estimate) : "-1")
        << " -1 " << status << ' ' << user_numbers.number(job.user) << " -1 -1 " << queue_numbers.number(job.queue)
        << " -1 -1 -1\n";
  }
  return out.str();
}

}  // namespace gcsim
