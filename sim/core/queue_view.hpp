// queue_view.hpp: the read-only jobs a policy sees: the waiting queue in
// submission order, the running jobs, and every job's spec and runtime.
//
// The engine's SchedulerState (sim/state/scheduler_state.hpp) implements
// it; a policy receives it in SchedulingContext (policy.hpp) and never sees
// the writable state.
//
//   for (JobIndex job : jobs.waiting())
//     if (jobs.spec(job).gpus <= cluster.free_gpu_count()) ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/job_state.hpp"

namespace gcsim {

/// One job as the scheduler state tracks it while the run goes on (what is
/// reported of it at the end is its JobOutcome, sim/report/run_record.hpp).
struct JobRuntime {
  JobState state = JobState::kPending;
  /// When it joined the queue: its submit time, or for a job that depends on
  /// others (JobSpec::after), when they had all ended (and its delay passed).
  /// Policies order by it.
  Time submitted = kNever;
  Time start = kNever;  // last start
  Time end = kNever;
  /// GPUs held, in ring order: all of them while running; while waiting, the
  /// ones a non-gang policy gave it so far (idle until the set is complete).
  std::vector<GpuId> gpus;
  std::uint32_t preemptions = 0;
  /// GPU-seconds of service received in runs that ended (preempted or
  /// finished); a running job has also received (now - start) * gpus.size()
  /// * gpu_share.
  double attained_gpu_seconds = 0;
  /// Share of the job's work kept by its last checkpoint before a preemption
  /// (0 without checkpoints); its next run does only the rest.
  double saved_fraction = 0;
  /// The power limit per GPU its policy gave this run, or gives the GPUs it
  /// holds while waiting (Plan::allocate; 0: none). Cleared when it gives its
  /// GPUs back (preempted, released, ended). The job's own
  /// JobSpec::power_limit_watts holds besides (run_power_limit(),
  /// gpu_power_states.hpp).
  double power_limit_watts = 0;
};

/// A run of a job beginning or ending, as QueueView::run_log() lists them.
struct RunEvent {
  JobIndex job;
  bool started;  // false: the run ended (the job finished, or was preempted)
};

/// Read-only jobs: the waiting queue in submission order, and every job's state.
class QueueView {
 public:
  virtual ~QueueView() = default;
  /// Waiting jobs, ordered by JobRuntime::submitted then by their order in the workload.
  virtual const std::vector<JobIndex>& waiting() const = 0;
  /// Running jobs, in the order they started.
  virtual const std::vector<JobIndex>& running() const = 0;
  /// Every run that began or ended, in the order it happened; entries are
  /// only ever appended. A policy keeping totals over the running jobs reads
  /// the entries past those it read at its previous call: O(runs changed)
  /// per call where a pass over running() is O(running jobs).
  virtual const std::vector<RunEvent>& run_log() const = 0;
  /// Jobs taken out of the queue other than by a plan (a serving deployment
  /// scaling down, SchedulerState::withdraw()), counted since the run began.
  /// A policy keeping its own order of the waiting jobs looks for the jobs
  /// that left when it changed (WaitingChanges does).
  virtual std::uint64_t withdrawals() const { return 0; }
  virtual const JobSpec& spec(JobIndex job) const = 0;
  virtual const JobRuntime& runtime(JobIndex job) const = 0;
  virtual std::size_t job_count() const = 0;
  /// How long the job would run alone on an empty cluster
  /// (sim/model/duration_oracle.hpp): a lower bound, for oracle policies.
  virtual Time oracle_duration(JobIndex job) const = 0;
};

}  // namespace gcsim
