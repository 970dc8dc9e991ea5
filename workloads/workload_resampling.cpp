#include "workloads/workload_resampling.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "sim/core/portable_random.hpp"

namespace gcsim {
namespace {

std::size_t period_of(const JobSpec& job, Time length) {
  return job.submit <= 0 ? 0 : static_cast<std::size_t>(std::floor(job.submit / length));
}

}  // namespace

std::vector<std::size_t> drawn_periods(std::size_t count, std::uint64_t seed) {
  PortableRandom random(seed);
  std::vector<std::size_t> drawn(count);
  for (std::size_t& period : drawn) period = static_cast<std::size_t>(random.below(count));
  return drawn;
}

ResampledWorkload resample_periods(const std::vector<JobSpec>& jobs, Time length, char tag, std::uint64_t seed) {
  ResampledWorkload out;
  if (jobs.empty()) return out;
  std::size_t periods = 0;
  for (const JobSpec& job : jobs) periods = std::max(periods, period_of(job, length) + 1);
  std::vector<std::vector<JobIndex>> members(periods);  // each period's jobs, in the given order
  for (JobIndex j = 0; j < jobs.size(); ++j) members[period_of(jobs[j], length)].push_back(j);
  out.periods_drawn = drawn_periods(periods, seed);

  for (std::size_t place = 0; place < periods; ++place) {
    const std::size_t period = out.periods_drawn[place];
    const std::string suffix = std::string("@") + tag + std::to_string(place);
    const Time shift = (static_cast<double>(place) - static_cast<double>(period)) * length;
    // Where each of the period's jobs lands in the output, for its dependants.
    std::vector<JobIndex> copy_of(jobs.size(), kNoJob);
    const JobIndex first = static_cast<JobIndex>(out.jobs.size());
    for (std::size_t m = 0; m < members[period].size(); ++m) copy_of[members[period][m]] = first + m;
    for (JobIndex j : members[period]) {
      JobSpec job = jobs[j];
      job.id += suffix;
      job.submit += shift;
      if (job.study) {
        auto study = std::make_shared<StudyMembership>(*job.study);
        study->id += suffix;
        job.study = std::move(study);
      }
      if (!job.after().empty()) {
        std::vector<JobIndex> kept;
        for (JobIndex before : job.after()) {
          if (copy_of[before] != kNoJob)
            kept.push_back(copy_of[before]);
          else
            ++out.dependencies_dropped;
        }
        JobRelations& relations = job.change_relations();
        relations.after = std::move(kept);
        if (relations.after.empty()) relations.after_delay = 0;  // it counts from jobs no longer waited for
      }
      out.jobs.push_back(std::move(job));
    }
  }
  return out;
}

void scale_load(std::vector<JobSpec>& jobs, double factor) {
  for (JobSpec& job : jobs) job.submit /= factor;
}

}  // namespace gcsim
