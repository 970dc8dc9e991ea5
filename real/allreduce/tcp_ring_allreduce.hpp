// tcp_ring_allreduce.hpp: the ring allreduce (sum of floats) over a TcpRing,
// its link calibration, and the timed, checked measurement of one size.
//
// The allreduce runs the 2(N-1) steps of ring_schedule.hpp; in the
// reduce-scatter steps the received floats are added as they arrive, so the
// reduction overlaps the transfer.
//
//   TcpRing ring = TcpRing::connect(rank, ranks, listener, successor);
//   LinkCalibration link = calibrate_link(ring, 200, 4 << 20, 3);
//   AllreduceRow row = measure_allreduce(ring, 16 << 20, /*warmup=*/1, /*iterations=*/5);
#pragma once

#include <cstddef>
#include <vector>

#include "real/allreduce/allreduce_report.hpp"
#include "real/allreduce/tcp_ring.hpp"

namespace gcsim::real {

/// In-place sum of `count` floats over every rank of `ring`. `scratch` is
/// resized to hold the largest chunk.
void tcp_ring_allreduce(TcpRing& ring, float* data, std::size_t count, std::vector<float>& scratch);

/// The link as the ring sees it: the one-way hop latency (small-message
/// ring trip / N) and the goodput of one ring step of `bulk_bytes`, every
/// rank sending to its successor at once: bulk_bytes / (step time - latency),
/// median of `repetitions`. `drain_bytes` as for measure_allreduce.
struct LinkCalibration {
  double hop_latency_s = 0;
  double goodput_Bps = 0;
};
LinkCalibration calibrate_link(TcpRing& ring, int latency_rounds, std::size_t bulk_bytes, int repetitions,
                               std::size_t drain_bytes = 0);

/// Runs `warmup` + `iterations` allreduces of `bytes` (a multiple of 4), each
/// on freshly filled inputs after a barrier, and checks every result. A timed
/// iteration counts the slowest rank's time. Every rank returns the same row
/// (impl "tcp-ring"; transport and calibration left for the caller).
///
/// `drain_bytes` > 0: before each iteration every rank first sends that many
/// bytes to its successor, untimed. On links shaped by a token bucket this
/// spends the credit the bucket saved while the link sat idle between two
/// iterations (a real link has no such credit), so every step, the first
/// included, starts as the calibration's steps do.
AllreduceRow measure_allreduce(TcpRing& ring, std::size_t bytes, int warmup, int iterations,
                               std::size_t drain_bytes = 0);

}  // namespace gcsim::real
