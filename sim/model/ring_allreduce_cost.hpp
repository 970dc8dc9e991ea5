// ring_allreduce_cost.hpp: the closed-form cost of a ring allreduce.
//
// A ring allreduce of S bytes over N ranks runs 2(N-1) steps (N-1 of
// reduce-scatter, N-1 of all-gather); in every step each rank sends S/N bytes
// to its successor, all ranks at once. When every ring edge has latency alpha
// and bandwidth B, and nothing else shares the links, one allreduce takes
//   2(N-1) * (alpha + S / (N * B))
// and each rank sends 2(N-1)/N * S bytes in total, with no master.
//
//   double t = ring_allreduce_seconds(8, 100e6, 2e-6, 150e9);
#pragma once

#include <cstdint>

namespace gcsim {

/// Number of ring steps: 2(N-1), zero for a single rank.
constexpr std::uint64_t ring_step_count(std::uint32_t ranks) { return ranks < 2 ? 0 : 2ull * (ranks - 1); }

/// Bytes one rank sends in one ring step: S/N.
double ring_chunk_bytes(std::uint32_t ranks, double gradient_bytes);

/// Bytes one rank sends over a whole allreduce: 2(N-1)/N * S.
double ring_bytes_per_rank(std::uint32_t ranks, double gradient_bytes);

/// Uncontended duration of one ring allreduce (formula in the file comment).
double ring_allreduce_seconds(std::uint32_t ranks, double gradient_bytes, double edge_latency, double edge_bandwidth);

/// Uncontended duration of one data-parallel training iteration: the compute
/// then the allreduce of the gradients.
double training_iteration_seconds(double flops_per_iteration, double gpu_flops, std::uint32_t ranks,
                                  double gradient_bytes, double edge_latency, double edge_bandwidth);

}  // namespace gcsim
