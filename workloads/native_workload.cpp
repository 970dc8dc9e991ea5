#include "workloads/native_workload.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "workloads/study_expansion.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kTopLevelFields = {"jobs", "studies"};
const std::set<std::string> kJobFields = {"id",        "user",     "queue",    "submit",
                                          "gpus",      "gpu_memory", "cpu_cores", "memory",
                                          "priority",  "runtime_estimate", "checkpoint", "training",
                                          "duration", "study"};
const std::set<std::string> kCheckpointFields = {"interval", "save_cost", "restore_cost"};
const std::set<std::string> kMembershipFields = {"id", "min_gpus", "max_gpus"};
const std::set<std::string> kStudyFields = {"id",       "user",     "queue",      "submit",   "priority",
                                            "trials",   "gpus_per_trial", "min_gpus", "max_gpus", "gpu_memory",
                                            "checkpoint", "training", "duration", "successive_halving", "seed"};
const std::set<std::string> kHalvingFields = {"rungs", "eta"};
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

// Exactly one of "training" or "duration".
JobWork read_work(const JsonObject& job) {
  const bool training = job.has("training");
  const bool duration = job.has("duration");
  if (training && duration)
    job.fail("training", "exactly one of 'training' or 'duration' is given, this one gives both");
  if (!training && !duration)
    job.fail("training",
             "missing: exactly one of 'training' (data-parallel training) or 'duration' "
             "(run time measured on a GPU type) is given");
  if (training) return read_training(job);
  return read_duration(job);
}

CheckpointSpec read_checkpoint(const JsonObject& owner) {
  CheckpointSpec spec;
  if (!owner.has("checkpoint")) return spec;
  const JsonObject checkpoint = owner.required_object("checkpoint");
  checkpoint.reject_unknown_fields(kCheckpointFields);
  spec.interval = checkpoint.required_quantity("interval", Quantity::kTime, true);
  spec.save_cost = checkpoint.optional_quantity("save_cost", Quantity::kTime, 0);
  spec.restore_cost = checkpoint.optional_quantity("restore_cost", Quantity::kTime, 0);
  return spec;
}

std::uint32_t read_count(const JsonObject& owner, const std::string& field, std::uint32_t fallback) {
  const std::uint64_t value = owner.optional_uint(field, fallback, 1);
  if (value > std::numeric_limits<std::uint32_t>::max()) owner.fail(field, "too large");
  return static_cast<std::uint32_t>(value);
}

// The GPU bounds shared by a study's trials, checked against the trial size.
void check_study_bounds(const JsonObject& owner, std::uint32_t min_gpus, std::uint32_t max_gpus,
                        std::uint32_t trial_gpus) {
  if (max_gpus < min_gpus)
    owner.fail("max_gpus", "must be at least min_gpus (" + std::to_string(min_gpus) + "), got " +
                               std::to_string(max_gpus));
  if (max_gpus < trial_gpus)
    owner.fail("max_gpus", "must allow one trial of " + std::to_string(trial_gpus) + " GPUs, got " +
                               std::to_string(max_gpus));
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
  spec.checkpoint = read_checkpoint(job);
  if (job.has("study")) {
    const JsonObject study = job.required_object("study");
    study.reject_unknown_fields(kMembershipFields);
    StudyMembership membership;
    membership.id = study.required_string("id");
    membership.min_gpus = read_count(study, "min_gpus", 1);
    membership.max_gpus = read_count(study, "max_gpus", membership.min_gpus);
    check_study_bounds(study, membership.min_gpus, membership.max_gpus, spec.gpus);
    spec.study = membership;
  }

  spec.work = read_work(job);
  return spec;
}

std::string study_where(std::size_t index, const std::string& id) {
  std::string where = "studies[" + std::to_string(index) + "]";
  if (!id.empty()) where += " (id '" + id + "')";
  return where;
}

std::vector<JobSpec> read_study(const nlohmann::json& value, std::size_t index, const std::string& file_label) {
  const JsonObject unnamed(value, {file_label, study_where(index, "")});
  std::string id;
  if (unnamed.has("id") && unnamed.raw("id").is_string()) id = unnamed.raw("id").get<std::string>();
  const JsonObject study(value, {file_label, study_where(index, id)});
  study.reject_unknown_fields(kStudyFields);

  StudySpec spec;
  spec.id = study.required_string("id");
  spec.user = study.optional_string("user", "default");
  spec.queue = study.optional_string("queue", "default");
  spec.submit = read_submit_time(study);
  spec.priority = study.optional_int("priority", 0);
  spec.trials = read_count(study, "trials", 1);
  spec.gpus_per_trial = read_count(study, "gpus_per_trial", 1);
  spec.min_gpus = read_count(study, "min_gpus", spec.gpus_per_trial);
  spec.max_gpus = read_count(study, "max_gpus", spec.min_gpus);
  check_study_bounds(study, spec.min_gpus, spec.max_gpus, spec.gpus_per_trial);
  spec.gpu_memory_bytes = study.optional_quantity("gpu_memory", Quantity::kBytes, 0);
  spec.checkpoint = read_checkpoint(study);
  spec.trial_work = read_work(study);
  spec.seed = study.optional_uint("seed", 0);
  if (study.has("successive_halving")) {
    const JsonObject halving = study.required_object("successive_halving");
    halving.reject_unknown_fields(kHalvingFields);
    spec.halving.rungs = read_count(halving, "rungs", 1);
    spec.halving.eta = halving.optional_quantity("eta", Quantity::kPlain, 3);
    if (spec.halving.eta < 2) halving.fail("eta", "the reduction factor must be at least 2");
  }
  return expand_study(spec);
}

}  // namespace

std::vector<JobSpec> read_native_workload(const std::string& path) {
  return parse_native_workload(read_json_file(path), path);
}

std::vector<JobSpec> parse_native_workload(const nlohmann::json& doc, const std::string& file_label) {
  const JsonObject top(doc, {file_label, ""});
  top.reject_unknown_fields(kTopLevelFields);
  static const nlohmann::json kNone = nlohmann::json::array();
  const nlohmann::json& list = top.has("jobs") || !top.has("studies") ? top.required_array("jobs") : kNone;
  const nlohmann::json& studies = top.has("studies") ? top.required_array("studies") : kNone;
  if (list.empty() && studies.empty()) top.fail("jobs", "the workload lists no jobs");

  std::vector<JobSpec> jobs;
  jobs.reserve(list.size());
  std::map<std::string, std::string> where_of_id;
  auto add = [&](JobSpec job, const std::string& where) {
    const auto [it, inserted] = where_of_id.emplace(job.id, where);
    if (!inserted)
      throw InputError(file_label, where, "id",
                       "duplicate job id '" + job.id + "' (first used by " + it->second + ")");
    jobs.push_back(std::move(job));
  };
  for (std::size_t i = 0; i < list.size(); ++i) {
    JobSpec job = read_job(list[i], i, file_label);
    const std::string where = job_where(i, job.id);
    add(std::move(job), where);
  }
  // A study's trials follow the jobs, in study order.
  for (std::size_t i = 0; i < studies.size(); ++i) {
    std::vector<JobSpec> trials = read_study(studies[i], i, file_label);
    const std::string where = study_where(i, trials.front().study->id);
    for (JobSpec& trial : trials) add(std::move(trial), where);
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
    if (job.study)
      entry["study"] = {{"id", job.study->id}, {"min_gpus", job.study->min_gpus}, {"max_gpus", job.study->max_gpus}};
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
