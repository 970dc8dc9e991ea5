// fitted_generator.hpp: a workload generator fitted to a real trace
// (`gcsim trace fit`), saved as JSON, and the jobs it draws (`gcsim trace synth`).
//
// The model has four independent parts, each fitted by trace_fit.hpp:
//   arrivals    a Poisson process whose rate follows a daily cycle: 24 hourly
//               rates relative to the mean (their mean is 1) times
//               1 / mean_interarrival; the first job arrives at time 0, at
//               the time of day the original's first job did
//   GPU counts  the original's share of jobs per GPU count
//   durations   per GPU count, an empirical quantile table of the run times
//               (run times at increasing levels from 0 to 1), interpolated
//               log-linearly between levels (run times span six decades and
//               are not lognormal, see trace_fit.hpp)
//   users/queues  the original's share of jobs per (user, queue) pair
// Jobs are MeasuredWork on `gpu_type`, the type the original's run times
// were measured on.
//
// The same model, job count and seed give the same jobs bit for bit on every
// platform: the random bits come from PortableRandom (portable_random.hpp)
// and every transform uses IEEE +, -, *, / and portable_log/portable_exp only.
// Each job consumes exactly four raw draws, in this order: its gap to the
// previous job (drawn and not used for the first job), its GPU count, its run
// time, its user and queue.
//
//   FittedWorkloadModel model = fitted_model_from_json(read_json_file("gen.json"), "gen.json");
//   std::vector<JobSpec> jobs = generate_fitted_workload(model, 10000, /*seed=*/7);
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/job_spec.hpp"

namespace gcsim {

/// Run times of the jobs of one GPU count: seconds[k] is the quantile at
/// levels[k]. Levels increase strictly from 0 (the minimum) to 1 (the
/// maximum); a table of one run time has one level, which is not used.
struct DurationQuantiles {
  std::size_t jobs = 0;         // jobs of the original it was fitted on
  std::vector<double> levels;   // in [0, 1], strictly increasing
  std::vector<double> seconds;  // as many, non-decreasing, > 0
};

struct UserQueueShare {
  std::string user;
  std::string queue;
  double share = 0;
};

struct FittedWorkloadModel {
  // Where it was fitted: informative only.
  std::string source_file;
  std::string source_format;
  std::size_t source_jobs = 0;
  /// Whether the time of day is the trace's wall clock (calendar traces) or
  /// counted from the trace's time 0 (traces without calendar times).
  bool wall_clock = false;

  /// Mean gap between consecutive submissions, seconds (> 0).
  double mean_interarrival_s = 0;
  /// Time of day, seconds after midnight, of the first submission.
  double first_submit_time_of_day_s = 0;
  /// Arrival rate in each hour of the day relative to the daily mean; >= 0,
  /// mean 1 (normalised when read).
  std::array<double, 24> hourly_rate{};

  /// (GPU count, share of jobs), ascending GPU counts, shares summing to 1.
  std::vector<std::pair<std::uint32_t, double>> gpu_count_shares;
  /// Run-time quantiles for every GPU count of gpu_count_shares.
  std::map<std::uint32_t, DurationQuantiles> durations;
  /// The GPU type the run times are measured on.
  std::string gpu_type = "V100";
  /// (user, queue) pairs with their share of jobs, most frequent first.
  std::vector<UserQueueShare> user_queue_mix;
};

/// Jobs "fit-0001", "fit-0002", ... (zero-padded to the width of the count),
/// submit times non-decreasing from 0. Throws std::invalid_argument for an
/// inconsistent model (no GPU counts, a GPU count without a run-time table,
/// a non-positive mean inter-arrival, all hourly rates 0, ...).
std::vector<JobSpec> generate_fitted_workload(const FittedWorkloadModel& model, std::size_t jobs, std::uint64_t seed);

/// The model as JSON (docs/trace-replay.md, "Fitting a generator"); numbers
/// are written so that reading them back gives the same model bit for bit.
nlohmann::json fitted_model_json(const FittedWorkloadModel& model);
/// Reads what fitted_model_json writes; unknown fields are rejected, and
/// every problem is an InputError naming `file_label` and the field.
FittedWorkloadModel fitted_model_from_json(const nlohmann::json& doc, const std::string& file_label);

}  // namespace gcsim
