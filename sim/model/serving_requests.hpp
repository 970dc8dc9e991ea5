// serving_requests.hpp: the serving model of serving_queue.hpp simulated one
// request at a time, as the reference its aggregate form is checked against.
//
// Arrivals are Poisson at each span's rate (the process restarts at every span
// boundary, which memorylessness allows); every request is served in an
// exponential time of mean service_seconds(), first come first served. With a
// shared queue any of replicas x concurrency servers takes the next request;
// with a queue per replica each arrival goes to a uniformly random replica,
// which serves it with its own concurrency servers and queue. An arrival that
// finds queue_limit x replicas requests waiting (shared) or queue_limit
// waiting at its replica (per replica) is dropped; 0 means no limit. When the
// replica count changes between spans, the servers of removed replicas take no
// new request but finish what they were given (requests already assigned to
// them included), and added replicas start idle with an empty queue. After the
// last span nothing arrives, and every admitted request is served.
//
// Draws come from std::mt19937_64 through inverse transforms (-log(1 - u) /
// rate), so a seed gives the same requests on every platform. Each request
// costs O(log servers): a heap of the servers' free times.
//
//   ServingRequestsResult r = simulate_requests({100, 0.01}, ServingQueue::kShared,
//                                               {{3600, 280, 4}}, 0, 1);
//   Distribution d = summarize(r.latencies);  // d.p99 near ServingQueueModel's
#pragma once

#include <cstdint>
#include <vector>

#include "sim/model/serving_queue.hpp"

namespace gcsim {

struct ServingRequestsResult {
  std::vector<double> latencies;  // wait + service of every served request, in arrival order
  std::uint64_t arrived = 0;
  std::uint64_t dropped = 0;
};

/// Every request of `spans` (in order, from time 0) through the deployment; the same seed, the same result.
ServingRequestsResult simulate_requests(ReplicaService service, ServingQueue queue,
                                        const std::vector<ServingSpan>& spans, double queue_limit, std::uint64_t seed);

}  // namespace gcsim
