// The aggregate request model of a serving deployment: replica arithmetic,
// Erlang C, the M/M/c and fluid regimes in closed form, drops, the busy
// window, and its agreement with a per-request simulation of the same model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/core/statistics.hpp"
#include "sim/model/serving_queue.hpp"
#include "sim/model/serving_requests.hpp"

namespace gcsim {
namespace {

// One request at a time, 10 a second per replica: an M/M/1 per replica with mu = 10.
constexpr ReplicaService kSingle{10, 0.1};

double relative_error(double value, double reference) { return std::abs(value - reference) / reference; }

TEST(ServingReplicaService, ConcurrencyIsTheRoundedThroughputLatencyProductAtLeastOne) {
  EXPECT_EQ((ReplicaService{100, 0.01}.concurrency()), 1u);
  EXPECT_EQ((ReplicaService{100, 0.055}.concurrency()), 6u);  // 5.5 rounds up
  EXPECT_EQ((ReplicaService{10, 0.01}.concurrency()), 1u);    // 0.1 rounds to 0, raised to 1
  EXPECT_DOUBLE_EQ((ReplicaService{100, 0.055}.service_seconds()), 6.0 / 100);
  EXPECT_DOUBLE_EQ((ReplicaService{10, 0.01}.service_seconds()), 1.0 / 10);
}

TEST(ServingErlangC, TwoServersAtHalfLoadWaitOneTimeInThree) {
  // B(1) = 1/2, B(2) = 1 x 1/2 / (2 + 1/2) = 1/5, C = B / (1 - rho (1 - B)) = (1/5) / (3/5).
  EXPECT_NEAR(erlang_c(2, 1.0), 1.0 / 3, 1e-15);
}

TEST(ServingErlangC, OneServerWaitsWithProbabilityRho) { EXPECT_NEAR(erlang_c(1, 0.7), 0.7, 1e-15); }

TEST(ServingErlangC, SaturatedOrIdleQueues) {
  EXPECT_EQ(erlang_c(4, 4.0), 1.0);
  EXPECT_EQ(erlang_c(4, 0.0), 0.0);
}

TEST(ServingErlangC, StaysAProbabilityForThousandsOfServers) {
  const double lighter = erlang_c(5000, 4900), heavier = erlang_c(5000, 4990);
  EXPECT_GT(lighter, 0.0);
  EXPECT_LT(lighter, heavier);
  EXPECT_LT(heavier, 1.0);
}

TEST(ServingQueueModel, SingleServerResponseTimeIsExponentialAtMuMinusLambda) {
  ServingQueueModel model(kSingle, ServingQueue::kShared, 0, 0);
  model.advance(1000, 7, 1);
  const double rate = 10 - 7;
  EXPECT_NEAR(model.latency_quantile(0.5), std::log(2.0) / rate, 1e-9 * std::log(2.0) / rate);
  EXPECT_NEAR(model.latency_quantile(0.99), std::log(100.0) / rate, 1e-9 * std::log(100.0) / rate);
  EXPECT_NEAR(model.mean_latency(), 1 / rate, 1e-12);
  EXPECT_DOUBLE_EQ(model.served(), 7000);
  EXPECT_EQ(model.backlog(), 0);
}

TEST(ServingQueueModel, SingleServerLateFractionIsTheExponentialTailAtTheSlo) {
  ServingQueueModel model(kSingle, ServingQueue::kShared, 0.2, 0);
  model.advance(1000, 7, 1);
  EXPECT_NEAR(model.late() / model.served(), std::exp(-(10 - 7) * 0.2), 1e-12);
}

TEST(ServingQueueModel, NoSloMeansNoneLate) {
  ServingQueueModel model(kSingle, ServingQueue::kShared, 0, 0);
  model.advance(100, 40, 2);
  EXPECT_EQ(model.late(), 0);
}

TEST(ServingQueueModel, QueuePerReplicaIsOneSingleServerQueuePerReplica) {
  // 28 requests/s spread over 4 replicas: each an M/M/1 at lambda 7.
  ServingQueueModel per_replica(kSingle, ServingQueue::kPerReplica, 0, 0);
  per_replica.advance(1000, 28, 4);
  EXPECT_NEAR(per_replica.latency_quantile(0.5), std::log(2.0) / 3, 1e-9);
  ServingQueueModel shared(kSingle, ServingQueue::kShared, 0, 0);
  shared.advance(1000, 28, 4);
  EXPECT_LT(shared.latency_quantile(0.5), per_replica.latency_quantile(0.5));  // pooling shortens waits
}

TEST(ServingQueueModel, SharedQueueMeanIsTheErlangCWaitPlusService) {
  // 2 replicas of mu 10 at lambda 10: c = 2, a = 1, P_wait = 1/3, wait rate 2 x 10 - 10.
  ServingQueueModel model(kSingle, ServingQueue::kShared, 0, 0);
  model.advance(100, 10, 2);
  EXPECT_NEAR(model.mean_latency(), (1.0 / 3) / 10 + 0.1, 1e-12);
}

TEST(ServingQueueModel, OverloadFromEmptyGrowsTheBacklogAndWaitsUniformly) {
  // Capacity 2 x 10 = 20/s, arrivals 40/s for 100 s.
  ServingQueueModel model(kSingle, ServingQueue::kShared, 60, 0);
  model.advance(100, 40, 2);
  EXPECT_DOUBLE_EQ(model.arrived(), 4000);
  EXPECT_DOUBLE_EQ(model.served(), 20 * 100);
  EXPECT_DOUBLE_EQ(model.backlog(), (40 - 20) * 100);
  EXPECT_EQ(model.dropped(), 0);
  const double longest_wait = (40.0 - 20) * 100 / 20;  // 100 s
  EXPECT_NEAR(model.mean_latency(), longest_wait / 2 + 0.1, 1e-9);
  // P(U + S > 60), U uniform on [0, 100], S ~ Exp(10): (100 - 60 + (1 - e^{-600}) / 10) / 100.
  const double late_fraction = (100 - 60 + (1 - std::exp(-10.0 * 60)) / 10) / 100;
  EXPECT_NEAR(model.late(), 4000 * late_fraction, 1e-9);
}

TEST(ServingQueueModel, BacklogDrainingWithinASpanSplitsItAtTheDrainTime) {
  ServingQueueModel model(kSingle, ServingQueue::kShared, 0, 0);
  model.advance(100, 40, 2);  // backlog 2000
  model.advance(500, 10, 2);  // drains at 20 - 10 a second: empty after 200 s
  EXPECT_EQ(model.backlog(), 0);
  EXPECT_DOUBLE_EQ(model.served(), 2000 + 20 * 200 + 10 * 300);
  EXPECT_DOUBLE_EQ(model.arrived(), 4000 + 5000);
  // 4000 requests wait U[0, 100], 2000 wait U[100, 0] while it drains, 3000 are stationary
  // at c = 2, a = 1 (mean wait (1/3) / 10).
  const double mean_wait = (4000 * 50.0 + 2000 * 50.0 + 3000 * (1.0 / 3) / 10) / 9000;
  EXPECT_NEAR(model.mean_latency(), mean_wait + 0.1, 1e-9);
}

TEST(ServingQueueModel, QueueLimitDropsExactlyTheExcessOfAnOverload) {
  // 50 waiting per replica on 2 replicas: the backlog is full at 100 after 100 / (40 - 20) = 5 s.
  ServingQueueModel model(kSingle, ServingQueue::kShared, 0, 50);
  model.advance(100, 40, 2);
  EXPECT_DOUBLE_EQ(model.backlog(), 100);
  EXPECT_DOUBLE_EQ(model.dropped(), (40 - 20) * (100 - 5));
  EXPECT_DOUBLE_EQ(model.served(), 20 * 100);
  EXPECT_DOUBLE_EQ(model.arrived(), model.served() + model.backlog() + model.dropped());
}

TEST(ServingQueueModel, FewerReplicasThanTheBacklogFilledForDropUntilItIsBackToTheCap) {
  ServingQueueModel model(kSingle, ServingQueue::kShared, 0, 50);
  model.advance(100, 40, 2);  // full at 100 waiting
  model.advance(10, 40, 1);   // cap 50, capacity 10: 5 s to drain to it dropping all, then full
  EXPECT_DOUBLE_EQ(model.backlog(), 50);
  EXPECT_DOUBLE_EQ(model.dropped(), 1900 + 40 * 5 + (40 - 10) * 5);
  EXPECT_DOUBLE_EQ(model.served(), 2000 + 10 * 10);
}

TEST(ServingQueueModel, NoReplicaDropsEveryArrivalAndKeepsTheBacklog) {
  ServingQueueModel model(kSingle, ServingQueue::kShared, 0, 0);
  model.advance(100, 40, 2);
  model.advance(10, 5, 0);
  EXPECT_DOUBLE_EQ(model.dropped(), 50);
  EXPECT_DOUBLE_EQ(model.backlog(), 2000);
  EXPECT_DOUBLE_EQ(model.served(), 2000);
}

TEST(ServingQueueModel, EmptySpansChangeNothing) {
  ServingQueueModel model(kSingle, ServingQueue::kShared, 0, 0);
  model.advance(0, 100, 3);
  EXPECT_EQ(model.arrived(), 0);
  EXPECT_EQ(model.take_window().seconds, 0);
  EXPECT_EQ(model.latency_quantile(0.5), 0);
  EXPECT_EQ(model.mean_latency(), 0);
}

TEST(ServingQueueModel, ManyEqualSpansGiveTheDistributionOfOneLongSpan) {
  ServingQueueModel pieces(kSingle, ServingQueue::kShared, 0.3, 0), whole(kSingle, ServingQueue::kShared, 0.3, 0);
  for (int i = 0; i < 240; ++i) pieces.advance(15, 27, 4);
  whole.advance(3600, 27, 4);
  EXPECT_NEAR(pieces.latency_quantile(0.99), whole.latency_quantile(0.99), 1e-12);
  EXPECT_NEAR(pieces.late(), whole.late(), 1e-6);
}

TEST(ServingQueueModel, WindowBusyFractionIsLoadOverCapacityThenResets) {
  // 4 requests in service at once for 0.04 s each: 100/s per replica, 200/s on 2.
  ServingQueueModel model({100, 0.04}, ServingQueue::kShared, 0, 0);
  model.advance(10, 150, 2);
  ServingQueueModel::Window window = model.take_window();
  EXPECT_NEAR(window.busy_fraction, 150.0 / 200, 1e-12);
  EXPECT_DOUBLE_EQ(window.arrival_rate, 150);
  EXPECT_DOUBLE_EQ(window.seconds, 10);
  EXPECT_DOUBLE_EQ(window.replica_seconds, 20);

  model.advance(15, 500, 2);  // overload: every replica busy
  window = model.take_window();
  EXPECT_NEAR(window.busy_fraction, 1, 1e-12);
  EXPECT_DOUBLE_EQ(window.arrival_rate, 500);

  window = model.take_window();
  EXPECT_EQ(window.busy_fraction, 0);
  EXPECT_EQ(window.seconds, 0);
}

// The aggregate model against the per-request simulation: 4 replicas serving
// 100 requests/s each, one at a time (mu = 100).
struct Agreement {
  double p50, p95, p99, mean, late;  // relative errors of the aggregate model
};

Agreement compare_with_requests(ServingQueue queue, const std::vector<ServingSpan>& spans, double slo) {
  const ReplicaService service{100, 0.01};
  ServingQueueModel model(service, queue, slo, 0);
  for (const ServingSpan& span : spans) model.advance(span.seconds, span.rate, span.replicas);
  const ServingRequestsResult requests = simulate_requests(service, queue, spans, 0, 1);
  const Distribution d = summarize(requests.latencies);
  const double late = static_cast<double>(std::count_if(requests.latencies.begin(), requests.latencies.end(),
                                                        [&](double latency) { return latency > slo; })) /
                      static_cast<double>(requests.latencies.size());
  return {relative_error(model.latency_quantile(0.5), d.p50), relative_error(model.latency_quantile(0.95), d.p95),
          relative_error(model.latency_quantile(0.99), d.p99), relative_error(model.mean_latency(), d.mean),
          relative_error(model.late() / model.served(), late)};
}

// Stationary spans are exact M/M/c: what remains is the sampling error of a
// million correlated latencies, at most 2.1% over 20 seeds.
constexpr double kStationaryBound = 0.03;

void expect_within(const Agreement& a, double bound) {
  EXPECT_LT(a.p50, bound);
  EXPECT_LT(a.p95, bound);
  EXPECT_LT(a.p99, bound);
  EXPECT_LT(a.mean, bound);
  EXPECT_LT(a.late, bound);
}

TEST(ServingAgreement, SharedQueueAtRho07MatchesPerRequestSimulation) {
  expect_within(compare_with_requests(ServingQueue::kShared, {{1e6 / 280, 280, 4}}, 0.03), kStationaryBound);
}

TEST(ServingAgreement, QueuePerReplicaAtRho07MatchesPerRequestSimulation) {
  expect_within(compare_with_requests(ServingQueue::kPerReplica, {{1e6 / 280, 280, 4}}, 0.05), kStationaryBound);
}

// 600 s at rho 0.5, 120 s at rho 1.3, 600 s at rho 0.5. The overload's
// backlog dominates everything above the median, and the fluid gives it its
// mean, (520 - 400) x 120 = 14400. A per-request run's peak backlog is that
// plus a random walk of standard deviation sqrt((520 + 400) x 120), about
// 330 or 2.3%, which moves its p95, p99 and mean by as much: up to 6.7% over
// 20 seeds, while their average over the seeds is within 0.2% of the model.
// The fluid's own error (starting the overload from an empty queue, leaving
// the queue near the drain time to its mean) is far smaller. The median and
// the late fraction (SLO 50 ms, late ~26%, decided by which requests met the
// backlog at all) stay within 1.7% over 20 seeds.
TEST(ServingAgreement, LoadStepThroughOverloadMatchesPerRequestSimulation) {
  const Agreement a = compare_with_requests(ServingQueue::kShared, {{600, 200, 4}, {120, 520, 4}, {600, 200, 4}}, 0.05);
  EXPECT_LT(a.p50, 0.03);
  EXPECT_LT(a.late, 0.03);
  EXPECT_LT(a.p95, 0.08);
  EXPECT_LT(a.p99, 0.08);
  EXPECT_LT(a.mean, 0.08);
}

TEST(ServingRequests, SameSeedSameRequests) {
  const std::vector<ServingSpan> spans{{100, 30, 4}, {50, 60, 2}};
  const ServingRequestsResult a = simulate_requests(kSingle, ServingQueue::kPerReplica, spans, 5, 7);
  const ServingRequestsResult b = simulate_requests(kSingle, ServingQueue::kPerReplica, spans, 5, 7);
  EXPECT_EQ(a.latencies, b.latencies);
  EXPECT_EQ(a.dropped, b.dropped);
  EXPECT_EQ(a.arrived, b.arrived);
  EXPECT_GT(a.dropped, 0u);
}

TEST(ServingRequests, NoReplicaDropsEveryArrival) {
  const ServingRequestsResult r = simulate_requests(kSingle, ServingQueue::kShared, {{100, 5, 0}}, 0, 1);
  EXPECT_GT(r.arrived, 0u);
  EXPECT_EQ(r.dropped, r.arrived);
  EXPECT_TRUE(r.latencies.empty());
}

TEST(ServingRequests, QueueLimitDropsAboutTheFluidExcess) {
  // The fluid drops (40 - 20) x (1000 - 5) of 40000 arrivals. Per request, the drops are the
  // arrivals less the services less the final queue: Poisson counts of standard deviation
  // sqrt(40000 + 20000), about 245 or 1.2% of the drops, so within 5% (4 deviations).
  const ServingRequestsResult r = simulate_requests(kSingle, ServingQueue::kShared, {{1000, 40, 2}}, 50, 1);
  EXPECT_NEAR(static_cast<double>(r.dropped), 20.0 * 995, 0.05 * 20 * 995);
  EXPECT_EQ(r.arrived, r.dropped + r.latencies.size());
}

TEST(ServingRequests, QueueLimitCountsWaitingRequestsOnly) {
  // One server and one waiting place: M/M/1/2, which blocks with probability
  // (1 - rho) rho^2 / (1 - rho^3). A million arrivals estimate it within 0.5% or so.
  const double rho = 0.8, blocking = (1 - rho) * rho * rho / (1 - rho * rho * rho);
  const ServingRequestsResult r = simulate_requests(kSingle, ServingQueue::kShared, {{125000, 8, 1}}, 1, 1);
  EXPECT_NEAR(static_cast<double>(r.dropped) / static_cast<double>(r.arrived), blocking, 0.01 * blocking);
}

TEST(ServingRequests, QueueLimitHoldsForEachReplicaOfItsOwn) {
  // Two replicas, each fed half of 16/s at random: two M/M/1/2 queues at rho 0.8.
  const double rho = 0.8, blocking = (1 - rho) * rho * rho / (1 - rho * rho * rho);
  const ServingRequestsResult r = simulate_requests(kSingle, ServingQueue::kPerReplica, {{62500, 16, 2}}, 1, 1);
  EXPECT_NEAR(static_cast<double>(r.dropped) / static_cast<double>(r.arrived), blocking, 0.01 * blocking);
}

}  // namespace
}  // namespace gcsim
