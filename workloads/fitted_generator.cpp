#include "workloads/fitted_generator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "sim/core/portable_random.hpp"

namespace gcsim {
namespace {

constexpr double kHour = 3600;
constexpr const char* kGeneratorName = "gcsim fitted workload";
constexpr std::uint64_t kVersion = 1;

std::string padded_number(std::size_t value, std::size_t width) {
  std::string text = std::to_string(value);
  if (text.size() < width) text.insert(0, width - text.size(), '0');
  return text;
}

/// What is wrong with a run-time table ("field: problem"), or an empty string.
std::string table_problem(const DurationQuantiles& table) {
  if (table.seconds.empty()) return "seconds: expected at least one run time";
  if (table.levels.size() != table.seconds.size()) return "levels: expected one level per run time";
  double previous = 0;
  for (double seconds : table.seconds) {
    if (!(std::isfinite(seconds) && seconds > 0 && seconds >= previous))
      return "seconds: run times must be > 0 and non-decreasing";
    previous = seconds;
  }
  if (table.levels.size() == 1) return "";
  if (table.levels.front() != 0 || table.levels.back() != 1) return "levels: must run from 0 to 1";
  for (std::size_t k = 1; k < table.levels.size(); ++k)
    if (!(table.levels[k] > table.levels[k - 1])) return "levels: must increase strictly";
  return "";
}

/// What is wrong with the model, or an empty string.
std::string model_problem(const FittedWorkloadModel& model) {
  if (!(std::isfinite(model.mean_interarrival_s) && model.mean_interarrival_s > 0))
    return "arrivals.mean_interarrival: must be a time > 0";
  if (!(std::isfinite(model.first_submit_time_of_day_s) && model.first_submit_time_of_day_s >= 0 &&
        model.first_submit_time_of_day_s < 86400))
    return "arrivals.first_submit_time_of_day: must be in [0, 86400) s";
  double rates = 0;
  for (double rate : model.hourly_rate) {
    if (!(std::isfinite(rate) && rate >= 0)) return "arrivals.hourly_rate: rates must be finite and >= 0";
    rates += rate;
  }
  if (!(rates > 0)) return "arrivals.hourly_rate: at least one hour must have a rate > 0";
  if (model.gpu_count_shares.empty()) return "gpu_counts: must list at least one GPU count";
  double shares = 0;
  for (const auto& [gpus, share] : model.gpu_count_shares) {
    if (gpus == 0) return "gpu_counts: GPU counts must be at least 1";
    if (!(std::isfinite(share) && share >= 0)) return "gpu_counts: shares must be finite and >= 0";
    shares += share;
    const auto table = model.durations.find(gpus);
    if (table == model.durations.end() || table->second.seconds.empty())
      return "durations: no run-time quantiles for GPU count " + std::to_string(gpus);
    if (const std::string problem = table_problem(table->second); !problem.empty())
      return "durations." + std::to_string(gpus) + "." + problem;
  }
  if (!(shares > 0)) return "gpu_counts: at least one share must be greater than zero";
  if (model.gpu_type.empty()) return "gpu_type: must not be empty";
  if (model.user_queue_mix.empty()) return "users_queues: must list at least one user and queue";
  double mix = 0;
  for (const UserQueueShare& entry : model.user_queue_mix) {
    if (entry.user.empty() || entry.queue.empty()) return "users_queues: user and queue names must not be empty";
    if (!(std::isfinite(entry.share) && entry.share >= 0)) return "users_queues: shares must be finite and >= 0";
    mix += entry.share;
  }
  if (!(mix > 0)) return "users_queues: at least one share must be greater than zero";
  return "";
}

/// The submission after `t`: the time at which the cumulative arrival
/// intensity has grown by `work` (an exponential draw of mean 1), the rate
/// being constant within each hour of the day.
double next_arrival(const FittedWorkloadModel& model, double t, double work) {
  const double origin = model.first_submit_time_of_day_s;  // time of day of t = 0
  double hour = std::floor((origin + t) / kHour);          // hours since the midnight before t = 0
  if ((hour + 1) * kHour - origin <= t) hour += 1;         // rounding put t on the next hour
  for (;;) {
    const double end = (hour + 1) * kHour - origin;  // > t
    const double rate = model.hourly_rate[static_cast<std::uint64_t>(hour) % 24] / model.mean_interarrival_s;
    const double capacity = rate * (end - t);
    if (rate > 0 && work <= capacity) return t + work / rate;
    work -= capacity;
    t = end;
    hour += 1;
  }
}

double draw_duration(const DurationQuantiles& table, double u) {
  const std::vector<double>& q = table.seconds;
  const std::vector<double>& p = table.levels;
  if (q.size() == 1) return q.front();
  // The band [p[k], p[k + 1]) holding u.
  const std::size_t above = static_cast<std::size_t>(std::upper_bound(p.begin(), p.end(), u) - p.begin());
  const std::size_t k = std::min(above == 0 ? 0 : above - 1, q.size() - 2);
  const double fraction = std::clamp((u - p[k]) / (p[k + 1] - p[k]), 0.0, 1.0);
  if (q[k] == q[k + 1]) return q[k];
  const double low = portable_log(q[k]);
  return std::clamp(portable_exp(low + fraction * (portable_log(q[k + 1]) - low)), q[k], q[k + 1]);
}

// ---- JSON ---------------------------------------------------------------------------------

std::vector<double> read_numbers(const JsonObject& object, const std::string& field) {
  const nlohmann::json& array = object.required_array(field);
  std::vector<double> numbers;
  numbers.reserve(array.size());
  for (const nlohmann::json& value : array) {
    if (!value.is_number()) object.fail(field, "expected an array of numbers, got an element " + value.dump());
    numbers.push_back(value.get<double>());
  }
  return numbers;
}

}  // namespace

std::vector<JobSpec> generate_fitted_workload(const FittedWorkloadModel& model, std::size_t count, std::uint64_t seed) {
  if (const std::string problem = model_problem(model); !problem.empty())
    throw std::invalid_argument("FittedWorkloadModel: " + problem);
  std::vector<double> gpu_weights;
  for (const auto& entry : model.gpu_count_shares) gpu_weights.push_back(entry.second);
  std::vector<double> mix_weights;
  for (const UserQueueShare& entry : model.user_queue_mix) mix_weights.push_back(entry.share);
  const std::size_t id_width = std::max<std::size_t>(4, std::to_string(count).size());

  PortableRandom random(seed);
  std::vector<JobSpec> jobs;
  jobs.reserve(count);
  double now = 0;
  for (std::size_t i = 0; i < count; ++i) {
    // Four raw draws per job, in this order: part of the output's definition.
    const double gap = random.exponential(1.0);
    if (i > 0) now = next_arrival(model, now, gap);
    JobSpec job;
    job.id = "fit-" + padded_number(i + 1, id_width);
    job.submit = now;
    job.gpus = model.gpu_count_shares[random.discrete(gpu_weights)].first;
    const double seconds = draw_duration(model.durations.at(job.gpus), random.uniform());
    const UserQueueShare& owner = model.user_queue_mix[random.discrete(mix_weights)];
    job.user = owner.user;
    job.queue = owner.queue;
    job.work = MeasuredWork{seconds, model.gpu_type};
    jobs.push_back(std::move(job));
  }
  return jobs;
}

nlohmann::json fitted_model_json(const FittedWorkloadModel& model) {
  nlohmann::json gpu_counts = nlohmann::json::object();
  for (const auto& [gpus, share] : model.gpu_count_shares) gpu_counts[std::to_string(gpus)] = share;
  nlohmann::json durations = nlohmann::json::object();
  for (const auto& [gpus, table] : model.durations)
    durations[std::to_string(gpus)] = {{"jobs", table.jobs}, {"levels", table.levels}, {"seconds", table.seconds}};
  nlohmann::json mix = nlohmann::json::array();
  for (const UserQueueShare& entry : model.user_queue_mix)
    mix.push_back({{"user", entry.user}, {"queue", entry.queue}, {"share", entry.share}});
  nlohmann::json source = {{"jobs", model.source_jobs},
                           {"time_of_day", model.wall_clock ? "wall clock" : "from the trace's time 0"}};
  if (!model.source_file.empty()) source["file"] = model.source_file;
  if (!model.source_format.empty()) source["format"] = model.source_format;
  return {
      {"generator", kGeneratorName},
      {"version", kVersion},
      {"source", source},
      {"gpu_type", model.gpu_type},
      {"arrivals",
       {{"mean_interarrival", model.mean_interarrival_s},
        {"first_submit_time_of_day", model.first_submit_time_of_day_s},
        {"hourly_rate", model.hourly_rate}}},
      {"gpu_counts", gpu_counts},
      {"durations", durations},
      {"users_queues", mix},
  };
}

FittedWorkloadModel fitted_model_from_json(const nlohmann::json& doc, const std::string& file) {
  const JsonObject top(doc, {file, ""});
  top.reject_unknown_fields(
      {"generator", "version", "source", "gpu_type", "arrivals", "gpu_counts", "durations", "users_queues"});
  if (top.required_string("generator") != kGeneratorName)
    top.fail("generator", std::string("expected \"") + kGeneratorName + "\" (a file written by gcsim trace fit)");
  if (top.required_uint("version") != kVersion)
    top.fail("version", "this gcsim reads version " + std::to_string(kVersion));

  FittedWorkloadModel model;
  if (top.has("source")) {
    const JsonObject source = top.required_object("source");
    source.reject_unknown_fields({"file", "format", "jobs", "time_of_day"});
    model.source_file = source.optional_string("file", "");
    model.source_format = source.optional_string("format", "");
    model.source_jobs = source.optional_uint("jobs", 0);
    const std::string clock = source.optional_string("time_of_day", "from the trace's time 0");
    if (clock != "wall clock" && clock != "from the trace's time 0")
      source.fail("time_of_day", "expected \"wall clock\" or \"from the trace's time 0\", got \"" + clock + "\"");
    model.wall_clock = clock == "wall clock";
  }
  model.gpu_type = top.required_string("gpu_type");

  const JsonObject arrivals = top.required_object("arrivals");
  arrivals.reject_unknown_fields({"mean_interarrival", "first_submit_time_of_day", "hourly_rate"});
  model.mean_interarrival_s = arrivals.required_quantity("mean_interarrival", Quantity::kTime, true);
  model.first_submit_time_of_day_s = arrivals.required_quantity("first_submit_time_of_day", Quantity::kTime);
  if (model.first_submit_time_of_day_s >= 86400)
    arrivals.fail("first_submit_time_of_day", "must be less than 86400 s (one day)");
  const std::vector<double> rates = read_numbers(arrivals, "hourly_rate");
  if (rates.size() != 24) arrivals.fail("hourly_rate", "expected 24 rates, one per hour of the day");
  double total = 0;
  for (std::size_t h = 0; h < 24; ++h) {
    if (!(std::isfinite(rates[h]) && rates[h] >= 0)) arrivals.fail("hourly_rate", "rates must be >= 0");
    total += rates[h];
  }
  if (!(total > 0)) arrivals.fail("hourly_rate", "at least one hour must have a rate > 0");
  for (std::size_t h = 0; h < 24; ++h) model.hourly_rate[h] = rates[h] * 24 / total;  // mean 1

  const JsonObject counts = top.required_object("gpu_counts");
  for (const auto& [key, value] : counts.value().items()) {
    const std::uint32_t gpus = counts.key_as_count(key, "keys are GPU counts (integers >= 1)");
    if (!value.is_number() || !(value.get<double>() >= 0))
      counts.fail(key, "expected a share (a number >= 0), got " + value.dump());
    model.gpu_count_shares.emplace_back(gpus, value.get<double>());
  }
  // JSON objects have no order: ascending GPU counts make the draws independent of the file's.
  std::sort(model.gpu_count_shares.begin(), model.gpu_count_shares.end());

  const JsonObject durations = top.required_object("durations");
  for (const auto& [key, value] : durations.value().items()) {
    const std::uint32_t gpus = durations.key_as_count(key, "keys are GPU counts (integers >= 1)");
    const JsonObject entry(value, {file, "durations." + key});
    entry.reject_unknown_fields({"jobs", "levels", "seconds"});
    DurationQuantiles table;
    table.jobs = entry.optional_uint("jobs", 0);
    table.levels = read_numbers(entry, "levels");
    table.seconds = read_numbers(entry, "seconds");
    if (const std::string problem = table_problem(table); !problem.empty()) {
      const auto colon = problem.find(": ");
      entry.fail(problem.substr(0, colon), problem.substr(colon + 2));
    }
    model.durations[gpus] = std::move(table);
  }
  for (const auto& [gpus, share] : model.gpu_count_shares)
    if (!model.durations.count(gpus))
      durations.fail(std::to_string(gpus), "no run-time quantiles for this GPU count of 'gpu_counts'");

  const nlohmann::json& mix = top.required_array("users_queues");
  for (std::size_t i = 0; i < mix.size(); ++i) {
    const JsonObject entry(mix[i], {file, "users_queues[" + std::to_string(i) + "]"});
    entry.reject_unknown_fields({"user", "queue", "share"});
    model.user_queue_mix.push_back({entry.required_string("user"), entry.required_string("queue"),
                                    entry.required_quantity("share", Quantity::kPlain)});
  }
  if (const std::string problem = model_problem(model); !problem.empty()) {
    const auto colon = problem.find(": ");
    throw InputError(file, "", problem.substr(0, colon), problem.substr(colon + 2));
  }
  return model;
}

}  // namespace gcsim
