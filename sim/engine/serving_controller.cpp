#include "sim/engine/serving_controller.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

namespace gcsim {
namespace {

// Without an autoscaler the deployment is sampled once a minute.
constexpr Time kSamplePeriod = 60;

ReplicaService replica_service(const ServingSpec& spec) {
  ReplicaService service;
  service.throughput = spec.throughput;
  service.latency = spec.latency;
  return service;
}

std::optional<HorizontalAutoscaler> autoscaler_of(const ServingSpec& spec) {
  if (!spec.autoscaled) return std::nullopt;
  AutoscalerSpec a;
  a.metric =
      spec.utilization_metric ? AutoscalerSpec::Metric::kUtilization : AutoscalerSpec::Metric::kRequestsPerReplica;
  a.target = spec.target;
  a.min_replicas = spec.min_replicas;
  a.max_replicas = spec.max_replicas;
  a.sync_period = spec.sync_period;
  a.scale_down_window = spec.scale_down_window;
  a.tolerance = spec.tolerance;
  return HorizontalAutoscaler(a);
}

}  // namespace

ServingController::ServingController(std::shared_ptr<const ServingSpec> spec, JobIndex first_slot,
                                     double gpus_per_replica)
    : spec_(std::move(spec)),
      first_(first_slot),
      gpus_per_replica_(gpus_per_replica),
      slots_(spec_->slots()),
      queue_(replica_service(*spec_), spec_->shared_queue ? ServingQueue::kShared : ServingQueue::kPerReplica,
             spec_->slo, spec_->queue_limit),
      autoscaler_(autoscaler_of(*spec_)) {
  outcome_.deployment = spec_->id;
}

std::vector<JobIndex> ServingController::start(Time now) {
  assert(!started() && "a deployment starts once");
  start_ = now;
  served_until_ = now;
  last_sample_ = now;
  outcome_.start = now;
  desired_ = spec_->replicas;
  next_sync_ = now + (autoscaler_ ? spec_->sync_period : kSamplePeriod);
  slots_[0].slot = Slot::kQueued;  // the engine submitted it
  Actions actions;
  add(desired_ - 1, actions);
  return actions.submit;
}

void ServingController::replica_running(JobIndex job, Time now) {
  serve_until(now);
  Replica& r = slots_[job - first_];
  r.slot = Slot::kRunning;
  r.running_since = now;
  r.ready_at = now + spec_->startup;
}

void ServingController::replica_stopped(JobIndex job, Time now) {
  serve_until(now);
  Replica& r = slots_[job - first_];
  stop_running(r, now);
  r.slot = Slot::kQueued;
}

void ServingController::replica_failed(JobIndex job, Time now) {
  serve_until(now);
  Replica& r = slots_[job - first_];
  if (r.slot == Slot::kRunning) stop_running(r, now);
  r.slot = Slot::kDead;
}

void ServingController::stop_running(Replica& r, Time now) {
  if (r.running_since == kNever) return;
  outcome_.gpu_seconds += (now - r.running_since) * gpus_per_replica_;
  r.running_since = kNever;
  r.ready_at = kNever;
  r.reported_seconds = r.reported_requests = r.reported_busy_seconds = 0;  // started again, it reports anew
}

Time ServingController::next_event() const {
  if (!started() || ended_) return kNever;
  Time next = std::min(start_ + spec_->length, next_sync_);
  if (next_rollout_ < spec_->rollouts.size()) next = std::min(next, start_ + spec_->rollouts[next_rollout_].at);
  return std::min(next, next_ready_after(served_until_));
}

Time ServingController::next_ready_after(Time at) const {
  Time next = kNever;
  for (const Replica& r : slots_)
    if (r.slot == Slot::kRunning && r.ready_at > at) next = std::min(next, r.ready_at);
  return next;
}

std::uint32_t ServingController::ready_count(Time at) const {
  std::uint32_t n = 0;
  for (const Replica& r : slots_) n += r.slot == Slot::kRunning && r.ready_at <= at;
  return n;
}

std::uint32_t ServingController::ready_of(bool current_version, Time at) const {
  std::uint32_t n = 0;
  for (const Replica& r : slots_)
    n += r.slot == Slot::kRunning && r.ready_at <= at && (r.version == version_) == current_version;
  return n;
}

std::uint32_t ServingController::active(bool current_version) const {
  std::uint32_t n = 0;
  for (const Replica& r : slots_)
    n += (r.slot == Slot::kQueued || r.slot == Slot::kRunning) && (r.version == version_) == current_version;
  return n;
}

// Rate changes are found in absolute time, start_ + at, as the spans' ends
// are: with t - start_ a change could round to just below itself, and the
// span ending there would last no time, again and again.
double ServingController::rate_at(Time t) const {
  const auto after = std::upper_bound(spec_->rates.begin(), spec_->rates.end(), t,
                                      [this](Time at, const RequestRate& r) { return at < start_ + r.at; });
  return after == spec_->rates.begin() ? 0 : std::prev(after)->rate;
}

Time ServingController::next_rate_change(Time t) const {
  const auto after = std::upper_bound(spec_->rates.begin(), spec_->rates.end(), t,
                                      [this](Time at, const RequestRate& r) { return at < start_ + r.at; });
  return after == spec_->rates.end() ? kNever : start_ + after->at;
}

void ServingController::serve_until(Time until) {
  if (!started() || ended_) return;
  until = std::min(until, start_ + spec_->length);
  while (served_until_ < until) {
    const Time t = served_until_;
    const Time next = std::min({until, next_ready_after(t), next_rate_change(t)});
    const std::uint32_t ready = ready_count(t);
    const double served_before = queue_.served();
    queue_.advance(next - t, rate_at(t), ready);
    report_span(t, next - t, rate_at(t), queue_.served() - served_before, ready);
    outcome_.ready_replica_seconds += ready * (next - t);
    outcome_.most_replicas = std::max(outcome_.most_replicas, ready);
    served_until_ = next;
  }
}

// The ready replicas share the span's requests and work evenly (one queue,
// or requests spread at random over theirs): each received rate x seconds /
// ready requests and was busy served / (ready x throughput) seconds.
void ServingController::report_span(Time from, Time seconds, double rate, double served, std::uint32_t ready) {
  if (ready == 0) return;
  for (Replica& r : slots_) {
    if (r.slot != Slot::kRunning || r.ready_at > from) continue;
    r.reported_seconds += seconds;
    r.reported_requests += rate * seconds / ready;
    r.reported_busy_seconds += served / (ready * spec_->throughput);
  }
}

ServingController::Actions ServingController::advance(Time now) {
  Actions actions;
  if (!started() || ended_) return actions;
  const Time end = start_ + spec_->length;
  serve_until(now);
  if (now >= end) {
    sample(end);
    for (Replica& r : slots_) {
      stop_running(r, end);
      if (r.slot != Slot::kDead) r.slot = Slot::kIdle;
    }
    ended_ = true;
    outcome_.end = end;
    actions.ended = true;
    return actions;
  }
  for (; next_rollout_ < spec_->rollouts.size() && start_ + spec_->rollouts[next_rollout_].at <= now; ++next_rollout_) {
    ++version_;  // a rollout not done yet is overtaken: its duration stays unknown
    rollout_started_ = now;
    outcome_.rollout_seconds.push_back(kNever);
  }
  if (now >= next_sync_) {
    sync(now);
    while (next_sync_ <= now) next_sync_ += autoscaler_ ? spec_->sync_period : kSamplePeriod;
  }
  reconcile(now, actions);
  return actions;
}

void ServingController::sync(Time now) {
  const std::uint32_t ready = ready_count(now);
  const ServingQueueModel::Window window = queue_.take_window();
  if (autoscaler_) {
    // The mean of the reports of the replicas ready now, each over its own time ready in the period.
    std::uint32_t reporting = 0;
    double sum = 0;
    for (const Replica& r : slots_) {
      if (r.slot != Slot::kRunning || r.ready_at > now || r.reported_seconds <= 0) continue;
      ++reporting;
      sum += (spec_->utilization_metric ? r.reported_busy_seconds : r.reported_requests) / r.reported_seconds;
    }
    const double metric = reporting > 0 ? sum / reporting : 0;
    const std::uint32_t desired = autoscaler_->decide(now, desired_, reporting, metric);
    outcome_.scale_ups += desired > desired_;
    outcome_.scale_downs += desired < desired_;
    desired_ = desired;
  }
  for (Replica& r : slots_) r.reported_seconds = r.reported_requests = r.reported_busy_seconds = 0;
  outcome_.samples.push_back({now, desired_, active(true) + active(false), ready, window.arrival_rate,
                              window.busy_fraction, queue_.backlog()});
  last_sample_ = now;
}

void ServingController::sample(Time now) {
  if (now <= last_sample_) return;
  const ServingQueueModel::Window window = queue_.take_window();
  outcome_.samples.push_back({now, desired_, active(true) + active(false), ready_count(now), window.arrival_rate,
                              window.busy_fraction, queue_.backlog()});
  last_sample_ = now;
}

void ServingController::reconcile(Time now, Actions& actions) {
  const std::uint32_t desired = desired_;
  if (active(false) > 0) {
    // Rolling out: old replicas not ready serve nothing and go first; ready
    // ones go while enough stay ready; new ones come within the surge.
    const ServingRollout& rollout = spec_->rollouts[next_rollout_ - 1];
    remove(active(false) - ready_of(false, now), false, false, now, actions);
    const std::uint32_t ready = ready_count(now);
    const std::uint32_t keep = desired > rollout.max_unavailable ? desired - rollout.max_unavailable : 0;
    if (ready > keep) remove(std::min(ready - keep, ready_of(false, now)), false, true, now, actions);
    const std::uint32_t total = active(true) + active(false);
    if (active(true) < desired && total < desired + rollout.max_surge)
      add(std::min(desired - active(true), desired + rollout.max_surge - total), actions);
  } else {
    if (active(true) < desired) add(desired - active(true), actions);
  }
  if (active(true) > desired) remove(active(true) - desired, true, true, now, actions);
  if (rollout_started_ != kNever && active(false) == 0 && ready_of(true, now) >= desired) {
    outcome_.rollout_seconds.back() = now - rollout_started_;
    rollout_started_ = kNever;
  }
}

void ServingController::add(std::uint32_t how_many, Actions& actions) {
  for (std::size_t k = 0; k < slots_.size() && how_many > 0; ++k) {
    Replica& r = slots_[k];
    if (r.slot != Slot::kIdle) continue;
    r.slot = Slot::kQueued;
    r.version = version_;
    actions.submit.push_back(first_ + static_cast<JobIndex>(k));
    --how_many;
  }
}

void ServingController::remove(std::uint32_t how_many, bool current_version, bool ready_too, Time now,
                               Actions& actions) {
  // Rank: waiting for GPUs, then starting, then ready; the newest first in each.
  std::vector<std::pair<std::pair<int, Time>, std::size_t>> candidates;
  for (std::size_t k = 0; k < slots_.size(); ++k) {
    const Replica& r = slots_[k];
    if ((r.version == version_) != current_version) continue;
    if (r.slot == Slot::kQueued) {
      candidates.push_back({{0, -static_cast<Time>(k)}, k});
    } else if (r.slot == Slot::kRunning) {
      const bool ready = r.ready_at <= now;
      if (ready && !ready_too) continue;
      candidates.push_back({{ready ? 2 : 1, -r.running_since}, k});
    }
  }
  std::sort(candidates.begin(), candidates.end());
  for (std::size_t i = 0; i < candidates.size() && i < how_many; ++i) {
    Replica& r = slots_[candidates[i].second];
    stop_running(r, now);
    r.slot = Slot::kIdle;
    actions.withdraw.push_back(first_ + static_cast<JobIndex>(candidates[i].second));
  }
}

ServingOutcome ServingController::outcome(Time now) {
  serve_until(now);
  ServingOutcome out = outcome_;
  for (const Replica& r : slots_)
    if (r.running_since != kNever) out.gpu_seconds += (now - r.running_since) * gpus_per_replica_;
  out.arrived = queue_.arrived();
  out.served = queue_.served();
  out.dropped = queue_.dropped();
  out.late = queue_.late();
  out.p50 = queue_.latency_quantile(0.50);
  out.p95 = queue_.latency_quantile(0.95);
  out.p99 = queue_.latency_quantile(0.99);
  out.mean_latency = queue_.mean_latency();
  return out;
}

}  // namespace gcsim
