#include "workloads/native_workload.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kTopLevelFields = {"jobs"};
const std::set<std::string> kJobFields = {"id",        "user",     "queue",    "submit",
                                          "gpus",      "gpu_memory", "cpu_cores", "memory",
                                          "priority",  "runtime_estimate", "checkpoint", "training",
                                          "duration"};
const std::set<std::string> kCheckpointFields = {"interval", "save_cost", "restore_cost"};
const std::set<std::string> kTrainingFields = {"flops_per_iteration", "gradient_bytes", "iterations"};
const std::set<std::string> kDurationFields = {"seconds", "gpu_type"};

std::string job_where(std::size_t index, const std::string& id) {
  std::string where = "jobs[" + std::to_string(index) + "]";
  if (!id.empty()) where += " (id '" + id + "')";
  return where;
}

// A time that may be written negative by mistake: rejected with its own
// message rather than the generic "must not be negative".
Time read_submit_time(const JsonObject& job) {
  const nlohmann::json& v = job.raw("submit");
  std::optional<double> value;
  if (v.is_number()) value = v.get<double>();
  else if (v.is_string()) value = parse_quantity(v.get<std::string>(), Quantity::kTime);
  if (!value) job.fail("submit", "expected " + quantity_hint(Quantity::kTime) + ", got " + v.dump());
  if (*value < 0)
    job.fail("submit", "submit time must be >= 0 (the simulation starts at time 0), got " + v.dump());
  return *value;
}

std::uint32_t read_gpu_count(const JsonObject& job) {
  const std::uint64_t gpus = job.required_uint("gpus", 1);
  if (gpus > std::numeric_limits<std::uint32_t>::max())
    job.fail("gpus", "expected at most " + std::to_string(std::numeric_limits<std::uint32_t>::max()) + " GPUs, got " +
                         std::to_string(gpus));
  return static_cast<std::uint32_t>(gpus);
}

TrainingWork read_training(const JsonObject& job) {
  const JsonObject training = job.required_object("training");
  training.reject_unknown_fields(kTrainingFields);
  TrainingWork work;
  work.flops_per_iteration = training.required_quantity("flops_per_iteration", Quantity::kFlops, true);
  work.gradient_bytes = training.required_quantity("gradient_bytes", Quantity::kBytes);
  work.iterations = training.required_uint("iterations", 1);
  return work;
}

MeasuredWork read_duration(const JsonObject& job) {
  const JsonObject duration = job.required_object("duration");
  duration.reject_unknown_fields(kDurationFields);
  MeasuredWork work;
  work.seconds = duration.required_quantity("seconds", Quantity::kTime, true);
  work.gpu_type = duration.required_string("gpu_type");
  return work;
}

JobSpec read_job(const nlohmann::json& value, std::size_t index, const std::string& file_label) {
  // The id is read first so that every later error names the job.
  const JsonObject unnamed(value, {file_label, job_where(index, "")});
  std::string id;
  if (unnamed.has("id") && unnamed.raw("id").is_string()) id = unnamed.raw("id").get<std::string>();
  const JsonObject job(value, {file_label, job_where(index, id)});
  job.reject_unknown_fields(kJobFields);

  JobSpec spec;
  spec.id = job.required_string("id");
  spec.user = job.optional_string("user", "default");
  spec.queue = job.optional_string("queue", "default");
  spec.submit = read_submit_time(job);
  spec.gpus = read_gpu_count(job);
  spec.gpu_memory_bytes = job.optional_quantity("gpu_memory", Quantity::kBytes, 0);
  spec.cpu_cores = static_cast<std::uint32_t>(job.optional_uint("cpu_cores", 0));
  spec.memory_bytes = job.optional_quantity("memory", Quantity::kBytes, 0);
  spec.priority = job.optional_int("priority", 0);
  spec.runtime_estimate = job.optional_quantity("runtime_estimate", Quantity::kTime, 0);
  if (job.has("checkpoint")) {
    const JsonObject checkpoint = job.required_object("checkpoint");
    checkpoint.reject_unknown_fields(kCheckpointFields);
    spec.checkpoint.interval = checkpoint.required_quantity("interval", Quantity::kTime, true);
    spec.checkpoint.save_cost = checkpoint.optional_quantity("save_cost", Quantity::kTime, 0);
    spec.checkpoint.restore_cost = checkpoint.optional_quantity("restore_cost", Quantity::kTime, 0);
  }

  const bool training = job.has("training");
  const bool duration = job.has("duration");
  if (training && duration)
    job.fail("training", "a job gives exactly one of 'training' or 'duration', this one gives both");
  if (!training && !duration)
    job.fail("training",
             "missing: a job gives exactly one of 'training' (data-parallel training) or 'duration' "
             "(run time measured on a GPU type)");
  if (training) spec.work = read_training(job);
  else spec.work = read_duration(job);
  return spec;
}

}  // namespace

std::vector<JobSpec> read_native_workload(const std::string& path) {
  return parse_native_workload(read_json_file(path), path);
}

std::vector<JobSpec> parse_native_workload(const nlohmann::json& doc, const std::string& file_label) {
  const JsonObject top(doc, {file_label, ""});
  top.reject_unknown_fields(kTopLevelFields);
  const nlohmann::json& list = top.required_array("jobs");
  if (list.empty()) top.fail("jobs", "the workload lists no jobs");

  std::vector<JobSpec> jobs;
  jobs.reserve(list.size());
  std::map<std::string, std::size_t> first_index_of_id;
  for (std::size_t i = 0; i < list.size(); ++i) {
    JobSpec job = read_job(list[i], i, file_label);
    const auto [it, inserted] = first_index_of_id.emplace(job.id, i);
    if (!inserted)
      throw InputError(file_label, job_where(i, job.id), "id",
                       "duplicate job id '" + job.id + "' (first used by jobs[" + std::to_string(it->second) + "])");
    jobs.push_back(std::move(job));
  }
  return jobs;
}

nlohmann::json native_workload_json(const std::vector<JobSpec>& jobs) {
  nlohmann::json list = nlohmann::json::array();
  for (const JobSpec& job : jobs) {
    nlohmann::json entry = {
        {"id", job.id}, {"user", job.user}, {"queue", job.queue}, {"submit", job.submit}, {"gpus", job.gpus}};
    if (job.gpu_memory_bytes != 0) entry["gpu_memory"] = job.gpu_memory_bytes;
    if (job.cpu_cores != 0) entry["cpu_cores"] = job.cpu_cores;
    if (job.memory_bytes != 0) entry["memory"] = job.memory_bytes;
    if (job.priority != 0) entry["priority"] = job.priority;
    if (job.runtime_estimate != 0) entry["runtime_estimate"] = job.runtime_estimate;
    if (job.checkpoint.interval != 0)
      entry["checkpoint"] = {{"interval", job.checkpoint.interval},
                             {"save_cost", job.checkpoint.save_cost},
                             {"restore_cost", job.checkpoint.restore_cost}};
    if (const auto* training = std::get_if<TrainingWork>(&job.work)) {
      entry["training"] = {{"flops_per_iteration", training->flops_per_iteration},
                           {"gradient_bytes", training->gradient_bytes},
                           {"iterations", training->iterations}};
    } else {
      const auto& measured = std::get<MeasuredWork>(job.work);
      entry["duration"] = {{"seconds", measured.seconds}, {"gpu_type", measured.gpu_type}};
    }
    list.push_back(std::move(entry));
  }
  return {{"jobs", std::move(list)}};
}

}  // namespace gcsim
