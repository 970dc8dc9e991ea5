#include "sim/engine/serving_deployments.hpp"

#include <algorithm>

#include "sim/core/work_forms.hpp"

namespace gcsim {

ServingDeployments::ServingDeployments(const std::vector<JobSpec>& jobs) {
  for (JobIndex j = 0; j < jobs.size(); ++j) {
    const ServingWork* serving = replica_of(jobs[j].work);
    if (!serving || serving->slot > 0) continue;  // not a deployment's own job
    if (deployment_of_.empty()) deployment_of_.resize(jobs.size(), kNone);
    for (JobIndex k = j; k < j + serving->deployment->slots(); ++k)
      deployment_of_[k] = static_cast<std::uint32_t>(deployments_.size());
    deployments_.emplace_back(serving->deployment, j, jobs[j].gpus * jobs[j].gpu_share);
  }
}

Time ServingDeployments::next_event() const {
  Time next = kNever;
  for (const ServingController& deployment : deployments_) next = std::min(next, deployment.next_event());
  return next;
}

std::vector<ServingOutcome> ServingDeployments::outcomes(Time now) {
  std::vector<ServingOutcome> outcomes;
  for (ServingController& deployment : deployments_) outcomes.push_back(deployment.outcome(now));
  return outcomes;
}

void ServingDeployments::on_started(const RunStarted& e) {
  if (ServingController* deployment = of(e.job)) deployment->replica_running(e.job, e.now);
}

void ServingDeployments::on_preempted(const RunPreempted& e) {
  if (ServingController* deployment = of(e.job)) deployment->replica_stopped(e.job, e.now);
}

void ServingDeployments::on_failed(const JobFailed& e) {
  if (!e.ran()) return;
  if (ServingController* deployment = of(e.job)) deployment->replica_failed(e.job, e.now);
}

}  // namespace gcsim
