// serving_controller.hpp: one serving deployment as Kubernetes runs it: a
// Deployment whose replicas the Horizontal Pod Autoscaler adds and removes,
// rolled out to new versions, serving requests as they arrive.
//
// The deployment's replicas are jobs (ServingWork, one per replica it may
// run at once). The controller decides; the engine carries it out: it
// submits the replicas the controller asks for, the policy places them like
// any job (a busy cluster delays a scale-up), and the engine withdraws those
// the controller lets go and tells it when a replica starts or stops.
//
// - The deployment starts when its first replica joins the queue, and asks
//   for its initial replicas then; it ends `length` seconds later, its
//   replicas with it.
// - A replica serves `startup` seconds after it got its GPUs (its model
//   loaded); requests go to the ready replicas only. Preempted, or on a
//   failed node, it queues again and is not ready until it has started anew.
// - Requests: sim/model/serving_queue.hpp, advanced over every span of
//   constant rate and ready replicas.
// - The autoscaler syncs every sync period from the start (the first a
//   period after it), never at the end (sim/model/horizontal_autoscaler.hpp).
//   As Kubernetes' replica calculator, it counts the replicas ready at the
//   sync that report a metric: each one's own over its time ready since the
//   previous sync (its busy fraction, or the requests a second it received);
//   the metric is their mean. One ready only at the sync itself has served
//   no time: it reports nothing yet and counts as not ready.
// - Scaling down, a ReplicaSet's order: replicas waiting for GPUs first,
//   then those starting, then the ready ones, the newest first.
// - A rollout (RollingUpdate) replaces every replica of the old version:
//   new ones are added while the total stays within desired + max_surge and
//   old ones removed while the ready ones stay at least desired -
//   max_unavailable (old ones not ready go first, and need no such care).
//
//   ServingController c(spec, first_slot);
//   std::vector<JobIndex> submit = c.start(now);
//   ... c.replica_running(job, now); ... ServingController::Actions a = c.advance(now);
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/serving_spec.hpp"
#include "sim/model/horizontal_autoscaler.hpp"
#include "sim/model/serving_queue.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

class ServingController {
 public:
  /// `first_slot`: the job of the deployment's first replica; the others
  /// follow it in the workload (spec.slots() jobs in all).
  ServingController(std::shared_ptr<const ServingSpec> spec, JobIndex first_slot, double gpus_per_replica);

  bool started() const { return start_ != kNever; }
  /// When it ends (its start + length); kNever before it starts.
  Time end_time() const { return started() ? start_ + spec_->length : kNever; }
  /// The jobs of its replicas, first to last.
  JobIndex first_job() const { return first_; }
  std::size_t job_count() const { return slots_.size(); }

  /// The first replica joined the queue at `now`: the deployment starts. The
  /// other replicas to submit now.
  std::vector<JobIndex> start(Time now);
  /// A replica of this deployment got its GPUs, or lost them (preempted or
  /// its node failed: it waits again), or failed for good.
  void replica_running(JobIndex job, Time now);
  void replica_stopped(JobIndex job, Time now);
  void replica_failed(JobIndex job, Time now);

  /// When the controller next has something to do (kNever: nothing).
  Time next_event() const;

  struct Actions {
    std::vector<JobIndex> submit;    // pending replicas to submit
    std::vector<JobIndex> withdraw;  // waiting or running replicas to take back
    bool ended = false;              // the deployment ended now: its running replicas finish
  };
  /// Everything due by `now`: the requests up to now, readiness, syncs,
  /// rollouts and the end.
  Actions advance(Time now);

  /// Its figures so far (up to `now`).
  ServingOutcome outcome(Time now);

 private:
  enum class Slot : std::uint8_t { kIdle, kQueued, kRunning, kDead };
  struct Replica {
    Slot slot = Slot::kIdle;
    std::uint32_t version = 0;
    Time running_since = kNever;
    Time ready_at = kNever;
    // What it reports at the next sync, over its time ready since the last
    // one: that time, the requests it received and the seconds it was busy.
    Time reported_seconds = 0;
    double reported_requests = 0;
    Time reported_busy_seconds = 0;
  };

  std::uint32_t ready_count(Time at) const;
  std::uint32_t active(bool current_version) const;  // queued or running
  std::uint32_t ready_of(bool current_version, Time at) const;
  Time next_ready_after(Time at) const;
  // Requests up to `until`, spans split where the rate or the ready replicas change.
  void serve_until(Time until);
  // The reports of the `ready` replicas ready at `from` over a span of `seconds` at `rate`, in which they
  // served `served` requests.
  void report_span(Time from, Time seconds, double rate, double served, std::uint32_t ready);
  void sync(Time now);
  void sample(Time now);
  // Adds and removes replicas toward the desired count (and the rollout).
  void reconcile(Time now, Actions& actions);
  void add(std::uint32_t how_many, Actions& actions);
  // Removes `how_many` replicas of the version (current or old), in a ReplicaSet's order.
  void remove(std::uint32_t how_many, bool current_version, bool ready_too, Time now, Actions& actions);
  void stop_running(Replica& r, Time now);
  // The request rate at `t`, and when it next changes (kNever: never).
  double rate_at(Time t) const;
  Time next_rate_change(Time t) const;

  std::shared_ptr<const ServingSpec> spec_;
  JobIndex first_;
  double gpus_per_replica_;
  std::vector<Replica> slots_;
  ServingQueueModel queue_;
  std::optional<HorizontalAutoscaler> autoscaler_;
  Time start_ = kNever;
  Time served_until_ = 0;
  Time next_sync_ = kNever;
  Time next_sample_ = kNever;
  std::size_t next_rollout_ = 0;
  std::uint32_t version_ = 0;
  std::uint32_t desired_ = 0;
  bool ended_ = false;
  ServingOutcome outcome_;
  Time rollout_started_ = kNever;
  Time last_sample_ = 0;
};

}  // namespace gcsim
