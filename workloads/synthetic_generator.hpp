// synthetic_generator.hpp: random workloads that are the same everywhere.
//
// Jobs arrive as a Poisson process (exponential gaps, the first job at time
// 0), ask for a GPU count drawn from a weighted list, and run for a lognormal
// time measured on one GPU type. A share of them is emitted as data-parallel
// training (TrainingWork, ring allreduce of the gradients every iteration)
// sized so that their compute alone takes that time on that GPU type; the
// others as measured durations (MeasuredWork). Users are drawn uniformly; a
// user always submits to the same queue (user k to queues[k % queues.size()]).
// By default every job saves its work when preempted.
//
//   SyntheticWorkloadSpec spec;                 // the documented defaults
//   spec.jobs = 500;
//   spec.gpu_flops = layout.spec().gpu_types[layout.find_gpu_type("V100")].flops;
//   std::vector<JobSpec> jobs = generate_synthetic_workload(spec, 42);
//
// The same spec and seed give the same jobs bit for bit on every platform and
// standard library: raw bits come from std::mt19937_64 (its output is fixed by
// the C++ standard) and every transform, down to log, exp, sin and cos, is
// computed with plain IEEE arithmetic (portable_random.hpp) instead of
// std::*_distribution or the platform's libm, both of which differ between
// implementations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/job_spec.hpp"

namespace gcsim {

struct SyntheticWorkloadSpec {
  std::size_t jobs = 100;
  /// Mean gap between consecutive submissions, seconds (Poisson arrivals).
  double mean_interarrival_s = 300;
  /// (GPU count, relative weight); weights need not sum to 1.
  std::vector<std::pair<std::uint32_t, double>> gpu_count_weights = {
      {1, 0.50}, {2, 0.20}, {4, 0.15}, {8, 0.10}, {16, 0.05}};
  /// Run time on `gpu_type` is lognormal: median * exp(sigma * N(0,1)),
  /// raised to at least 1 s.
  double duration_median_s = 1800;
  double duration_sigma = 1.0;
  /// Users are named "user-1" .. "user-<users>".
  std::size_t users = 4;
  std::vector<std::string> queues = {"default"};
  /// The GPU type durations are measured on, and its sustained FLOP/s (used
  /// to size training jobs; set it to the cluster's figure for that type).
  std::string gpu_type = "V100";
  double gpu_flops = 15.7e12;  // V100 as in scenarios/clusters
  /// Fraction of jobs emitted as TrainingWork; the rest are MeasuredWork.
  double training_share = 0.5;
  /// Training jobs: gradient bytes are log-uniform in this range (about
  /// ResNet-50 in fp16 to BERT-base in fp32) ...
  double gradient_bytes_min = 25e6;
  double gradient_bytes_max = 500e6;
  /// ... a target iteration time, log-uniform in this range, sets the
  /// iteration count (duration / iteration time, at most max_iterations) and
  /// the per-GPU FLOPs per iteration then make the compute take exactly the
  /// sampled duration on `gpu_type`. Communication comes on top.
  double iteration_time_min_s = 0.1;
  double iteration_time_max_s = 1.0;
  std::uint64_t max_iterations = 5000;
  /// Every job saves its work when preempted and resumes from it
  /// (CheckpointSpec::at_preemption), as the training frameworks that
  /// preemptive schedulers such as Tiresias assume do; false: a preempted
  /// job starts over.
  bool checkpoint_at_preemption = true;
};

/// A checkpoint mode as written ("at_preemption": true, "none": false), or
/// nullopt for any other text.
std::optional<bool> checkpoint_mode_saves(const std::string& mode);

/// Jobs "job-0001", "job-0002", ... (zero-padded to the width of the count),
/// submit times non-decreasing. Throws std::invalid_argument naming the
/// field when the spec is inconsistent (no GPU-count weights, a share outside
/// [0, 1], ...).
std::vector<JobSpec> generate_synthetic_workload(const SyntheticWorkloadSpec& spec, std::uint64_t seed);

/// Reads a spec from JSON; absent fields keep their defaults, unknown fields
/// are rejected. Fields (times and sizes accept units, e.g. "5min", "100MB"):
///   jobs, mean_interarrival, gpu_count_weights ({"1": 0.5, "8": 0.1}),
///   duration_median, duration_sigma, users, queues (array of names),
///   gpu_type, gpu_flops, training_share, gradient_bytes_min,
///   gradient_bytes_max, iteration_time_min, iteration_time_max, max_iterations,
///   checkpoint ("at_preemption" or "none").
/// Throws InputError naming `file_label` and the field.
SyntheticWorkloadSpec synthetic_spec_from_json(const nlohmann::json& doc, const std::string& file_label);

}  // namespace gcsim
