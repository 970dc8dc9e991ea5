// link_loads.hpp: the traffic jobs put on the network's links, as rates,
// and what a job's traffic costs on a placement: the figures the crux
// policy ranks jobs and placements by.
//
// A job's traffic is one iteration's (policies/kit/rank_traffic.hpp), each
// transfer on the links of its route (sim/core/fabric_route.hpp). Alone, its
// communication takes t = the largest, over the links it crosses (each
// direction apart), of its bytes there over the link's bandwidth (Crux's
// t_j); an iteration takes about T = its FLOPs on one GPU over the slowest
// GPU's FLOP/s, plus t (computation and communication not overlapped: an
// upper bound). Its rate on a link is its bytes there over T.
//
//   LinkLoads loads(layout);
//   loads.add(loads.traffic(spec, gpus));  // a running job
//   double crossed = loads.busiest_utilization(loads.traffic(waiting, candidate));
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/fabric_route.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

/// One job's iteration on a placement: its bytes per link and its figures.
struct JobTraffic {
  std::unordered_map<std::uint64_t, double> bytes;  // per link and direction (LinkLoads::key)
  double flops = 0;                                 // one iteration, all GPUs together (Crux's W_j)
  double seconds_alone = 0;                         // t: the busiest link's bytes over its bandwidth
  double iteration_seconds = 0;                     // T: the computation plus t

  /// Crux's GPU intensity W / t: infinite without traffic.
  double intensity() const;
};

class LinkLoads {
 public:
  explicit LinkLoads(const ClusterLayout& layout) : layout_(layout) {}

  /// A link and the direction it is crossed in, as one number.
  static std::uint64_t key(const FabricHop& hop);

  /// `job`'s iteration on `gpus` (its ranks in order).
  JobTraffic traffic(const JobSpec& job, const std::vector<GpuId>& gpus) const;
  /// Counts the job's rates on its links.
  void add(const JobTraffic& job);
  /// The largest, over the links `job` crosses, of (the rates counted there
  /// plus the job's own) over the link's bandwidth; 0 without traffic.
  double busiest_utilization(const JobTraffic& job) const;
  /// The largest utilization counted on the rack's leaf uplinks and its
  /// pod's uplink, either direction.
  double rack_utilization(RackId rack) const;

 private:
  double bandwidth(std::uint64_t key) const;

  const ClusterLayout& layout_;
  std::unordered_map<std::uint64_t, double> rates_;  // bytes/s per link and direction
};

}  // namespace gcsim
