#include "policies/kit/room_left.hpp"

namespace gcsim {

bool RoomLeft::may_fit(const JobSpec& job) {
  if (job.gpu_share >= 1) return job.gpus <= view_.free_gpu_count();
  if (!shares_) shares_.emplace(view_);
  return shares_->may_fit(job);
}

void RoomLeft::take(const std::vector<GpuId>& gpus, const JobSpec& job) {
  view_.take(gpus, job);
  if (shares_) shares_->take(gpus, job);
}

void RoomLeft::release(const std::vector<GpuId>& gpus, const JobSpec& job) {
  view_.release(gpus, job);
  if (shares_) shares_->release(gpus, job);
}

}  // namespace gcsim
