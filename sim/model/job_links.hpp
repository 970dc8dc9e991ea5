// job_links.hpp: where a job's GPUs sit, the links their transfers cross, and
// how long a set of transfers that start together takes on the busiest link.
//
// A transfer crosses the links of its route (sim/core/fabric_route.hpp, the
// rule the SimGrid platform follows): inside a node the sender's port up and
// the receiver's port down; across nodes the NICs (behind the ports of GPUs
// that share their node's NIC), the leaves' uplinks when the NICs plug into
// different leaves (racks, or rails of a rail-optimized fabric), the pods'
// uplinks across pods. Transfers of equal size that start at once share each
// link: alone on the cluster they all end once the busiest link has carried
// its share, (transfers crossing it) x size / bandwidth, which is what the
// closed forms of the parameter-server and hierarchical exchanges count
// (sim/model/parameter_server_cost.hpp, hierarchical_allreduce_cost.hpp).
//
//   JobLinks links = job_links(layout, gpus);
//   double seconds = busiest_link_seconds_per_byte(links, {{1, 0}, {2, 0}}) * bytes;
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/fabric_route.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/locality.hpp"
#include "sim/core/phased_work.hpp"

namespace gcsim {

/// Where a job's GPUs sit and the links their transfers may cross, numbered
/// within the job: nodes in the order its GPUs (in ring order) first reach
/// them, each reached node's ports and NICs, each reached rack's leaves and
/// each reached pod's uplink.
struct JobLinks {
  std::vector<std::uint32_t> node_of_gpu;  // per GPU of the job, in ring order
  std::vector<FabricPlace> places;         // per GPU of the job, in `fabric`'s numbering
  FabricLinks fabric;
  bool pxn = false;

  /// The route from the job's GPU `from` to its GPU `to` (indices in ring order).
  FabricRoute route(std::uint32_t from, std::uint32_t to) const { return fabric_route(places[from], places[to], pxn); }
};

/// The links of the job's GPUs `gpus` on the cluster `layout`.
JobLinks job_links(const ClusterLayout& layout, const std::vector<GpuId>& gpus);

/// A cluster of identical nodes, racks and pods, as a packed placement sees it.
struct PackedFabric {
  std::uint32_t gpus_per_node = 1;
  std::uint32_t nodes_per_rack = 1;
  std::uint32_t racks_per_pod = 0;  // 0: one pod
  LinkSpec port, nic, leaf_uplink, pod_uplink;
  bool nic_per_gpu = false;  // NodeGroup::nic_per_gpu
  bool rail_optimized = false;
  bool pxn = false;
};

/// The links of `gpus` GPUs packed on `fabric`: full nodes in order, racks
/// and pods filled in order.
JobLinks packed_job_links(std::uint32_t gpus, const PackedFabric& fabric);

/// The links of `gpus` GPUs packed on nodes of `gpus_per_node` GPUs sharing
/// one NIC, racks of `nodes_per_rack` nodes in one pod, all links of one kind
/// alike (their latencies 0).
JobLinks packed_job_links(std::uint32_t gpus, std::uint32_t gpus_per_node, std::uint32_t nodes_per_rack,
                          double port_bandwidth, double nic_bandwidth, double uplink_bandwidth);

/// Seconds per byte of each transfer for `transfers` of equal size started
/// together: the largest, over the links they cross (each direction apart),
/// of the transfers crossing it over its bandwidth. 0 when none crosses a
/// link (a transfer from a GPU to itself is a local copy).
double busiest_link_seconds_per_byte(const JobLinks& links, const std::vector<Transfer>& transfers);

/// Seconds until the busiest link has carried several sets of transfers
/// started together, each transfer of `sets[i]` carrying `bytes[i]`: the
/// largest, over the links they cross (each direction apart), of the bytes
/// crossing it over its bandwidth. 0 when none crosses a link.
double busiest_link_seconds(const JobLinks& links, const std::vector<const std::vector<Transfer>*>& sets,
                            const std::vector<double>& bytes);

/// The bandwidth each of `transfers` of equal size started together gets
/// where it is narrowest: the least, over the links they cross (each
/// direction apart), of the link's bandwidth over the transfers crossing it;
/// kNever when none crosses a link. A link crossed once gives exactly its
/// bandwidth, so where no two transfers share a link this is the narrowest
/// link any of them crosses.
double shared_bandwidth(const JobLinks& links, const std::vector<Transfer>& transfers);

/// A ring's transfers: each GPU of the job (in ring order) to the next, the
/// last to the first; none for a ring of one GPU.
std::vector<Transfer> ring_transfers(std::uint32_t gpus);

/// The job's GPUs as a Locality: GPU i is the job's i-th GPU in ring order,
/// and the figures are those of its routes. Refers to `links`, which must
/// outlive it.
class JobLocality final : public Locality {
 public:
  explicit JobLocality(const JobLinks& links) : links_(&links) {}
  std::size_t hops(GpuId a, GpuId b) const override { return links_->route(a, b).size; }
  double bottleneck_bandwidth(GpuId a, GpuId b) const override {
    return route_bottleneck(links_->route(a, b), links_->fabric);
  }
  double path_latency(GpuId a, GpuId b) const override {
    return route_figures(links_->route(a, b), links_->fabric).latency;
  }

 private:
  const JobLinks* links_;
};

}  // namespace gcsim
