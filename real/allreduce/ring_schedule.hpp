// ring_schedule.hpp: which chunk every rank sends and receives at every step
// of a ring allreduce, and the bandwidth figures reported for it.
//
// The buffer of `count` elements is cut into N chunks (sizes differ by at
// most one element). Reduce-scatter runs N-1 steps: at step s, rank r sends
// chunk (r - s) mod N to its successor r+1 and adds the chunk (r - s - 1) mod N
// received from its predecessor into its own. Afterwards rank r holds the
// full sum of chunk (r + 1) mod N. All-gather runs N-1 more steps: at step s,
// rank r sends chunk (r + 1 - s) mod N and stores chunk (r - s) mod N. This is
// the ring of Baidu's allreduce and Horovod; 2(N-1) steps of S/N bytes.
//
//   RingStep step = ring_step(/*rank=*/1, /*ranks=*/4, /*step=*/0);
//   ChunkRange send = chunk_range(count, 4, step.send_chunk);
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "real/sample_median.hpp"  // median(), for the timings of every schedule

namespace gcsim::real {

/// Elements [begin, end) of a buffer.
struct ChunkRange {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const { return end - begin; }
};

/// Chunk `chunk` of `count` elements cut into `ranks` chunks:
/// [chunk * count / ranks, (chunk + 1) * count / ranks).
ChunkRange chunk_range(std::size_t count, std::uint32_t ranks, std::uint32_t chunk);

enum class RingPhase { kReduceScatter, kAllGather };

/// What one rank does at one step: send a chunk to its successor, receive a
/// chunk from its predecessor and either add it (reduce-scatter) or store it
/// (all-gather).
struct RingStep {
  RingPhase phase = RingPhase::kReduceScatter;
  std::uint32_t send_chunk = 0;
  std::uint32_t recv_chunk = 0;
};

/// Number of steps: 2(N-1), zero for one rank.
constexpr std::uint32_t ring_steps(std::uint32_t ranks) { return ranks < 2 ? 0 : 2 * (ranks - 1); }

/// Step `step` (0 .. 2(N-1)-1) of rank `rank`; steps below N-1 are reduce-scatter.
RingStep ring_step(std::uint32_t rank, std::uint32_t ranks, std::uint32_t step);

/// The chunk rank `rank` holds fully reduced after reduce-scatter: (rank + 1) mod N.
std::uint32_t reduced_chunk(std::uint32_t rank, std::uint32_t ranks);

/// Runs the ring on N in-memory buffers (one per rank), step by step exactly
/// as the ranks do over the network; every buffer ends with the elementwise
/// sum. The reference the networked ring is checked against in tests.
void ring_allreduce_in_memory(std::vector<std::vector<float>>& buffers);

/// nccl-tests' figures (doc/PERFORMANCE.md): algbw = S / t, and busbw =
/// algbw * 2(N-1)/N, the rate each rank's link carries.
double algorithm_bandwidth(double bytes, double seconds);
double bus_bandwidth(double bytes, double seconds, std::uint32_t ranks);

}  // namespace gcsim::real
