#include "real/allreduce/tcp_ring.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "real/allreduce/ring_schedule.hpp"

namespace gcsim::real {

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what + ": " + std::strerror(errno)); }

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

sockaddr_in to_sockaddr(const Endpoint& at) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(at.port);
  if (inet_pton(AF_INET, at.host.c_str(), &addr.sin_addr) != 1)
    throw std::invalid_argument("not a numeric IPv4 address: '" + at.host + "'");
  return addr;
}

std::string describe(const Endpoint& at) { return at.host + ":" + std::to_string(at.port); }

void set_nodelay(int fd) {
  int one = 1;
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) fail("setsockopt(TCP_NODELAY)");
}

void set_nonblocking(int fd) {
  const int flags = fcntl(fd, F_GETFL, 0);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) fail("fcntl(O_NONBLOCK)");
}

int connect_with_retry(const Endpoint& to, Clock::time_point deadline) {
  const sockaddr_in addr = to_sockaddr(to);
  for (;;) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) fail("socket");
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) return fd;
    const int err = errno;
    ::close(fd);
    errno = err;
    if ((err != ECONNREFUSED && err != ENETUNREACH && err != EHOSTUNREACH && err != ETIMEDOUT) ||
        Clock::now() > deadline)
      fail("connect to successor " + describe(to));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

int accept_before(int listener, Clock::time_point deadline) {
  pollfd p{listener, POLLIN, 0};
  const auto left_ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  const int ready = poll(&p, 1, static_cast<int>(left_ms > 0 ? left_ms : 0));
  if (ready < 0) fail("poll on listener");
  if (ready == 0) throw std::runtime_error("no connection from the predecessor before the timeout");
  const int fd = accept(listener, nullptr, nullptr);
  if (fd < 0) fail("accept");
  return fd;
}

// Blocking full-buffer I/O on a socket that may be non-blocking.
void wait_for(int fd, short events) {
  pollfd p{fd, events, 0};
  if (poll(&p, 1, 60000) <= 0) throw std::runtime_error("ring peer silent for 60 s");
}

void write_fully(int fd, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::send(fd, p, bytes, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        wait_for(fd, POLLOUT);
        continue;
      }
      fail("send");
    }
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

void read_fully(int fd, void* data, std::size_t bytes) {
  auto* p = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::recv(fd, p, bytes, 0);
    if (n == 0) throw std::runtime_error("ring peer closed the connection");
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        wait_for(fd, POLLIN);
        continue;
      }
      fail("recv");
    }
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

}  // namespace

Endpoint parse_endpoint(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    throw std::invalid_argument("expected HOST:PORT, got '" + text + "'");
  const std::string port_text = text.substr(colon + 1);
  char* end = nullptr;
  const unsigned long port = std::strtoul(port_text.c_str(), &end, 10);
  if (*end != '\0' || port > 65535) throw std::invalid_argument("bad port in '" + text + "'");
  Endpoint at{text.substr(0, colon), static_cast<std::uint16_t>(port)};
  to_sockaddr(at);  // validates the address
  return at;
}

int open_listener(const Endpoint& at) {
  const sockaddr_in addr = to_sockaddr(at);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) fail("socket");
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    const int err = errno;
    ::close(fd);
    errno = err;
    fail("bind " + describe(at));
  }
  if (listen(fd, 4) != 0) fail("listen");
  return fd;
}

std::uint16_t listener_port(int listener) {
  sockaddr_in addr{};
  socklen_t len = sizeof addr;
  if (getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0) fail("getsockname");
  return ntohs(addr.sin_port);
}

TcpRing TcpRing::connect(std::uint32_t rank, std::uint32_t ranks, int listener, const Endpoint& successor,
                         const std::string& congestion_control, double timeout_s) {
  if (ranks < 2 || rank >= ranks) throw std::invalid_argument("a ring needs at least 2 ranks and rank < ranks");
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  // The successor's kernel completes the handshake before it calls accept,
  // so connecting first cannot deadlock.
  const int out = connect_with_retry(successor, deadline);
  write_fully(out, &rank, sizeof rank);
  const int in = accept_before(listener, deadline);
  ::close(listener);
  std::uint32_t peer = 0;
  read_fully(in, &peer, sizeof peer);
  const std::uint32_t predecessor = (rank + ranks - 1) % ranks;
  if (peer != predecessor) {
    ::close(in);
    ::close(out);
    throw std::runtime_error("rank " + std::to_string(rank) + " expected its predecessor " +
                             std::to_string(predecessor) + " to connect, got rank " + std::to_string(peer));
  }
  for (int fd : {in, out}) {
    set_nodelay(fd);
    set_nonblocking(fd);
    if (!congestion_control.empty() && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, congestion_control.data(),
                                                  static_cast<socklen_t>(congestion_control.size())) != 0)
      fail("setsockopt(TCP_CONGESTION, " + congestion_control + ")");
  }
  return TcpRing(rank, ranks, out, in);
}

