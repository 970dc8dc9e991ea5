// ServingController's autoscaler at its syncs, on hand-counted cases: each
// replica ready at a sync reports its own metric over its time ready in the
// period (its busy fraction, or the requests a second it received), and the
// autoscaler takes their mean, counting those replicas as the ready ones, as
// Kubernetes' replica calculator does with its pods' metrics. Syncs fall
// every sync period from the deployment's start, none at its end. Replicas
// take 1 GPU; the controller is told by hand when they start and stop.
#include "sim/engine/serving_controller.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace gcsim {
namespace {

// 2 replicas at the start, between 1 and 8, synced every 15 s; one request
// alone takes 1 / throughput seconds, so a replica serves one at a time.
std::shared_ptr<const ServingSpec> autoscaled(bool utilization, double target, double rate, double throughput,
                                              Time startup = 0) {
  auto spec = std::make_shared<ServingSpec>();
  spec->id = "svc";
  spec->length = 600;
  spec->rates = {{0, rate}};
  spec->throughput = throughput;
  spec->latency = 1 / throughput;
  spec->startup = startup;
  spec->replicas = 2;
  spec->autoscaled = true;
  spec->utilization_metric = utilization;
  spec->target = target;
  spec->min_replicas = 1;
  spec->max_replicas = 8;
  return spec;
}

// The replicas the autoscaler asked for at its last sync (or sample) by `now`.
std::uint32_t desired(ServingController& deployment, Time now) {
  deployment.advance(now);
  const ServingOutcome outcome = deployment.outcome(now);
  EXPECT_FALSE(outcome.samples.empty());
  EXPECT_EQ(outcome.samples.back().time, now);
  return outcome.samples.back().desired;
}

// 400 requests a second on 2 replicas; one is preempted at 7.5 s. The one
// left received 200 a second, then 400: 300 on average over the period, so
// ceil(1 x 300 / 80) = 4, not the 5 that the period's 400 a second over the
// one replica ready at the sync would ask for.
TEST(ServingControllerSync, RequestsPerReplicaAreEachReadyReplicasOwnOverThePeriod) {
  ServingController deployment(autoscaled(false, 80, 400, 1000), 0, 1);
  EXPECT_EQ(deployment.start(0), std::vector<JobIndex>{1});
  deployment.replica_running(0, 0);
  deployment.replica_running(1, 0);
  deployment.replica_stopped(1, 7.5);
  EXPECT_EQ(desired(deployment, 15), 4u);
}

// 60 requests a second, 100 a replica, loading for 5 s: replica 0 starts at
// 0 (ready at 5 s), replica 1 at 5 s (ready at 10 s). Busy 0.6 alone from
// 5 to 10 s, 0.3 each from 10 to 15 s: replica 0 reports 0.45, replica 1
// 0.3, their mean 0.375; against 0.25, ceil(2 x 1.5) = 3, not the 4 that the
// busy fraction over the ready replica-seconds (0.4) would ask for.
TEST(ServingControllerSync, UtilizationIsTheMeanOfEachReadyReplicasOwnBusyFraction) {
  ServingController deployment(autoscaled(true, 0.25, 60, 100, 5), 0, 1);
  deployment.start(0);
  deployment.replica_running(0, 0);
  deployment.replica_running(1, 5);
  EXPECT_EQ(desired(deployment, 15), 3u);
}

// Both replicas load for 15 s: they are ready at the first sync but served
// no time of its period, so they report nothing yet and the count stays.
TEST(ServingControllerSync, AReplicaReadyOnlyAtTheSyncHasNoMetricYet) {
  for (const bool utilization : {true, false}) {
    SCOPED_TRACE(utilization ? "utilization" : "requests_per_replica");
    ServingController deployment(autoscaled(utilization, utilization ? 0.7 : 80, 400, 100, 15), 0, 1);
    deployment.start(0);
    deployment.replica_running(0, 0);
    deployment.replica_running(1, 0);
    EXPECT_EQ(desired(deployment, 15), 2u);
  }
}

// Started at 100 s for 45 s: syncs at 115 and 130 s; the end at 145 s, a
// sync period after the last, is sampled but decides nothing, though the
// load jumped from 100 to 1000 a second at 130 s.
TEST(ServingControllerSync, SyncsFallEveryPeriodFromTheStartAndNoneAtTheEnd) {
  auto spec = std::make_shared<ServingSpec>(*autoscaled(false, 80, 100, 1000));
  spec->length = 45;
  spec->rates = {{0, 100}, {30, 1000}};
  ServingController deployment(spec, 0, 1);
  deployment.start(100);
  deployment.replica_running(0, 100);
  deployment.replica_running(1, 100);
  EXPECT_EQ(deployment.next_event(), 115);
  EXPECT_EQ(desired(deployment, 115), 2u);
  EXPECT_EQ(deployment.next_event(), 130);
  EXPECT_EQ(desired(deployment, 130), 2u);
  EXPECT_EQ(deployment.next_event(), 145);
  EXPECT_EQ(desired(deployment, 145), 2u);
  const ServingOutcome outcome = deployment.outcome(145);
  ASSERT_EQ(outcome.samples.size(), 3u);
  EXPECT_EQ(outcome.scale_ups, 0u);
  EXPECT_EQ(outcome.end, 145);
}

}  // namespace
}  // namespace gcsim
