// alltoall_scenario.hpp: a measured all-to-all as a gcsim scenario.
//
// The links are the ring's (ring_scenario.hpp): the same star of shaped
// links, calibrated by the ring on the same connections, so the cluster is
// ring_cluster_json's. The all-to-all is one DAG job of N pools of one GPU
// worker, one per node (docs/workload-format.md): every rank r runs a task
// `send-r` of no work, and a task `receive-r` after every send, taking a
// block of `block_bytes` from each other rank's. The DAG starts a task's
// incoming transfers all at once, so the N (N-1) blocks are N (N-1) SimGrid
// flows started together, sharing each rank's upload and download as
// SimGrid shares links; the job's time is the all-to-all's.
//
// Alone on a star of links of latency L (the hop latency, two NICs) and
// goodput B each way, every rank's upload and download carry N-1 flows of
// block_bytes, each getting B / (N-1): the closed form is
// L + (N-1) block_bytes / B, that is L + (N-1) S / (N B) for a buffer S of N
// blocks per rank.
//
//   RingCalibration link{2.4e-5, 24.8e6};
//   write(ring_cluster_json(3, link)); write(alltoall_workload_json(3, 5592404));
//   double expected = alltoall_closed_form_seconds(3, 5592404, link);
#pragma once

#include <cstdint>
#include <string>

#include "validation/ring_scenario.hpp"

namespace gcsim::validation {

/// One DAG job exchanging blocks of `block_bytes` between every pair of `ranks` ranks, all at once.
std::string alltoall_workload_json(std::uint32_t ranks, double block_bytes);

/// L + (N-1) block_bytes / B: every rank's N-1 blocks at once over its link.
double alltoall_closed_form_seconds(std::uint32_t ranks, double block_bytes, const RingCalibration& link);

}  // namespace gcsim::validation
