// node_failures.hpp: when nodes fail and for how long, listed or drawn.
//
// A failure file (`gcsim run --node-failures FILE`) lists failures, each a
// node by name, the instant it fails and how long its repair takes:
//   {"failures": [{"node": "dgx1-3", "at": "2h", "duration": "30min"}]}
// or gives what to draw them from, per node, independently:
//   {"mtbf": "500h", "distribution": "exponential", "repair": "2h",
//    "horizon": "7d", "seed": 1}
// ("distribution": "weibull" takes a "shape" k > 0: times between failures
// of scale mtbf / Gamma(1 + 1/k), so their mean is the MTBF; k < 1 gives the
// early failures of infant mortality, k > 1 wear-out). Each node's time to
// its first failure, and from each repair to its next failure, is drawn by
// inverse transform from one seeded PortableRandom (the synthetic
// generator's), node by node, up to the horizon: the same file draws the same
// failures on every machine.
// What happens then is the engine's (sim/engine/simulation.hpp): the jobs on
// the node stop as if preempted (back to their last checkpoint) and wait for
// GPUs again, and the node's GPUs are down until the repair ends.
//
//   std::vector<NodeFailure> failures = read_node_failures_file("failures.json", layout);
#pragma once

#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/node_failure.hpp"

namespace gcsim {

/// The failures the file gives, in order of time (then node); InputError
/// naming the file, the entry and the field otherwise (an MTBF of 0, an
/// unknown node, a node failing again before its repair ends, ...).
std::vector<NodeFailure> read_node_failures_file(const std::string& path, const ClusterLayout& layout);

}  // namespace gcsim
