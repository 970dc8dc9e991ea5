#include "traces/trace_selection.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

#include "traces/trace_text.hpp"
#include "sim/io/work_horizon.hpp"

namespace gcsim {
namespace {

std::string kept(std::size_t after, std::size_t before) {
  return std::to_string(after) + " of " + std::to_string(before) + " jobs kept";
}

}  // namespace

void apply_trace_selection(TraceReadResult& trace, const TraceSelection& selection) {
  if (selection.from && selection.until && *selection.until <= *selection.from)
    throw std::invalid_argument("the window is empty: 'until' must be after 'from'");
  if (selection.min_gpus && selection.max_gpus && *selection.min_gpus > *selection.max_gpus)
    throw std::invalid_argument("min_gpus must not exceed max_gpus");
  if (selection.sample && !(*selection.sample > 0 && *selection.sample <= 1))
    throw std::invalid_argument("the sample fraction must be in (0, 1]");
  if (!(selection.load_scale > 0) || !std::isfinite(selection.load_scale))
    throw std::invalid_argument("the load scale must be a positive number");

  std::vector<std::string>& report = trace.selection;
  if (!trace.jobs_before_selection) trace.jobs_before_selection = trace.jobs.size();
  if (selection.from || selection.until) {
    const double from = selection.from.value_or(-INFINITY);
    const double until = selection.until.value_or(INFINITY);
    const std::size_t before = trace.jobs.size();
    keep_trace_jobs_if(trace,
                       [&](std::size_t i) { return trace.jobs[i].submit >= from && trace.jobs[i].submit < until; });
    if (selection.from) {
      for (JobSpec& job : trace.jobs) job.submit -= *selection.from;
      trace.time_origin += *selection.from;
    }
    report.push_back("window [" + (selection.from ? describe_number(*selection.from) + " s" : std::string("start")) +
                     ", " + (selection.until ? describe_number(*selection.until) + " s" : std::string("end")) +
                     "): " + kept(trace.jobs.size(), before));
  }
  if (!selection.queues.empty()) {
    const std::size_t before = trace.jobs.size();
    keep_trace_jobs_if(trace, [&](std::size_t i) { return selection.queues.count(trace.jobs[i].queue) > 0; });
    std::string names;
    for (const std::string& queue : selection.queues) names += (names.empty() ? "" : ", ") + queue;
    report.push_back("queues " + names + ": " + kept(trace.jobs.size(), before));
  }
  if (selection.min_gpus || selection.max_gpus) {
    const std::size_t before = trace.jobs.size();
    const std::uint32_t low = selection.min_gpus.value_or(0);
    const std::uint32_t high = selection.max_gpus.value_or(UINT32_MAX);
    keep_trace_jobs_if(trace, [&](std::size_t i) { return trace.jobs[i].gpus >= low && trace.jobs[i].gpus <= high; });
    report.push_back("GPUs " + std::to_string(low) + " to " +
                     (selection.max_gpus ? std::to_string(high) : std::string("any")) + ": " +
                     kept(trace.jobs.size(), before));
  }
  if (selection.sample) {
    const std::size_t before = trace.jobs.size();
    std::mt19937_64 bits(selection.seed);
    std::vector<bool> keep(trace.jobs.size());
    // 53 random bits give a uniform double in [0, 1) exactly, on every platform.
    for (std::size_t i = 0; i < keep.size(); ++i)
      keep[i] = static_cast<double>(bits() >> 11) * 0x1.0p-53 < *selection.sample;
    keep_trace_jobs_if(trace, [&](std::size_t i) { return keep[i]; });
    report.push_back("sample " + describe_number(*selection.sample) + " (seed " + std::to_string(selection.seed) +
                     "): " + kept(trace.jobs.size(), before));
  }
  if (selection.load_scale != 1) {
    for (JobSpec& job : trace.jobs) {
      job.submit /= selection.load_scale;
      if (const auto problem = beyond_horizon(job.submit, HorizonQuantity::kTime))
        throw std::invalid_argument("load scale " + describe_number(selection.load_scale) + " submits job '" + job.id +
                                    "' beyond the horizon: " + *problem);
    }
    trace.calendar_clock = false;
    report.push_back("load scale " + describe_number(selection.load_scale) +
                     ": submit times divided by it, run "
                     "times kept");
  }
}

}  // namespace gcsim
