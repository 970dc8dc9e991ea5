// plan.hpp: a policy's decisions, as data the engine applies in one
// transaction.
//
// A policy never changes the cluster itself. It records decisions into a Plan;
// the engine validates all of them against the current state and applies them
// together, or rejects the whole plan (a policy bug) with a message naming the
// offending decision. Decisions are applied in the order they were recorded:
// preemptions recorded before an allocation free their GPUs for it.
//
//   plan.allocate(job, {0, 1, 2, 3});
//   plan.allocate(other, {4, 5}, 400);  // this run under a 400 W limit per GPU
//   plan.wake_at(now + 60);  // ask to be called again even if nothing happens
//
// A job starts once it holds all the GPUs it asked for. A policy without gang
// semantics may allocate fewer: the job then holds them, idle, until later
// allocations complete its set (or it releases them), which is how jobs end
// up waiting on each other forever.
#pragma once

#include <stdexcept>
#include <vector>

#include "sim/core/ids.hpp"

namespace gcsim {

/// A plan that breaks an invariant (a GPU given twice, a job started twice...),
/// thrown by the engine's SchedulerState::apply(). This is a bug in the
/// policy, not in the user's input.
class PlanRejected : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct Decision {
  enum class Kind { kAllocate, kPreempt, kRelease };
  Kind kind;
  JobIndex job;
  std::vector<GpuId> gpus;       // kAllocate only: the GPUs added, in ring order
  double power_limit_watts = 0;  // kAllocate only: the run's power limit per GPU (0: none), see Plan::allocate
};

class Plan {
 public:
  /// Give waiting job `job` these GPUs (free and distinct), after those it
  /// already holds; it may not hold more than it asked for. It starts when it
  /// holds all of them, in the order they were given (the ring order).
  /// A `power_limit_watts` > 0 starts that run under a power limit per GPU,
  /// as the job's own JobSpec::power_limit_watts would (its GPUs compute at
  /// the speed and draw the watts of their state within it,
  /// gpu_power_states.hpp); the lower of the two holds when both are set,
  /// and of several allocations completing one run, the lowest. It lasts
  /// for that run: a job preempted, or giving its GPUs back, starts its
  /// next run without it unless asked again.
  void allocate(JobIndex job, std::vector<GpuId> gpus, double power_limit_watts = 0) {
    decisions_.push_back({Decision::Kind::kAllocate, job, std::move(gpus), power_limit_watts});
  }
  /// Stop running job `job`, release its GPUs and put it back in the queue.
  void preempt(JobIndex job) { decisions_.push_back({Decision::Kind::kPreempt, job, {}}); }
  /// A waiting job gives back every GPU it holds.
  void release(JobIndex job) { decisions_.push_back({Decision::Kind::kRelease, job, {}}); }
  /// Ask the engine to call the policy again at time `t` (the earliest
  /// request wins; a time not after now is ignored).
  void wake_at(Time t) {
    if (t < wake_at_) wake_at_ = t;
  }
  /// Drop every decision recorded so far (all-or-nothing policies roll back with it).
  void discard() {
    decisions_.clear();
    wake_at_ = kNever;
  }

  const std::vector<Decision>& decisions() const { return decisions_; }
  Time wake_time() const { return wake_at_; }
  bool empty() const { return decisions_.empty() && wake_at_ == kNever; }

 private:
  std::vector<Decision> decisions_;
  Time wake_at_ = kNever;
};

}  // namespace gcsim
