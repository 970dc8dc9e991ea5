#include "sim/model/collective_cost.hpp"

#include "sim/model/ring_allreduce_cost.hpp"

namespace gcsim {

const char* collective_name(Collective kind) {
  switch (kind) {
    case Collective::kAllreduce:
      return "allreduce";
    case Collective::kReduceScatter:
      return "reduce_scatter";
    case Collective::kAllGather:
      return "all_gather";
    case Collective::kBroadcast:
      return "broadcast";
    case Collective::kAllToAll:
      return "all_to_all";
    case Collective::kPointToPoint:
      return "send_recv";
  }
  return "?";
}

CollectiveCost collective_cost(Collective kind, std::uint32_t ranks, double buffer_bytes, const GroupLink& link) {
  if (ranks < 2) return {};
  const double n = ranks, latency = link.latency, per_byte = 1 / link.bandwidth;
  switch (kind) {
    case Collective::kAllreduce:
      return {ring_allreduce_seconds(ranks, buffer_bytes, latency, link.bandwidth),
              ring_bytes_per_rank(ranks, buffer_bytes)};
    case Collective::kReduceScatter:
    case Collective::kAllGather:  // half a ring allreduce: n-1 steps of S/n
      return {(n - 1) * (latency + buffer_bytes / n * per_byte), (n - 1) / n * buffer_bytes};
    case Collective::kBroadcast:
      return {(n - 1) * latency + buffer_bytes * per_byte, buffer_bytes};
    case Collective::kAllToAll:
      return {latency + (n - 1) / n * buffer_bytes * per_byte, (n - 1) / n * buffer_bytes};
    case Collective::kPointToPoint:
      return {latency + buffer_bytes * per_byte, buffer_bytes};
  }
  return {};
}

double bus_bandwidth_factor(Collective kind, std::uint32_t ranks) {
  if (ranks == 0) return 0;
  const double n = ranks;
  switch (kind) {
    case Collective::kAllreduce:
      return 2 * (n - 1) / n;
    case Collective::kReduceScatter:
    case Collective::kAllGather:
    case Collective::kAllToAll:
      return (n - 1) / n;
    case Collective::kBroadcast:
    case Collective::kPointToPoint:
      return 1;
  }
  return 1;
}

double algorithm_bandwidth(double buffer_bytes, double seconds) { return seconds > 0 ? buffer_bytes / seconds : 0; }

double bus_bandwidth(Collective kind, std::uint32_t ranks, double buffer_bytes, double seconds) {
  return algorithm_bandwidth(buffer_bytes, seconds) * bus_bandwidth_factor(kind, ranks);
}

}  // namespace gcsim
