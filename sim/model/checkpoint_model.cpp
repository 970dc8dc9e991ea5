#include "sim/model/checkpoint_model.hpp"

#include <algorithm>
#include <cmath>

namespace gcsim {

double checkpoint_count(const CheckpointSpec& checkpoint, Time work_seconds) {
  if (checkpoint.interval <= 0 || work_seconds <= 0) return 0;
  return std::ceil(work_seconds / checkpoint.interval) - 1;
}

Time checkpoint_overhead(const CheckpointSpec& checkpoint, Time work_seconds) {
  return checkpoint_count(checkpoint, work_seconds) * checkpoint.save_cost;
}

RunProgress progress_at_preemption(const CheckpointSpec& checkpoint, Time work_seconds, Time elapsed) {
  elapsed = std::max(0.0, elapsed);
  const bool periodic = checkpoint.interval > 0;
  if (!periodic && !checkpoint.at_preemption) return {0, elapsed};
  const double dilation = periodic ? 1 + checkpoint.save_cost / checkpoint.interval : 1;
  Time kept = 0;
  if (periodic) {
    const Time work_done = std::min(work_seconds, elapsed / dilation);
    const double checkpoints =
        std::min(std::floor(work_done / checkpoint.interval), checkpoint_count(checkpoint, work_seconds));
    kept = checkpoints * checkpoint.interval;
  }
  if (checkpoint.at_preemption) {
    const Time save_began = std::max(0.0, elapsed - checkpoint.save_cost);
    kept = std::max(kept, std::min(work_seconds, save_began / dilation));
  }
  return {kept, std::max(0.0, elapsed - kept * dilation)};
}

}  // namespace gcsim
