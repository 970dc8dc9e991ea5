// node_failure.hpp: one failure of a node, as the engine replays it.
#pragma once

#include "sim/core/ids.hpp"

namespace gcsim {

struct NodeFailure {
  Time at = 0;  // when the node fails
  NodeId node = 0;
  Time duration = 0;  // until it is repaired, > 0
};

}  // namespace gcsim
