#include "workloads/synthetic_generator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"

// The transforms below must give the same bits everywhere, so a compiler may
// not fuse a multiply and an add into one FMA instruction (a single rounding
// instead of two) on the platforms that have one.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

namespace gcsim {
namespace {

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^20 (fdlibm's constants).
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kHalfPi = 1.57079632679489661923;

// sin and cos on [-pi/4, pi/4] by their Taylor series (terms to a^21, below
// 1e-20 there), evaluated in Horner form.
double sin_reduced(double a) {
  const double a2 = a * a;
  double p = 1.0;
  for (int n = 10; n >= 1; --n) p = 1.0 - a2 * p / ((2.0 * n) * (2.0 * n + 1.0));
  return a * p;
}

double cos_reduced(double a) {
  const double a2 = a * a;
  double p = 1.0;
  for (int n = 10; n >= 1; --n) p = 1.0 - a2 * p / ((2.0 * n - 1.0) * (2.0 * n));
  return p;
}

// cos(2 pi u) for u in [0, 1): the turn is split into quarter turns exactly
// (4u and 4u - q are exact), leaving an angle in [-pi/4, pi/4].
double cos_turns(double u) {
  const double t = 4.0 * u;
  const double q = std::floor(t + 0.5);
  const double a = (t - q) * kHalfPi;
  switch (static_cast<int>(q) & 3) {
    case 0:
      return cos_reduced(a);
    case 1:
      return -sin_reduced(a);
    case 2:
      return -cos_reduced(a);
    default:
      return sin_reduced(a);
  }
}

}  // namespace

double portable_log(double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1): exact
  if (m < kSqrtHalf) {
    m *= 2.0;
    --e;
  }
  // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172: the series in
  // s^2 <= 0.0295 is below 1e-18 after 12 terms.
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double q = 1.0 / 25.0;
  for (int n = 11; n >= 0; --n) q = 1.0 / (2.0 * n + 1.0) + s2 * q;
  const double k = static_cast<double>(e);
  return k * kLn2Hi + (k * kLn2Lo + 2.0 * s * q);
}

double portable_exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.1332191019412) return 0.0;
  // x = k ln 2 + r with |r| <= ln2 / 2; e^r by Taylor to r^17 (< 1e-20).
  const double k = std::floor(x * kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double p = 1.0;
  for (int n = 17; n >= 1; --n) p = 1.0 + p * r / n;
  return std::ldexp(p, static_cast<int>(k));
}

double PortableRandom::uniform() { return static_cast<double>(bits_() >> 11) * 0x1.0p-53; }

std::uint64_t PortableRandom::below(std::uint64_t n) {
  // Values below 2^64 mod n would make the low residues more likely.
  const std::uint64_t threshold = (0 - n) % n;
  std::uint64_t x = bits_();
  while (x < threshold) x = bits_();
  return x % n;
}

double PortableRandom::exponential(double mean) { return -mean * portable_log(1.0 - uniform()); }

double PortableRandom::normal() {
  const double u1 = 1.0 - uniform();  // (0, 1]: log stays finite
  const double u2 = uniform();
  return std::sqrt(-2.0 * portable_log(u1)) * cos_turns(u2);
}

double PortableRandom::lognormal(double median, double sigma) { return median * portable_exp(sigma * normal()); }

double PortableRandom::log_uniform(double lo, double hi) {
  const double log_lo = portable_log(lo);
  return portable_exp(log_lo + (portable_log(hi) - log_lo) * uniform());
}

std::size_t PortableRandom::discrete(const std::vector<double>& weights) {
  double total = 0;
  for (double w : weights) total += w;
  const double target = uniform() * total;
  double cumulative = 0;
  std::size_t last_positive = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] <= 0) continue;
    cumulative += weights[i];
    last_positive = i;
    if (target < cumulative) return i;
  }
  return last_positive;  // target rounded onto the total
}

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

#if !defined(__clang__) && defined(__GNUC__)
#pragma GCC pop_options
#endif
