// checkpoint_model.hpp: what a preempted job keeps, and what its own
// checkpoints cost.
//
// A run checkpoints after every `interval` seconds of work; each checkpoint
// pauses it for `save_cost`, so its work advances at 1 / (1 + save_cost /
// interval) of wall time. Preempted `elapsed` seconds after its work began,
// it keeps the work up to its last checkpoint and loses the rest. A job that
// checkpoints at preemption saves when told to stop: the save takes the last
// `save_cost` seconds before it stops, and it keeps the work done until the
// save began. Work done is the run's work at its uncontended speed, the
// measure its periodic checkpoints use too.
//
//   RunProgress p = progress_at_preemption(job.checkpoint, 3600, 1000);
//   // p.kept_work_seconds == 900 with a 300 s interval and no save cost
#pragma once

#include "sim/core/job_spec.hpp"

namespace gcsim {

struct RunProgress {
  Time kept_work_seconds = 0;  // work saved by the last checkpoint
  Time lost_seconds = 0;       // wall time since that checkpoint, thrown away
};

/// Checkpoints taken during a run of `work_seconds` of work (none at its very end).
double checkpoint_count(const CheckpointSpec& checkpoint, Time work_seconds);

/// Time the checkpoints of a run of `work_seconds` add to it.
Time checkpoint_overhead(const CheckpointSpec& checkpoint, Time work_seconds);

/// A run of `work_seconds` of work preempted `elapsed` seconds after its work
/// began. Without checkpoints (interval 0, not at preemption) nothing is kept
/// and all is lost.
RunProgress progress_at_preemption(const CheckpointSpec& checkpoint, Time work_seconds, Time elapsed);

}  // namespace gcsim
