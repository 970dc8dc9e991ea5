#include "sim/engine/thrashing_guard.hpp"

#include <algorithm>
#include <cmath>

namespace gcsim {

ThrashingGuard::ThrashingGuard(std::vector<double> need_gpu_seconds) : need_(std::move(need_gpu_seconds)) {}

void ThrashingGuard::submitted(JobIndex job, Time now) {
  if (since_ == kNever) since_ = now;
  ++unfinished_;
  if (std::isfinite(need_[job])) {
    remaining_ += need_[job];
    window_need_ += need_[job];
  } else {
    ++unknown_;
  }
}

void ThrashingGuard::preempted(JobIndex job, double saved_before, double saved_after, double lost_gpu_seconds) {
  lost_since_ += lost_gpu_seconds;
  if (std::isfinite(need_[job])) remaining_ -= need_[job] * (saved_after - saved_before);
}

void ThrashingGuard::finished(JobIndex job, double saved, Time now) {
  --unfinished_;
  if (std::isfinite(need_[job]))
    remaining_ -= need_[job] * (1 - saved);
  else
    --unknown_;
  // Sums of many terms drift: none is left once no job is.
  if (unfinished_ == 0) remaining_ = 0;
  window_need_ = std::max(0.0, remaining_);
  lost_since_ = 0;
  since_ = now;
}

void ThrashingGuard::on_submitted(const JobSubmitted& e) {
  if (!e.on_cpu && !e.replica) submitted(e.job, e.now);
}

void ThrashingGuard::on_preempted(const RunPreempted& e) {
  if (!e.on_cpu && !e.replica) preempted(e.job, e.saved_before, e.saved_after, e.lost_gpu_seconds);
}

void ThrashingGuard::on_finished(const JobFinished& e) {
  if (!e.on_cpu && !e.replica) finished(e.job, e.saved, e.now);
}

void ThrashingGuard::on_failed(const JobFailed& e) {
  if (e.ran() && !e.replica) finished(e.job, e.saved, e.now);
}

std::optional<ThrashingReport> ThrashingGuard::thrashing(Time now) const {
  if (unknown_ > 0 || lost_since_ <= kLostToNeededLimit * window_need_) return std::nullopt;
  return ThrashingReport{now, since_, lost_since_, window_need_, kLostToNeededLimit, unfinished_};
}

}  // namespace gcsim
