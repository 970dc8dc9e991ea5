// spot_victims.hpp: the running spot jobs a waiting guaranteed job may
// preempt (JobSpec::qos, QosClass), in the order it takes them.
//
// A guaranteed job that finds no room preempts running spot jobs, as few as
// its placement needs (make_room, preemption_room.hpp), in this order:
// lowest priority first, then the most recently started, then the latest in
// the workload. A spot job never preempts, and a guaranteed job is never a
// victim. Spot jobs that share GPUs (gpu_share < 1) are not victims either:
// preempting one frees no whole GPU while its neighbours stay.
// The list is read from the running jobs on the first request in a call
// (O(r + s log s) for r running jobs, s of them spot), not at all when no
// guaranteed job needs room.
//
//   SpotVictims victims(ctx.jobs);
//   RoomForJob room = make_room(spec, victims.walk(), ctx.jobs, cluster, placement, taken, free_gpus);
//   for (JobIndex victim : room.victims) victims.taken(victim), plan.preempt(victim);
#pragma once

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "policies/kit/preemption_room.hpp"
#include "sim/core/queue_view.hpp"

namespace gcsim {

/// Whether any job of the workload is a spot job (read once per policy: the
/// workload's jobs do not change during a run).
bool holds_spot_jobs(const QueueView& jobs);

/// Whether `victim` comes before `other` in the preemption order above.
bool preempted_before(const QueueView& jobs, JobIndex victim, JobIndex other);

class SpotVictims {
 public:
  /// `spared`: running spot jobs the policy keeps out of the order (none when empty).
  explicit SpotVictims(const QueueView& jobs, std::function<bool(JobIndex)> spared = {})
      : jobs_(jobs), spared_(std::move(spared)) {}

  /// A walk of the candidates in order, from the first, skipping those taken.
  NextCandidate walk();
  /// The candidate is preempted in this call: later walks skip it.
  void taken(JobIndex job);
  /// Taken for an attempt that gave up: later walks offer it again.
  void returned(JobIndex job);

 private:
  void list();

  const QueueView& jobs_;
  std::function<bool(JobIndex)> spared_;
  std::optional<std::vector<JobIndex>> order_;  // read on the first walk
  std::vector<bool> taken_;                     // per job: preempted in this call
};

}  // namespace gcsim
