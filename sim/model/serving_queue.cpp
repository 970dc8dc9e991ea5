#include "sim/model/serving_queue.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gcsim {
namespace {

/// (1 - e^{-x}) / x for x >= 0, 1 at 0, without cancellation.
double exp_ratio(double x) { return x < 1e-8 ? 1 - x / 2 : -std::expm1(-x) / x; }

/// P(E1 + E2 > t) for independent E1 ~ Exp(a), E2 ~ Exp(b): (a e^{-b t} - b e^{-a t}) / (a - b),
/// written as e^{-m t} (1 + m t (1 - e^{-(M - m) t}) / ((M - m) t)) with m = min(a, b), M = max(a, b),
/// which stays exact as a and b meet ((1 + a t) e^{-a t} at a == b).
double two_exponentials_tail(double a, double b, double t) {
  const double m = std::min(a, b), big = std::max(a, b);
  return std::exp(-m * t) * (1 + m * t * exp_ratio((big - m) * t));
}

/// P(U + S > t) for U uniform on [low, high] and S ~ Exp(mu).
double uniform_wait_tail(double low, double high, double mu, double t) {
  if (t <= low) return 1;
  if (t >= high) return std::exp(-mu * (t - high)) * exp_ratio(mu * (high - low));
  return ((high - t) + (t - low) * exp_ratio(mu * (t - low))) / (high - low);
}

}  // namespace

std::uint32_t ReplicaService::concurrency() const {
  return static_cast<std::uint32_t>(std::max(1.0, std::round(throughput * latency)));
}

double ReplicaService::service_seconds() const { return concurrency() / throughput; }

double erlang_c(std::uint32_t servers, double offered_load) {
  if (offered_load <= 0) return 0;
  if (offered_load >= servers) return 1;
  double blocking = 1;  // Erlang B with n servers: a B(n-1) / (n + a B(n-1)), B(0) = 1
  for (std::uint32_t n = 1; n <= servers; ++n) blocking = offered_load * blocking / (n + offered_load * blocking);
  const double rho = offered_load / servers;
  return blocking / (1 - rho * (1 - blocking));
}

ServingQueueModel::ServingQueueModel(ReplicaService service, ServingQueue queue, double slo_seconds, double queue_limit)
    : service_(service),
      queue_(queue),
      slo_seconds_(slo_seconds),
      queue_limit_(queue_limit),
      mu_(1 / service.service_seconds()) {}

void ServingQueueModel::advance(double seconds, double rate, std::uint32_t replicas) {
  if (seconds <= 0) return;
  rate = std::max(0.0, rate);
  const double arrivals = rate * seconds;
  arrived_ += arrivals;
  window_arrived_ += arrivals;
  window_seconds_ += seconds;
  window_replica_seconds_ += replicas * seconds;
  if (replicas == 0) {
    dropped_ += arrivals;
    return;
  }
  advance_fluid(seconds, rate, replicas);
  if (seconds <= 0) return;
  add_stationary(rate * seconds, rate, replicas);
  serve(rate * seconds);
}

// Moves the backlog while it is not empty or the load reaches capacity, one
// linear phase at a time (above the cap, at the cap, growing, draining), and
// leaves in `seconds` what remains of the span once the queue is stationary.
void ServingQueueModel::advance_fluid(double& seconds, double rate, std::uint32_t replicas) {
  const double capacity = replicas * service_.throughput;
  const double cap = queue_limit_ > 0 ? queue_limit_ * replicas : std::numeric_limits<double>::infinity();
  while (seconds > 0 && (backlog_ > 0 || rate >= capacity)) {
    if (backlog_ > cap) {  // fewer replicas than when it filled: every arrival is dropped until it is back to the cap
      const double limit = (backlog_ - cap) / capacity;
      const double t = std::min(seconds, limit);
      dropped_ += rate * t;
      serve(capacity * t);
      backlog_ = t >= limit ? cap : backlog_ - capacity * t;
      seconds -= t;
      continue;
    }
    if (backlog_ == cap && rate >= capacity) {  // full: admits what is served, drops the rest
      dropped_ += (rate - capacity) * seconds;
      add_fluid(capacity * seconds, cap, cap, capacity);
      serve(capacity * seconds);
      seconds = 0;
      continue;
    }
    const double net = rate - capacity;
    const double limit = net > 0   ? (cap - backlog_) / net
                         : net < 0 ? backlog_ / -net
                                   : std::numeric_limits<double>::infinity();
    const double t = std::min(seconds, limit);
    const double end = t >= limit ? (net > 0 ? cap : 0) : backlog_ + net * t;
    add_fluid(rate * t, backlog_, end, capacity);
    serve(capacity * t);
    backlog_ = end;
    seconds -= t;
  }
}

