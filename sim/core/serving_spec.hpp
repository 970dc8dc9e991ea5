// serving_spec.hpp: a model-serving deployment as the workload describes it:
// its requests, what one replica serves, its autoscaler and its rollouts.
//
// A deployment is read as a set of replica jobs (ServingWork), one per
// replica it may ever run at once: its replicas are scheduled by the policy
// like any job, and the engine's serving controller
// (sim/engine/serving_controller.hpp) submits and withdraws them as its
// autoscaler decides. The request model is sim/model/serving_queue.hpp, the
// autoscaler's rule sim/model/horizontal_autoscaler.hpp.
//
//   ServingSpec s;
//   s.length = 86400; s.rates = {{0, 300}}; s.throughput = 100; s.latency = 0.05;
//   s.autoscaled = true; s.min_replicas = 2; s.max_replicas = 8; s.target = 0.7;
//   s.slots();  // 8 replica jobs
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/ids.hpp"

namespace gcsim {

/// From `at` seconds after the deployment starts, requests arrive at `rate` a second (Poisson).
struct RequestRate {
  Time at = 0;
  double rate = 0;
};

/// Rolling out a new model version at `at` seconds after the start: new
/// replicas replace the old ones, at most `max_surge` beyond the desired
/// count at once and at most `max_unavailable` below it (Kubernetes'
/// RollingUpdate strategy).
struct ServingRollout {
  Time at = 0;
  std::uint32_t max_surge = 1;
  std::uint32_t max_unavailable = 0;
};

struct ServingSpec {
  std::string id;   // the deployment's id (its first replica job's)
  Time length = 0;  // seconds it serves from its start
  // Piecewise constant, in increasing `at`, the first at 0.
  std::vector<RequestRate> rates;
  double throughput = 0;       // requests a second one replica serves at most
  double latency = 0;          // seconds one request takes alone on a replica
  bool shared_queue = true;    // one queue for all replicas; false: one per replica, requests spread at random
  Time slo = 0;                // a request slower than this is late; 0: no SLO
  double queue_limit = 0;      // requests that may wait per ready replica; 0: no limit
  Time startup = 0;            // seconds a replica takes from its start to serving (loading the model)
  std::uint32_t replicas = 1;  // at the start (and throughout without an autoscaler)

  // The Horizontal Pod Autoscaler, when `autoscaled`.
  bool autoscaled = false;
  bool utilization_metric = true;  // the replicas' busy fraction; false: requests a second per ready replica
  double target = 0;
  std::uint32_t min_replicas = 1;
  std::uint32_t max_replicas = 1;
  Time sync_period = 15;
  Time scale_down_window = 300;
  double tolerance = 0.1;

  std::vector<ServingRollout> rollouts;  // in increasing `at`

  /// Replica jobs the deployment is read as: the most replicas it may run at
  /// once, rollouts' surges included.
  std::uint32_t slots() const {
    std::uint32_t surge = 0;
    for (const ServingRollout& rollout : rollouts) surge = std::max(surge, rollout.max_surge);
    return (autoscaled ? std::max(max_replicas, replicas) : replicas) + surge;
  }
};

/// One replica job of a deployment: slot 0 is the deployment's own job (its
/// id, submit time and dependencies); the others, "id#2", "id#3"..., are
/// submitted only by the serving controller.
struct ServingWork {
  std::shared_ptr<const ServingSpec> deployment;
  std::uint32_t slot = 0;
};

}  // namespace gcsim
