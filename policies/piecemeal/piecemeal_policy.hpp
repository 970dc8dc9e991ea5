// piecemeal_policy.hpp: the non-gang baseline, which can deadlock.
//
// Semantics: a scheduler without gang support sees a distributed job as one
// request per worker, each for one GPU, and grants them as GPUs free up
// (YARN before gang scheduling, a Kubernetes cluster without coscheduling).
// At each call the free GPUs go one at a time to the waiting job that holds
// the fewest so far (ties: submission order), on the lowest-numbered free
// GPU, so concurrent requests interleave. A job that keeps to one GPU type
// (sim/core/node_fit.hpp: may_mix_gpu_types()) takes its first GPU of a type
// the cluster has enough GPUs of for the whole job, and its others of that
// type alone. A job holds what it got, idle,
// until it has all it asked for; then it runs. Two jobs that each hold part
// of the GPUs they need wait on each other forever: the engine detects it
// and ends the run with a diagnosis.
// Option `--policy-opt hold_timeout=SECONDS`: a job that has held GPUs that
// long without starting releases them all and takes none in that call (it
// backs off), which breaks such deadlocks at the cost of idle GPU-time.
// Cost of one call, in waiting jobs w, running jobs r, GPUs g and h jobs
// holding GPUs: O(h) to forget the holders that started; with no GPU free
// and none released, nothing more (O(h) for the wake-up with hold_timeout).
// Otherwise O(w log w) to order the requests by GPUs held, and O(log w) per
// GPU granted to find the neediest request, plus the free GPUs it reads: they
// are listed node by node in GPU order only as far as the grants read them,
// so a call granting k GPUs reads the nodes up to the k-th free GPU (and
// those a request passes over), all n nodes only when the requests outnumber
// the free GPUs: O(h + w log w + n + f log w) at most for f GPUs free. A
// baseline that deadlocks, kept simple.
// Assumptions: no preemption, no priorities, GPU memory respected.
//
//   PiecemealPolicy baseline(/*hold_timeout=*/kNever);
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "sim/core/policy.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {

class PiecemealPolicy final : public SchedulingPolicy {
 public:
  explicit PiecemealPolicy(Time hold_timeout);
  /// Reads `hold_timeout` (seconds > 0); throws std::invalid_argument otherwise.
  static std::unique_ptr<SchedulingPolicy> create(const PolicyOptions& options);

  std::string_view name() const override { return "piecemeal"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;

 private:
  /// Asks to be woken when the first holding job's hold_timeout passes.
  void wake_for_timeouts(Plan& plan) const;

  Time hold_timeout_;
  std::map<JobIndex, Time> holding_since_;  // when each holding job got its first GPU
  std::vector<std::size_t> gpus_of_type_;   // the cluster's GPUs of each type, counted at the first call
};

}  // namespace gcsim
