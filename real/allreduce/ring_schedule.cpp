#include "real/allreduce/ring_schedule.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

namespace gcsim::real {

namespace {
std::uint32_t mod(std::int64_t value, std::uint32_t n) {
  const auto m = static_cast<std::int64_t>(n);
  return static_cast<std::uint32_t>(((value % m) + m) % m);
}
}  // namespace

ChunkRange chunk_range(std::size_t count, std::uint32_t ranks, std::uint32_t chunk) {
  assert(ranks > 0 && chunk < ranks && "chunk index must be below the number of ranks");
  return ChunkRange{count * chunk / ranks, count * (chunk + 1) / ranks};
}

RingStep ring_step(std::uint32_t rank, std::uint32_t ranks, std::uint32_t step) {
  assert(rank < ranks && step < ring_steps(ranks) && "step of a rank inside the ring");
  const auto r = static_cast<std::int64_t>(rank);
  if (step < ranks - 1) {
    const auto s = static_cast<std::int64_t>(step);
    return RingStep{RingPhase::kReduceScatter, mod(r - s, ranks), mod(r - s - 1, ranks)};
  }
  const auto s = static_cast<std::int64_t>(step - (ranks - 1));
  return RingStep{RingPhase::kAllGather, mod(r + 1 - s, ranks), mod(r - s, ranks)};
}

std::uint32_t reduced_chunk(std::uint32_t rank, std::uint32_t ranks) { return (rank + 1) % ranks; }

void ring_allreduce_in_memory(std::vector<std::vector<float>>& buffers) {
  const auto ranks = static_cast<std::uint32_t>(buffers.size());
  if (ranks < 2) return;
  const std::size_t count = buffers.front().size();
  for (const auto& b : buffers)
    if (b.size() != count) throw std::invalid_argument("ring_allreduce_in_memory: buffers of different sizes");
  for (std::uint32_t step = 0; step < ring_steps(ranks); ++step) {
    // Every rank sends at once: take the messages first, then deliver them.
    std::vector<std::vector<float>> sent(ranks);
    for (std::uint32_t r = 0; r < ranks; ++r) {
      const ChunkRange c = chunk_range(count, ranks, ring_step(r, ranks, step).send_chunk);
      sent[r].assign(buffers[r].begin() + c.begin, buffers[r].begin() + c.end);
    }
    for (std::uint32_t r = 0; r < ranks; ++r) {
      const std::uint32_t from = (r + ranks - 1) % ranks;
      const RingStep st = ring_step(r, ranks, step);
      const ChunkRange c = chunk_range(count, ranks, st.recv_chunk);
      assert(ring_step(from, ranks, step).send_chunk == st.recv_chunk && "a rank receives what its predecessor sends");
      for (std::size_t i = 0; i < c.size(); ++i) {
        float& dst = buffers[r][c.begin + i];
        dst = st.phase == RingPhase::kReduceScatter ? dst + sent[from][i] : sent[from][i];
      }
    }
  }
}

double algorithm_bandwidth(double bytes, double seconds) { return bytes / seconds; }

double bus_bandwidth(double bytes, double seconds, std::uint32_t ranks) {
  return ranks < 2 ? 0.0 : algorithm_bandwidth(bytes, seconds) * 2.0 * (ranks - 1) / ranks;
}

}  // namespace gcsim::real
