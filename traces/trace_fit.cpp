#include "traces/trace_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

namespace gcsim {
namespace {

constexpr double kHour = 3600;
constexpr double kDay = 86400;

/// Quantiles of sorted at `levels`, by linear interpolation between order
/// statistics; the sample itself (levels k / (n - 1)) when it is no larger.
DurationQuantiles quantile_table(const std::vector<double>& sorted, const std::vector<double>& levels) {
  DurationQuantiles table;
  table.jobs = sorted.size();
  if (sorted.size() <= levels.size()) {
    table.seconds = sorted;
    for (std::size_t k = 0; k < sorted.size(); ++k)
      table.levels.push_back(sorted.size() == 1 ? 0.0
                                                : static_cast<double>(k) / static_cast<double>(sorted.size() - 1));
    return table;
  }
  table.levels = levels;
  const double last = static_cast<double>(sorted.size() - 1);
  for (double level : levels) {
    const double position = last * level;
    const std::size_t below = std::min(static_cast<std::size_t>(position), sorted.size() - 2);
    const double fraction = position - static_cast<double>(below);
    table.seconds.push_back(sorted[below] + fraction * (sorted[below + 1] - sorted[below]));
  }
  table.seconds.back() = sorted.back();
  for (std::size_t k = 1; k < table.seconds.size(); ++k)
    table.seconds[k] = std::max(table.seconds[k], table.seconds[k - 1]);  // rounding
  return table;
}

/// Seconds of [from, to] (trace clock) in each hour of the day.
std::array<double, 24> hour_exposure(double from, double to) {
  std::array<double, 24> seconds{};
  for (double hour = std::floor(from / kHour); hour * kHour < to; hour += 1) {
    const double start = std::max(from, hour * kHour), end = std::min(to, (hour + 1) * kHour);
    if (end > start) seconds[static_cast<std::size_t>(std::fmod(hour, 24.0))] += end - start;
  }
  return seconds;
}

}  // namespace

std::vector<double> default_quantile_levels() {
  std::vector<double> levels;
  for (int k = 0; k < 200; ++k) levels.push_back(k / 200.0);
  for (double tail : {0.9975, 0.999, 0.9995, 0.9999, 1.0}) levels.push_back(tail);
  return levels;
}

double time_of_day(double t) {
  const double within = std::fmod(t, kDay);
  return within < 0 ? within + kDay : within;
}

TraceFit fit_workload_model(const std::vector<JobSpec>& all_jobs, const TraceClock& clock,
                            const TraceFitOptions& options) {
  const std::vector<double>& levels = options.quantile_levels;
  bool increasing = levels.size() >= 2 && levels.front() == 0 && levels.back() == 1;
  for (std::size_t k = 1; increasing && k < levels.size(); ++k) increasing = levels[k] > levels[k - 1];
  if (!increasing) throw std::invalid_argument("quantile levels must increase from 0 to 1");
  TraceFit fit;
  FittedWorkloadModel& model = fit.model;
  model.source_file = options.source_file;
  model.source_format = options.source_format;
  model.wall_clock = clock.wall_clock;

  std::vector<const JobSpec*> jobs;
  std::map<std::string, std::size_t> types;
  for (const JobSpec& job : all_jobs)
    if (const auto* measured = std::get_if<MeasuredWork>(&job.work)) {
      jobs.push_back(&job);
      ++types[measured->gpu_type];
    }
  if (jobs.size() < all_jobs.size())
    fit.notes.push_back(std::to_string(all_jobs.size() - jobs.size()) +
                        " jobs record no GPU run time (training work, CPU jobs) and are left out of the fit");
  if (jobs.size() < 2) throw std::invalid_argument("fitting needs at least two jobs with a recorded run time");
  model.source_jobs = jobs.size();
  std::stable_sort(jobs.begin(), jobs.end(), [](const JobSpec* a, const JobSpec* b) { return a->submit < b->submit; });

  // Arrivals.
  const double first = jobs.front()->submit, last = jobs.back()->submit;
  if (!(last > first)) throw std::invalid_argument("every job was submitted at the same time: no arrival rate to fit");
  model.mean_interarrival_s = (last - first) / static_cast<double>(jobs.size() - 1);
  model.first_submit_time_of_day_s = time_of_day(clock.origin_s + first);
  std::array<double, 24> submitted{};
  for (const JobSpec* job : jobs)
    submitted[static_cast<std::size_t>(time_of_day(clock.origin_s + job->submit) / kHour) % 24] += 1;
  const std::array<double, 24> exposure = hour_exposure(clock.origin_s + first, clock.origin_s + last);
  double covered_rate_sum = 0;
  std::size_t covered = 0;
  for (std::size_t h = 0; h < 24; ++h)
    if (exposure[h] > 0) {
      covered_rate_sum += submitted[h] / exposure[h];
      ++covered;
    }
  const double mean_covered = covered_rate_sum / static_cast<double>(covered);
  double rate_sum = 0;
  for (std::size_t h = 0; h < 24; ++h) {
    model.hourly_rate[h] = exposure[h] > 0 ? submitted[h] / exposure[h] : mean_covered;
    rate_sum += model.hourly_rate[h];
  }
  for (double& rate : model.hourly_rate) rate = rate * 24 / rate_sum;
  if (covered < 24)
    fit.notes.push_back("the submissions span less than a day: " + std::to_string(24 - covered) +
                        " hours of the day are never covered and get the mean rate");
  if (!clock.wall_clock)
    fit.notes.push_back("the trace has no calendar times: the time of day counts from the trace's time 0");

  // GPU counts and run times.
  std::map<std::uint32_t, std::vector<double>> run_times;
  for (const JobSpec* job : jobs) run_times[job->gpus].push_back(std::get<MeasuredWork>(job->work).seconds);
  for (auto& [gpus, seconds] : run_times) {
    model.gpu_count_shares.emplace_back(gpus, static_cast<double>(seconds.size()) / static_cast<double>(jobs.size()));
    std::sort(seconds.begin(), seconds.end());
    model.durations[gpus] = quantile_table(seconds, levels);
  }

  // The GPU type the run times were measured on: the most common one.
  const auto most =
      std::max_element(types.begin(), types.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  model.gpu_type = most->first;
  if (types.size() > 1)
    fit.notes.push_back(std::to_string(jobs.size() - most->second) +
                        " jobs' run times were measured on other GPU types than " + most->first +
                        " and are fitted as if measured on it");
  const auto sharing = std::count_if(jobs.begin(), jobs.end(), [](const JobSpec* job) { return job->gpu_share < 1; });
  if (sharing > 0)
    fit.notes.push_back(std::to_string(sharing) +
                        " jobs shared GPUs (gpu_share < 1): they are fitted by their worker count, and the generator "
                        "draws whole-GPU jobs");

  // Users and queues.
  std::map<std::pair<std::string, std::string>, std::size_t> pairs;
  for (const JobSpec* job : jobs) ++pairs[{job->user, job->queue}];
  std::vector<std::pair<std::pair<std::string, std::string>, std::size_t>> ordered(pairs.begin(), pairs.end());
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [names, count] : ordered)
    model.user_queue_mix.push_back(
        {names.first, names.second, static_cast<double>(count) / static_cast<double>(jobs.size())});
  return fit;
}

}  // namespace gcsim
