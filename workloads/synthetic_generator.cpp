#include "workloads/synthetic_generator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "sim/core/portable_random.hpp"

namespace gcsim {
namespace {

struct SpecProblem {
  std::string field;  // as named in JSON
  std::string problem;
};

bool positive_finite(double x) { return std::isfinite(x) && x > 0; }

std::optional<SpecProblem> find_spec_problem(const SyntheticWorkloadSpec& spec) {
  if (spec.jobs == 0) return SpecProblem{"jobs", "must be at least 1"};
  if (!std::isfinite(spec.mean_interarrival_s) || spec.mean_interarrival_s < 0)
    return SpecProblem{"mean_interarrival", "must be a finite time >= 0"};
  if (spec.gpu_count_weights.empty()) return SpecProblem{"gpu_count_weights", "must list at least one GPU count"};
  double total = 0;
  std::set<std::uint32_t> counts;
  for (const auto& [gpus, weight] : spec.gpu_count_weights) {
    if (gpus == 0) return SpecProblem{"gpu_count_weights", "GPU counts must be at least 1"};
    if (!counts.insert(gpus).second)
      return SpecProblem{"gpu_count_weights", "GPU count " + std::to_string(gpus) + " is listed twice"};
    if (!std::isfinite(weight) || weight < 0)
      return SpecProblem{"gpu_count_weights", "weights must be finite and >= 0"};
    total += weight;
  }
  if (!(total > 0)) return SpecProblem{"gpu_count_weights", "at least one weight must be greater than zero"};
  if (!positive_finite(spec.duration_median_s)) return SpecProblem{"duration_median", "must be a time > 0"};
  if (!std::isfinite(spec.duration_sigma) || spec.duration_sigma < 0)
    return SpecProblem{"duration_sigma", "must be a finite number >= 0"};
  if (spec.users == 0) return SpecProblem{"users", "must be at least 1"};
  if (spec.queues.empty()) return SpecProblem{"queues", "must name at least one queue"};
  for (const std::string& queue : spec.queues)
    if (queue.empty()) return SpecProblem{"queues", "queue names must not be empty"};
  if (spec.gpu_type.empty()) return SpecProblem{"gpu_type", "must not be empty"};
  if (!(spec.training_share >= 0 && spec.training_share <= 1))
    return SpecProblem{"training_share", "must be between 0 and 1"};
  if (spec.training_share > 0) {
    if (!positive_finite(spec.gpu_flops)) return SpecProblem{"gpu_flops", "must be a FLOP rate > 0"};
    if (!positive_finite(spec.gradient_bytes_min) || !positive_finite(spec.gradient_bytes_max) ||
        spec.gradient_bytes_min > spec.gradient_bytes_max)
      return SpecProblem{"gradient_bytes_min", "need 0 < gradient_bytes_min <= gradient_bytes_max"};
    if (!positive_finite(spec.iteration_time_min_s) || !positive_finite(spec.iteration_time_max_s) ||
        spec.iteration_time_min_s > spec.iteration_time_max_s)
      return SpecProblem{"iteration_time_min", "need 0 < iteration_time_min <= iteration_time_max"};
    if (spec.max_iterations == 0) return SpecProblem{"max_iterations", "must be at least 1"};
  }
  return std::nullopt;
}

std::string padded_number(std::size_t value, std::size_t width) {
  std::string text = std::to_string(value);
  if (text.size() < width) text.insert(0, width - text.size(), '0');
  return text;
}

TrainingWork sized_training(const SyntheticWorkloadSpec& spec, double duration, PortableRandom& random) {
  TrainingWork work;
  work.gradient_bytes = random.log_uniform(spec.gradient_bytes_min, spec.gradient_bytes_max);
  const double iteration_time = random.log_uniform(spec.iteration_time_min_s, spec.iteration_time_max_s);
  const double iterations = std::floor(duration / iteration_time + 0.5);
  work.iterations = static_cast<std::uint64_t>(std::clamp(iterations, 1.0, static_cast<double>(spec.max_iterations)));
  work.flops_per_iteration = spec.gpu_flops * duration / static_cast<double>(work.iterations);
  return work;
}

}  // namespace

std::optional<bool> checkpoint_mode_saves(const std::string& mode) {
  if (mode == "at_preemption") return true;
  if (mode == "none") return false;
  return std::nullopt;
}

std::vector<JobSpec> generate_synthetic_workload(const SyntheticWorkloadSpec& spec, std::uint64_t seed) {
  if (auto problem = find_spec_problem(spec))
    throw std::invalid_argument("SyntheticWorkloadSpec: " + problem->field + ": " + problem->problem);

  std::vector<double> weights;
  for (const auto& entry : spec.gpu_count_weights) weights.push_back(entry.second);
  const std::size_t id_width = std::max<std::size_t>(4, std::to_string(spec.jobs).size());

  PortableRandom random(seed);
  std::vector<JobSpec> jobs;
  jobs.reserve(spec.jobs);
  Time now = 0;
  for (std::size_t i = 0; i < spec.jobs; ++i) {
    // The order of the draws is part of the output's definition.
    if (i > 0) now += random.exponential(spec.mean_interarrival_s);
    JobSpec job;
    job.id = "job-" + padded_number(i + 1, id_width);
    job.submit = now;
    job.gpus = spec.gpu_count_weights[random.discrete(weights)].first;
    const double duration = std::max(1.0, random.lognormal(spec.duration_median_s, spec.duration_sigma));
    const std::uint64_t user = random.below(spec.users);
    job.user = "user-" + std::to_string(user + 1);
    job.queue = spec.queues[user % spec.queues.size()];
    if (random.uniform() < spec.training_share)
      job.work = sized_training(spec, duration, random);
    else
      job.work = MeasuredWork{duration, spec.gpu_type};
    job.checkpoint.at_preemption = spec.checkpoint_at_preemption;
    jobs.push_back(std::move(job));
  }
  return jobs;
}

SyntheticWorkloadSpec synthetic_spec_from_json(const nlohmann::json& doc, const std::string& file_label) {
  const JsonObject config(doc, {file_label, ""});
  config.reject_unknown_fields({"jobs", "mean_interarrival", "gpu_count_weights", "duration_median", "duration_sigma",
                                "users", "queues", "gpu_type", "gpu_flops", "training_share", "gradient_bytes_min",
                                "gradient_bytes_max", "iteration_time_min", "iteration_time_max", "max_iterations",
                                "checkpoint"});
  SyntheticWorkloadSpec spec;
  spec.jobs = config.optional_uint("jobs", spec.jobs, 1);
  spec.mean_interarrival_s = config.optional_quantity("mean_interarrival", Quantity::kTime, spec.mean_interarrival_s);
  if (config.has("gpu_count_weights")) {
    const JsonObject weights = config.required_object("gpu_count_weights");
    spec.gpu_count_weights.clear();
    for (const auto& [key, value] : weights.value().items()) {
      const std::uint32_t gpus =
          weights.key_as_count(key, "keys are GPU counts (integers >= 1), as in {\"1\": 0.5, \"8\": 0.1}");
      if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
        weights.fail(key, "expected a weight (a number >= 0), got " + value.dump());
      spec.gpu_count_weights.emplace_back(gpus, value.get<double>());
    }
    // JSON objects have no order; ascending GPU counts make the draws
    // independent of how the file lists them.
    std::sort(spec.gpu_count_weights.begin(), spec.gpu_count_weights.end());
  }
  spec.duration_median_s = config.optional_quantity("duration_median", Quantity::kTime, spec.duration_median_s, true);
  spec.duration_sigma = config.optional_quantity("duration_sigma", Quantity::kPlain, spec.duration_sigma);
  spec.users = config.optional_uint("users", spec.users, 1);
  if (config.has("queues")) {
    spec.queues.clear();
    for (const nlohmann::json& queue : config.required_array("queues")) {
      if (!queue.is_string() || queue.get<std::string>().empty())
        config.fail("queues", "expected an array of non-empty queue names, got " + queue.dump());
      spec.queues.push_back(queue.get<std::string>());
    }
  }
  spec.gpu_type = config.optional_string("gpu_type", spec.gpu_type);
  spec.gpu_flops = config.optional_quantity("gpu_flops", Quantity::kFlops, spec.gpu_flops, true);
  spec.training_share = config.optional_quantity("training_share", Quantity::kPlain, spec.training_share);
  spec.gradient_bytes_min =
      config.optional_quantity("gradient_bytes_min", Quantity::kBytes, spec.gradient_bytes_min, true);
  spec.gradient_bytes_max =
      config.optional_quantity("gradient_bytes_max", Quantity::kBytes, spec.gradient_bytes_max, true);
  spec.iteration_time_min_s =
      config.optional_quantity("iteration_time_min", Quantity::kTime, spec.iteration_time_min_s, true);
  spec.iteration_time_max_s =
      config.optional_quantity("iteration_time_max", Quantity::kTime, spec.iteration_time_max_s, true);
  spec.max_iterations = config.optional_uint("max_iterations", spec.max_iterations, 1);
  if (config.has("checkpoint")) {
    const std::string mode = config.required_string("checkpoint");
    const std::optional<bool> saves = checkpoint_mode_saves(mode);
    if (!saves)
      config.fail(
          "checkpoint",
          "expected \"at_preemption\" (a preempted job resumes) or \"none\" (it starts over), got '" + mode + "'");
    spec.checkpoint_at_preemption = *saves;
  }

  if (auto problem = find_spec_problem(spec)) config.fail(problem->field, problem->problem);
  return spec;
}

}  // namespace gcsim
