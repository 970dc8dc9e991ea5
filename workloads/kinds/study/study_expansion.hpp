// study_expansion.hpp: a hyperparameter-search study as the trial jobs it runs.
//
// A study runs `trials` training trials of the same model with different
// hyperparameters, each on `gpus_per_trial` GPUs, and holds between
// `min_gpus` and `max_gpus` GPUs at once. With successive halving (Jamieson &
// Talwalkar 2016; Li et al. 2020 for its asynchronous form) every trial
// first gets the smallest budget; at each of the `rungs` levels only the best
// 1/eta of the trials continue, with eta times the budget, and the last rung
// is the full work. How good a trial is does not depend on scheduling, so
// each trial's quality rank is drawn from the study's seed and its stopping
// rung follows: trial of rank k (0 best) reaches rung j while k < ceil(T /
// eta^j). Its work is that rung's share of the full work (iterations for
// training trials, seconds for measured ones). Dependencies between trials
// of one rung (synchronous halving waits for the rung to fill) are not modelled.
//
//   std::vector<JobSpec> trials = expand_study(study);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "workloads/kinds/kind_registry.hpp"

namespace gcsim {

struct SuccessiveHalving {
  std::uint32_t rungs = 1;  // 1: every trial runs its full work
  double eta = 3;           // reduction factor between rungs
};

struct StudySpec {
  std::string id;
  std::string user = "default";
  std::string queue = "default";
  Time submit = 0;
  std::int64_t priority = 0;
  std::uint32_t trials = 1;
  std::uint32_t gpus_per_trial = 1;
  std::uint32_t min_gpus = 1;
  std::uint32_t max_gpus = 1;
  double gpu_memory_bytes = 0;
  CheckpointSpec checkpoint;
  JobWork trial_work;  // the full work of one trial
  SuccessiveHalving halving;
  std::uint64_t seed = 0;
};

/// Trial jobs "<study>/trial-<k>" (k from 1, zero-padded), all submitted
/// with the study. The kind that writes the trial's work (`kinds`) makes each
/// trial's share of it.
std::vector<JobSpec> expand_study(const StudySpec& study, const KindRegistry& kinds = builtin_kinds());

/// The rung (0-based) a trial of quality rank `rank` (0 best) stops at.
std::uint32_t stopping_rung(std::uint32_t rank, std::uint32_t trials, const SuccessiveHalving& halving);

}  // namespace gcsim
