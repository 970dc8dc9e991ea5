// platform_paths.hpp: the check that a GPU-to-GPU route of the SimGrid
// platform is the path the locality graph gives: as many links, the same
// summed latency and the same bottleneck bandwidth.
//
//   expect_route_matches_graph(layout, platform, graph, a, b);
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine/platform_builder.hpp"
#include "sim/topology/cluster_graph.hpp"

namespace gcsim {

inline void expect_route_matches_graph(const ClusterLayout& layout, const SimGridPlatform& platform,
                                       const ClusterGraph& graph, GpuId a, GpuId b) {
  SCOPED_TRACE(layout.gpu_label(a) + " -> " + layout.gpu_label(b));
  std::vector<simgrid::s4u::Link*> links;
  double latency = 0;
  platform.gpu_hosts[a]->route_to(platform.gpu_hosts[b], links, &latency);
  double bottleneck = std::numeric_limits<double>::infinity();
  for (const auto* link : links) bottleneck = std::min(bottleneck, link->get_bandwidth());
  EXPECT_EQ(links.size(), graph.hops(a, b));
  EXPECT_NEAR(latency, graph.path_latency(a, b), 1e-15);
  EXPECT_DOUBLE_EQ(bottleneck, graph.bottleneck_bandwidth(a, b));
}

}  // namespace gcsim
