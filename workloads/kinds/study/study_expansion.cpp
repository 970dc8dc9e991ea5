#include "workloads/kinds/study/study_expansion.hpp"

#include <cmath>
#include <memory>
#include <numeric>

#include "sim/core/portable_random.hpp"

namespace gcsim {

std::uint32_t stopping_rung(std::uint32_t rank, std::uint32_t trials, const SuccessiveHalving& halving) {
  std::uint32_t rung = 0;
  double survivors = trials;
  for (std::uint32_t j = 1; j < halving.rungs; ++j) {
    survivors = std::ceil(survivors / halving.eta);
    if (rank >= survivors) break;
    rung = j;
  }
  return rung;
}

std::vector<JobSpec> expand_study(const StudySpec& study, const KindRegistry& kinds) {
  const JobKind& kind = kinds.writer_of(study.trial_work);
  // Quality ranks: a seeded shuffle of 0..T-1 (Fisher-Yates on the portable generator).
  std::vector<std::uint32_t> rank(study.trials);
  std::iota(rank.begin(), rank.end(), 0u);
  PortableRandom random(study.seed);
  for (std::size_t i = rank.size(); i > 1; --i) std::swap(rank[i - 1], rank[random.below(i)]);

  const std::size_t width = std::to_string(study.trials).size();
  const auto membership =
      std::make_shared<const StudyMembership>(StudyMembership{study.id, study.min_gpus, study.max_gpus});
  std::vector<JobSpec> jobs;
  for (std::uint32_t k = 0; k < study.trials; ++k) {
    JobSpec job;
    std::string number = std::to_string(k + 1);
    job.id = study.id + "/trial-" + std::string(width - number.size(), '0') + number;
    job.user = study.user;
    job.queue = study.queue;
    job.submit = study.submit;
    job.priority = study.priority;
    job.gpus = study.gpus_per_trial;
    job.gpu_memory_bytes = study.gpu_memory_bytes;
    job.checkpoint = study.checkpoint;
    job.study = membership;
    const std::uint32_t rung = stopping_rung(rank[k], study.trials, study.halving);
    const double share = std::pow(study.halving.eta, -static_cast<double>(study.halving.rungs - 1 - rung));
    job.work = kind.trial_work(study.trial_work, share);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace gcsim
