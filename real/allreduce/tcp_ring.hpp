// tcp_ring.hpp: N processes joined in a ring of TCP connections, one to the
// successor and one from the predecessor, and the few collective steps the
// allreduce benchmark needs on it.
//
// Every rank listens, connects to its successor, accepts its predecessor and
// checks that the predecessor is the rank it expects. The sockets carry
// TCP_NODELAY and are polled, so a rank sends and receives at once.
//
//   int listener = open_listener({"10.77.0.2", 5000});
//   TcpRing ring = TcpRing::connect(/*rank=*/1, /*ranks=*/4, listener, {"10.77.0.3", 5000});
//   ring.exchange(send, n, recv, n, nullptr);   // one ring step
//   double slowest = ring.all_max(my_seconds);  // a barrier that also gathers
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace gcsim::real {

/// host:port; host is a numeric IPv4 address.
struct Endpoint {
  std::string host;
  std::uint16_t port = 0;
};

/// Parses "HOST:PORT"; throws std::invalid_argument naming the text on error.
Endpoint parse_endpoint(const std::string& text);

/// A listening TCP socket bound to `at` (port 0: any free port). Throws std::runtime_error.
int open_listener(const Endpoint& at);

/// The port a listening socket is bound to.
std::uint16_t listener_port(int listener);

class TcpRing {
 public:
  /// Called during a receive with the number of bytes received so far.
  using ReceiveProgress = std::function<void(std::size_t received)>;

  /// Joins the ring: connects to `successor` (retrying while it does not
  /// listen yet) and accepts the predecessor on `listener`, which it closes.
  /// `congestion_control` (e.g. "cubic"; empty: the system's default) is set
  /// on both connections. Throws std::runtime_error when either connection
  /// does not happen within `timeout_s` or the algorithm cannot be set.
  static TcpRing connect(std::uint32_t rank, std::uint32_t ranks, int listener, const Endpoint& successor,
                         const std::string& congestion_control = "", double timeout_s = 20.0);

  TcpRing(TcpRing&& other) noexcept;
  TcpRing& operator=(TcpRing&&) = delete;
  TcpRing(const TcpRing&) = delete;
  TcpRing& operator=(const TcpRing&) = delete;
  ~TcpRing();

  std::uint32_t rank() const { return rank_; }
  std::uint32_t ranks() const { return ranks_; }

  /// Sends `send_bytes` to the successor while receiving `recv_bytes` from
  /// the predecessor; returns when both are done. `progress` (may be empty)
  /// is called after every read. Throws std::runtime_error on a socket error
  /// or when nothing moves for `stall_timeout_s`.
  void exchange(const void* send, std::size_t send_bytes, void* recv, std::size_t recv_bytes,
                const ReceiveProgress& progress, double stall_timeout_s = 60.0);

  /// A barrier that also returns the largest `value` given by any rank: the
  /// value goes around the ring twice (gather, then broadcast), so no rank
  /// returns before every rank has called it.
  double all_max(double value);

  /// One-way latency of a ring hop: rank 0 sends a small message around the
  /// ring `rounds` times (after `rounds` / 10 unmeasured ones) and divides
  /// the median round time by N. Every rank returns rank 0's figure.
  double measure_hop_latency(int rounds);

 private:
  TcpRing(std::uint32_t rank, std::uint32_t ranks, int to_successor, int from_predecessor);
  void send_all(const void* data, std::size_t bytes);
  void recv_all(void* data, std::size_t bytes);

  std::uint32_t rank_;
  std::uint32_t ranks_;
  int to_successor_;
  int from_predecessor_;
};

}  // namespace gcsim::real