void ServingQueueModel::serve(double requests) {
  served_ += requests;
  window_served_ += requests;
}

void ServingQueueModel::add_stationary(double requests, double rate, std::uint32_t replicas) {
  if (requests <= 0) return;
  const bool shared = queue_ == ServingQueue::kShared;
  const std::uint32_t servers = shared ? replicas * service_.concurrency() : service_.concurrency();
  const double lambda = shared ? rate : rate / replicas;
  LatencyPiece piece;
  piece.p_wait = erlang_c(servers, lambda / mu_);
  piece.wait_rate = servers * mu_ - lambda;
  piece.weight = requests;
  add_piece({false, static_cast<double>(servers), lambda}, piece);
}

void ServingQueueModel::add_fluid(double requests, double backlog_from, double backlog_to, double capacity) {
  if (requests <= 0) return;
  LatencyPiece piece;
  piece.fluid = true;
  piece.wait_low = std::min(backlog_from, backlog_to) / capacity;
  piece.wait_high = std::max(backlog_from, backlog_to) / capacity;
  piece.weight = requests;
  add_piece({true, piece.wait_low, piece.wait_high}, piece);
}

void ServingQueueModel::add_piece(PieceKey key, const LatencyPiece& piece) {
  if (slo_seconds_ > 0) late_ += piece.weight * tail(piece, slo_seconds_);
  weight_ += piece.weight;
  const auto [at, inserted] = piece_index_.try_emplace(key, pieces_.size());
  if (inserted)
    pieces_.push_back(piece);
  else
    pieces_[at->second].weight += piece.weight;
}

double ServingQueueModel::tail(const LatencyPiece& piece, double t) const {
  if (t <= 0) return 1;
  if (piece.fluid) return uniform_wait_tail(piece.wait_low, piece.wait_high, mu_, t);
  return (1 - piece.p_wait) * std::exp(-mu_ * t) + piece.p_wait * two_exponentials_tail(piece.wait_rate, mu_, t);
}

double ServingQueueModel::mixture_tail(double t) const {
  double sum = 0;
  for (const LatencyPiece& piece : pieces_) sum += piece.weight * tail(piece, t);
  return sum / weight_;
}

ServingQueueModel::Window ServingQueueModel::take_window() {
  Window window;
  window.seconds = window_seconds_;
  window.replica_seconds = window_replica_seconds_;
  window.arrival_rate = window_seconds_ > 0 ? window_arrived_ / window_seconds_ : 0;
  window.busy_fraction = window_replica_seconds_ > 0 ? window_served_ * service_.service_seconds() /
                                                           (window_replica_seconds_ * service_.concurrency())
                                                     : 0;
  window_served_ = window_arrived_ = window_seconds_ = window_replica_seconds_ = 0;
  return window;
}

// Bisection on the mixture's CDF: an upper end found by doubling from the
// slowest piece's mean wait plus a service, then halving to 1e-12 relative.
double ServingQueueModel::latency_quantile(double q) const {
  if (weight_ <= 0) return 0;
  const double above = 1 - std::clamp(q, 0.0, 1 - 1e-12);
  double high = 1 / mu_;
  for (const LatencyPiece& piece : pieces_)
    high = std::max(high, (piece.fluid ? piece.wait_high : 1 / piece.wait_rate) + 1 / mu_);
  for (int i = 0; i < 2048 && mixture_tail(high) > above; ++i) high *= 2;
  double low = 0;
  for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
    const double mid = (low + high) / 2;
    (mixture_tail(mid) > above ? low : high) = mid;
  }
  return (low + high) / 2;
}

double ServingQueueModel::mean_latency() const {
  if (weight_ <= 0) return 0;
  double wait = 0;
  for (const LatencyPiece& piece : pieces_)
    wait += piece.weight * (piece.fluid ? (piece.wait_low + piece.wait_high) / 2 : piece.p_wait / piece.wait_rate);
  return wait / weight_ + 1 / mu_;
}

}  // namespace gcsim
