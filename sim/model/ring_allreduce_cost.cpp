#include "sim/model/ring_allreduce_cost.hpp"

namespace gcsim {

double ring_chunk_bytes(std::uint32_t ranks, double gradient_bytes) { return ranks < 2 ? 0.0 : gradient_bytes / ranks; }

double ring_bytes_per_rank(std::uint32_t ranks, double gradient_bytes) {
  return static_cast<double>(ring_step_count(ranks)) * ring_chunk_bytes(ranks, gradient_bytes);
}

double ring_allreduce_seconds(std::uint32_t ranks, double gradient_bytes, double edge_latency, double edge_bandwidth) {
  return static_cast<double>(ring_step_count(ranks)) *
         (edge_latency + ring_chunk_bytes(ranks, gradient_bytes) / edge_bandwidth);
}

double training_iteration_seconds(double flops_per_iteration, double gpu_flops, std::uint32_t ranks,
                                  double gradient_bytes, double edge_latency, double edge_bandwidth) {
  return flops_per_iteration / gpu_flops + ring_allreduce_seconds(ranks, gradient_bytes, edge_latency, edge_bandwidth);
}

}  // namespace gcsim
