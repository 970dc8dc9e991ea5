// serving_deployments.hpp: the serving deployments of a run and the jobs
// that are their replicas (ServingWork), beside their controllers
// (serving_controller.hpp).
//
// A deployment is known by its first replica's job; its other replicas
// follow that job in the workload. The deployments listen to the engine's
// events (engine_events.hpp): a replica started, preempted (or on a failed
// node) or failed is told to its deployment's controller. What a controller
// asks of the engine (replicas to submit and take back, its end) the
// scheduler's loop carries out.
//
//   ServingDeployments serving(jobs);
//   events.subscribe(serving);
//   if (ServingController* deployment = serving.of(job)) ...;
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "sim/engine/engine_events.hpp"
#include "sim/engine/serving_controller.hpp"

namespace gcsim {

class ServingDeployments : public EngineListener {
 public:
  explicit ServingDeployments(const std::vector<JobSpec>& jobs);

  bool any() const { return !deployments_.empty(); }
  /// The deployment a replica job belongs to; null for any other job.
  ServingController* of(JobIndex job) {
    if (deployment_of_.empty() || deployment_of_[job] == kNone) return nullptr;
    return &deployments_[deployment_of_[job]];
  }
  bool is_replica(JobIndex job) const { return !deployment_of_.empty() && deployment_of_[job] != kNone; }
  /// Every deployment, in workload order.
  std::vector<ServingController>& all() { return deployments_; }
  /// When a deployment next has something to do (kNever: none has).
  Time next_event() const;
  /// Each deployment's figures up to `now`, in workload order.
  std::vector<ServingOutcome> outcomes(Time now);

  void on_started(const RunStarted& e) override;
  void on_preempted(const RunPreempted& e) override;
  void on_failed(const JobFailed& e) override;

 private:
  static constexpr std::uint32_t kNone = static_cast<std::uint32_t>(-1);
  std::vector<ServingController> deployments_;
  std::vector<std::uint32_t> deployment_of_;  // per job (empty when the workload has no deployment)
};

}  // namespace gcsim
