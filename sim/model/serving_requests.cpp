#include "sim/model/serving_requests.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <utility>

namespace gcsim {
namespace {

/// Uniform and exponential draws by inverse transform, the same on every platform.
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : engine_(seed) {}
  /// Uniform on [0, 1), from the generator's top 53 bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double exponential(double rate) { return -std::log(1 - uniform()) / rate; }

 private:
  std::mt19937_64 engine_;
};

/// Servers sharing one first-come-first-served queue.
class Station {
 public:
  /// `servers` servers from now on, the new ones idle at `now`; removed ones keep what they were given.
  void resize(std::size_t servers, double now) {
    free_at_.resize(servers, now);
    heap_.clear();
    for (std::size_t id = 0; id < servers; ++id) heap_.emplace_back(free_at_[id], id);
    std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
  }

  void set_waiting_limit(double limit) { waiting_limit_ = limit; }

  /// A request arriving at `arrival` that needs `service` seconds: its latency, or a negative value if dropped.
  double admit(double arrival, double service) {
    while (!waiting_starts_.empty() && waiting_starts_.top() <= arrival) waiting_starts_.pop();
    if (heap_.empty() || static_cast<double>(waiting_starts_.size()) >= waiting_limit_) return -1;
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    auto& [free, id] = heap_.back();
    const double start = std::max(arrival, free);
    free = free_at_[id] = start + service;
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    if (start > arrival) waiting_starts_.push(start);
    return start + service - arrival;
  }

 private:
  std::vector<double> free_at_;                       // by server
  std::vector<std::pair<double, std::size_t>> heap_;  // (free at, server), earliest first
  std::priority_queue<double, std::vector<double>, std::greater<>> waiting_starts_;  // of requests still waiting
  double waiting_limit_ = std::numeric_limits<double>::infinity();
};

/// The stations of a deployment: one shared, or one per replica.
class Deployment {
 public:
  Deployment(ReplicaService service, ServingQueue queue, double queue_limit)
      : concurrency_(service.concurrency()),
        shared_(queue == ServingQueue::kShared),
        queue_limit_(queue_limit > 0 ? queue_limit : std::numeric_limits<double>::infinity()) {}

  void set_replicas(std::uint32_t replicas, double now) {
    replicas_ = replicas;
    if (shared_) {
      stations_.resize(1);
      stations_[0].resize(static_cast<std::size_t>(replicas) * concurrency_, now);
      stations_[0].set_waiting_limit(queue_limit_ * replicas);
      return;
    }
    const std::size_t before = std::min<std::size_t>(stations_.size(), replicas);
    stations_.resize(replicas);
    for (std::size_t r = before; r < replicas; ++r) {
      stations_[r] = Station();
      stations_[r].resize(concurrency_, now);
      stations_[r].set_waiting_limit(queue_limit_);
    }
  }

  std::uint32_t replicas() const { return replicas_; }

  /// The station an arrival joins; `uniform` in [0, 1) picks the replica.
  Station& station_for(double uniform) {
    if (shared_) return stations_[0];
    const auto r = static_cast<std::size_t>(uniform * replicas_);
    return stations_[std::min<std::size_t>(r, replicas_ - 1)];
  }

 private:
  std::uint32_t concurrency_;
  bool shared_;
  double queue_limit_;
  std::uint32_t replicas_ = 0;
  std::vector<Station> stations_;
};

}  // namespace

ServingRequestsResult simulate_requests(ReplicaService service, ServingQueue queue,
                                        const std::vector<ServingSpan>& spans, double queue_limit, std::uint64_t seed) {
  ServingRequestsResult result;
  Draws draws(seed);
  Deployment deployment(service, queue, queue_limit);
  const double service_rate = 1 / service.service_seconds();
  double start = 0;
  for (const ServingSpan& span : spans) {
    if (span.seconds <= 0) continue;
    const double end = start + span.seconds;
    if (span.replicas != deployment.replicas()) deployment.set_replicas(span.replicas, start);
    for (double t = start; span.rate > 0;) {
      t += draws.exponential(span.rate);
      if (t >= end) break;
      ++result.arrived;
      const double pick = draws.uniform();
      const double work = draws.exponential(service_rate);
      const double latency = span.replicas == 0 ? -1 : deployment.station_for(pick).admit(t, work);
      if (latency < 0)
        ++result.dropped;
      else
        result.latencies.push_back(latency);
    }
    start = end;
  }
  return result;
}

}  // namespace gcsim
