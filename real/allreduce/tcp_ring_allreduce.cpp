#include "real/allreduce/tcp_ring_allreduce.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "real/allreduce/result_check.hpp"
#include "real/allreduce/ring_schedule.hpp"

namespace gcsim::real {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }
}  // namespace

void tcp_ring_allreduce(TcpRing& ring, float* data, std::size_t count, std::vector<float>& scratch) {
  const std::uint32_t n = ring.ranks();
  scratch.resize(count / n + 1);
  for (std::uint32_t step = 0; step < ring_steps(n); ++step) {
    const RingStep st = ring_step(ring.rank(), n, step);
    const ChunkRange out = chunk_range(count, n, st.send_chunk);
    const ChunkRange in = chunk_range(count, n, st.recv_chunk);
    if (st.phase == RingPhase::kAllGather) {
      ring.exchange(data + out.begin, out.size() * sizeof(float), data + in.begin, in.size() * sizeof(float), {});
      continue;
    }
    float* dst = data + in.begin;
    const float* src = scratch.data();
    std::size_t reduced = 0;
    ring.exchange(data + out.begin, out.size() * sizeof(float), scratch.data(), in.size() * sizeof(float),
                  [&](std::size_t received) {
                    const std::size_t complete = received / sizeof(float);
                    for (; reduced < complete; ++reduced) dst[reduced] += src[reduced];
                  });
  }
}

LinkCalibration calibrate_link(TcpRing& ring, int latency_rounds, std::size_t bulk_bytes, int repetitions,
                               std::size_t drain_bytes) {
  LinkCalibration link;
  link.hop_latency_s = ring.measure_hop_latency(latency_rounds);
  if (bulk_bytes == 0 || repetitions < 1) return link;
  std::vector<char> out(std::max(bulk_bytes, drain_bytes), 1), in(out.size());
  std::vector<double> step_seconds;
  for (int i = 0; i < repetitions + 1; ++i) {  // the first one warms the connections up
    if (drain_bytes > 0) ring.exchange(out.data(), drain_bytes, in.data(), drain_bytes, {});
    ring.all_max(0);
    const auto start = Clock::now();
    ring.exchange(out.data(), bulk_bytes, in.data(), bulk_bytes, {});
    const double slowest = ring.all_max(seconds_since(start));
    if (i > 0) step_seconds.push_back(slowest);
  }
  const double step = median(step_seconds);
  link.goodput_Bps = static_cast<double>(bulk_bytes) / std::max(step - link.hop_latency_s, 1e-9);
  return link;
}

AllreduceRow measure_allreduce(TcpRing& ring, std::size_t bytes, int warmup, int iterations, std::size_t drain_bytes) {
  if (bytes % sizeof(float) != 0) throw std::invalid_argument("allreduce size must be a multiple of 4 bytes");
  if (iterations < 1 || warmup < 0) throw std::invalid_argument("need at least one timed iteration");
  const std::size_t count = bytes / sizeof(float);
  std::vector<float> data(count), scratch;
  std::vector<char> drain_out(drain_bytes, 0), drain_in(drain_bytes);  // content unused
  AllreduceRow row;
  row.impl = "tcp-ring";
  row.ranks = ring.ranks();
  row.bytes = static_cast<double>(bytes);
  row.warmup = warmup;
  row.iterations = iterations;
  std::size_t my_errors = 0;
  for (int i = 0; i < warmup + iterations; ++i) {
    fill_rank_input(ring.rank(), data);
    if (drain_bytes > 0) ring.exchange(drain_out.data(), drain_bytes, drain_in.data(), drain_bytes, {});
    ring.all_max(0);
    const auto start = Clock::now();
    tcp_ring_allreduce(ring, data.data(), count, scratch);
    const double slowest = ring.all_max(seconds_since(start));
    if (i >= warmup) row.seconds.push_back(slowest);
    my_errors += check_allreduce_result(ring.ranks(), data).mismatches;
  }
  row.errors = static_cast<std::size_t>(ring.all_max(static_cast<double>(my_errors)));
  return row;
}

}  // namespace gcsim::real
