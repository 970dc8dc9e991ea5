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
  if (checkpoint.interval <= 0) return {0, elapsed};
  const double dilation = 1 + checkpoint.save_cost / checkpoint.interval;
  const Time work_done = std::min(work_seconds, elapsed / dilation);
  const double checkpoints =
      std::min(std::floor(work_done / checkpoint.interval), checkpoint_count(checkpoint, work_seconds));
  const Time kept = checkpoints * checkpoint.interval;
  return {kept, std::max(0.0, elapsed - kept * dilation)};
}

}  // namespace gcsim
