// horizontal_autoscaler.hpp: the replica count the Kubernetes Horizontal Pod
// Autoscaler (HPA) asks of a deployment at each of its syncs.
//
// Source: the Kubernetes documentation, "Horizontal Pod Autoscaling"
// (algorithm details, stabilization window), and the controller's
// normalizeDesiredReplicasWithBehaviors with the default behaviours. At every
// sync (sync_period, 15 s by default):
// 1. No ready replica, so no metric: the recommendation is the current count.
// 2. ratio = metric / target, the metric being the mean over the ready
//    replicas of each one's own value (its busy fraction, or the requests a
//    second it received, over its time ready in the sync period), as the
//    replica calculator averages its pods' metrics. Within the tolerance
//    (|ratio - 1| <= tolerance) the recommendation is the current count;
//    otherwise ceil(ratio x ready).
// 3. Scaling up while some replicas are not ready: they count at 0, so the
//    ratio becomes ratio x ready / current; if that is within 1 + tolerance
//    the recommendation is the current count (the new replicas may be enough).
// 4. The recommendation is clamped to [min_replicas, max_replicas].
// 5. Stabilization: scale-up is immediate (no up window, the default);
//    scale-down takes the highest recommendation of the last
//    scale_down_window seconds (those made after now - window, this one
//    included), so the count falls only once a whole window asked for less.
//    A fresh autoscaler remembers nothing, so its first sync may scale down
//    at once, as the controller does after a restart.
// The ceiling forgives a relative 1e-9 of floating error, so that a metric
// of 0.98 against a target of 0.7 on 5 ready replicas asks for 7, not 8
// (0.98 / 0.7 x 5 is 7.000000000000001 in doubles).
//
// Not modelled: the scale-up rate limits (4 pods or 100% per 15 s by default)
// and any scale-down policy, several metrics at once, and the missing-metrics
// rules (a replica ready during the period always reports; one ready only
// from the sync has no metric and counts as not ready).
//
//   HorizontalAutoscaler hpa({.target = 0.5, .min_replicas = 1, .max_replicas = 16});
//   std::uint32_t want = hpa.decide(now, 4, 4, 1.0);  // 8: twice the target
#pragma once

#include <cstdint>
#include <deque>
#include <utility>

#include "sim/core/ids.hpp"

namespace gcsim {

struct AutoscalerSpec {
  enum class Metric { kUtilization, kRequestsPerReplica };
  Metric metric = Metric::kUtilization;  // replicas' busy fraction, or arrivals per second per ready replica
  double target = 0.8;                   // target value of the metric (> 0)
  std::uint32_t min_replicas = 1, max_replicas = 1;
  Time sync_period = 15;         // seconds between decisions
  Time scale_down_window = 300;  // stabilization window for scaling down
  double tolerance = 0.1;
};

class HorizontalAutoscaler {
 public:
  explicit HorizontalAutoscaler(AutoscalerSpec spec);
  const AutoscalerSpec& spec() const { return spec_; }

  /// One sync at `now`: `current` replicas the deployment has (ready or not), `ready` of them ready and reporting a
  /// metric, `metric` the mean of their reports. Returns the replicas it should have. Syncs come in order of time.
  std::uint32_t decide(Time now, std::uint32_t current, std::uint32_t ready, double metric);

 private:
  /// Steps 1 to 4: the replicas the metric asks for, before stabilization.
  std::uint32_t recommend(std::uint32_t current, std::uint32_t ready, double metric) const;
  /// Step 5: remembers the recommendation and applies the scale-down window.
  std::uint32_t stabilize(Time now, std::uint32_t current, std::uint32_t recommendation);

  AutoscalerSpec spec_;
  std::deque<std::pair<Time, std::uint32_t>> recommendations_;  // (sync time, recommendation), oldest first
};

}  // namespace gcsim
