// incremental_policy.hpp: elastic allocation for hyperparameter-search studies.
//
// Semantics: a study (the trials of one search, JobSpec::study) starts as
// soon as one trial fits, instead of waiting for its whole width like a gang;
// it receives more GPUs for further trials as they free up, up to the study's
// max_gpus; and it gives GPUs back, down to its min_gpus, when work of higher
// priority waits: its youngest trials are preempted (they resume from their
// checkpoints later). Jobs that are not trials are gang-scheduled whole.
// Everything is served by priority (higher first), then submission time;
// a job or study that cannot be served does not block those after it.
// A study only yields to strictly higher priority: give studies a lower
// priority than the jobs they should make room for.
// Cost of one call, in waiting jobs w, running jobs r, running trials t
// and GPUs g: every waiting job, and every running one when the workload has
// studies, is grouped into studies and sorted (O((w + r) log(w + r)); O(w)
// when every priority is the same, the queue's order being the units'), the
// running trials put in the order victims are taken (O(r + t log t)); the walk
// stops once no GPU is free and no trial can be taken back; a unit asking more GPUs than are
// free costs a count (O(1)), one that may fit a placement (O(g)), and a job
// that does not fit filters the running trials for victims (O(t), and a
// placement per victim tried): meant for studies of tens to thousands of
// trials, not for 100k-job queues.
// Assumptions: trials of one study are interchangeable, served in trial
// order; preemption only takes GPUs from studies above their minimum.
//
//   IncrementalPolicy incremental(std::make_unique<PackPlacement>());
#pragma once

#include <memory>
#include <optional>

#include "sim/core/policy.hpp"

namespace gcsim {

class IncrementalPolicy final : public SchedulingPolicy {
 public:
  explicit IncrementalPolicy(std::unique_ptr<PlacementPolicy> placement);
  std::string_view name() const override { return "incremental"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;

 private:
  std::unique_ptr<PlacementPolicy> placement_;
  std::optional<bool> workload_has_studies_;  // found at the first call
};

}  // namespace gcsim
