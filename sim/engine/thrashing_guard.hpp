// thrashing_guard.hpp: stops a run whose preemptions keep throwing work away
// while no job finishes.
//
// A job without checkpoints starts over when it is preempted. Under a
// preemptive policy, jobs can then take turns preempting each other forever,
// every run thrown away before it ends: Tiresias replaying jobs as large as
// the cluster does it at its default knob. Simulated time advances, nothing
// finishes, and the run would never end. The guard keeps two sums over the
// window since the last job finished (or since the first submission): the
// GPU time preemptions threw away, and the GPU time the unfinished jobs
// needed when the window opened (each one's uncontended run time x GPUs x
// share, less what its checkpoints had kept), plus the need of the jobs
// submitted since. What checkpoints keep during the window does not shrink
// the second sum: jobs that move forward from checkpoint to checkpoint end
// before they have thrown away that much. Once the first sum exceeds
// kLostToNeededLimit times the second, the cluster has thrown away three
// times the GPU time that running every unfinished job to its end would have
// taken, without finishing any: the engine stops the run with a
// ThrashingReport. Runs that do end get there well before: replaying 4 to 13
// jobs as large as a 64-GPU cluster under tiresias (promote_knob 4 to 32),
// those that finished threw away at most 1.64 times that need between two
// completions; those that never finish grow without bound.
//
// It listens to the engine's events (engine_events.hpp) of GPU jobs other
// than serving replicas (a replica has no work to throw away).
//
//   ThrashingGuard guard(need_per_job);
//   guard.submitted(job, now);
//   guard.preempted(job, saved_before, saved_after, lost_gpu_seconds);
//   if (auto report = guard.thrashing(now)) stop the run with *report;
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/engine/engine_events.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

class ThrashingGuard : public EngineListener {
 public:
  static constexpr double kLostToNeededLimit = 3;

  /// `need_gpu_seconds`: per job, its whole work in GPU-seconds (infinite
  /// when unknown, which turns the guard off while that job is unfinished).
  explicit ThrashingGuard(std::vector<double> need_gpu_seconds);

  void submitted(JobIndex job, Time now);
  /// The job kept `saved_after` of its work (it had `saved_before`) and its
  /// preempted run threw `lost_gpu_seconds` away.
  void preempted(JobIndex job, double saved_before, double saved_after, double lost_gpu_seconds);
  /// The job ended; it had kept `saved` of its work before its last run.
  void finished(JobIndex job, double saved, Time now);

  /// Set once the GPU time thrown away since the last completion exceeds
  /// kLostToNeededLimit times what the unfinished jobs needed then.
  std::optional<ThrashingReport> thrashing(Time now) const;

  void on_submitted(const JobSubmitted& e) override;
  void on_preempted(const RunPreempted& e) override;
  void on_finished(const JobFinished& e) override;
  void on_failed(const JobFailed& e) override;

 private:
  std::vector<double> need_;
  double remaining_ = 0;     // unfinished jobs' remaining need now, finite part
  double window_need_ = 0;   // their need when the window opened, plus later submissions'
  std::size_t unknown_ = 0;  // unfinished jobs whose need is unknown
  std::size_t unfinished_ = 0;
  double lost_since_ = 0;
  Time since_ = kNever;
};

}  // namespace gcsim