TcpRing::TcpRing(std::uint32_t rank, std::uint32_t ranks, int to_successor, int from_predecessor)
    : rank_(rank), ranks_(ranks), to_successor_(to_successor), from_predecessor_(from_predecessor) {}

TcpRing::TcpRing(TcpRing&& other) noexcept
    : rank_(other.rank_),
      ranks_(other.ranks_),
      to_successor_(other.to_successor_),
      from_predecessor_(other.from_predecessor_) {
  other.to_successor_ = -1;
  other.from_predecessor_ = -1;
}

TcpRing::~TcpRing() {
  if (to_successor_ >= 0) ::close(to_successor_);
  if (from_predecessor_ >= 0) ::close(from_predecessor_);
}

void TcpRing::send_all(const void* data, std::size_t bytes) { write_fully(to_successor_, data, bytes); }
void TcpRing::recv_all(void* data, std::size_t bytes) { read_fully(from_predecessor_, data, bytes); }

void TcpRing::exchange(const void* send, std::size_t send_bytes, void* recv, std::size_t recv_bytes,
                       const ReceiveProgress& progress, double stall_timeout_s) {
  const auto* out = static_cast<const char*>(send);
  auto* in = static_cast<char*>(recv);
  std::size_t sent = 0;
  std::size_t received = 0;
  const int stall_ms = static_cast<int>(stall_timeout_s * 1000);
  // Wake up for a batch of bytes, not for every segment: at a few hundred
  // Mbit/s a wake-up per packet costs more CPU than the transfer itself.
  constexpr std::size_t kWakeBatch = 128 * 1024;
  int lowat = 1;
  while (sent < send_bytes || received < recv_bytes) {
    if (received < recv_bytes) {
      const int want = static_cast<int>(std::min(recv_bytes - received, kWakeBatch));
      if (want != lowat && setsockopt(from_predecessor_, SOL_SOCKET, SO_RCVLOWAT, &want, sizeof want) == 0)
        lowat = want;
    }
    pollfd fds[2];
    nfds_t n = 0;
    if (sent < send_bytes) fds[n++] = pollfd{to_successor_, POLLOUT, 0};
    if (received < recv_bytes) fds[n++] = pollfd{from_predecessor_, POLLIN, 0};
    const int ready = poll(fds, n, stall_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      fail("poll");
    }
    if (ready == 0) throw std::runtime_error("ring step stalled: nothing sent or received for the stall timeout");
    for (nfds_t i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == to_successor_) {
        const ssize_t k = ::send(to_successor_, out + sent, send_bytes - sent, MSG_NOSIGNAL);
        if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) fail("send to successor");
        if (k > 0) sent += static_cast<std::size_t>(k);
      } else {
        const ssize_t k = ::recv(from_predecessor_, in + received, recv_bytes - received, 0);
        if (k == 0) throw std::runtime_error("predecessor closed the connection");
        if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) fail("recv from predecessor");
        if (k > 0) {
          received += static_cast<std::size_t>(k);
          if (progress) progress(received);
        }
      }
    }
  }
  if (lowat != 1) {
    const int one = 1;
    setsockopt(from_predecessor_, SOL_SOCKET, SO_RCVLOWAT, &one, sizeof one);
  }
}

double TcpRing::all_max(double value) {
  double token = value;
  if (rank_ == 0) {
    send_all(&token, sizeof token);  // gather: the token collects every rank's value
    recv_all(&token, sizeof token);
    send_all(&token, sizeof token);  // broadcast: every rank learns the result
    recv_all(&token, sizeof token);
    return token;
  }
  recv_all(&token, sizeof token);
  if (value > token) token = value;
  send_all(&token, sizeof token);
  recv_all(&token, sizeof token);
  send_all(&token, sizeof token);
  return token;
}

double TcpRing::measure_hop_latency(int rounds) {
  const int warmup = rounds / 10;
  std::vector<double> round_seconds;
  std::uint64_t token = 0;
  for (int i = 0; i < warmup + rounds; ++i) {
    if (rank_ == 0) {
      const auto start = Clock::now();
      send_all(&token, sizeof token);
      recv_all(&token, sizeof token);
      if (i >= warmup) round_seconds.push_back(seconds_since(start));
    } else {
      recv_all(&token, sizeof token);
      send_all(&token, sizeof token);
    }
  }
  const double mine = rank_ == 0 ? median(round_seconds) / ranks_ : 0.0;
  return all_max(mine);
}

}  // namespace gcsim::real
