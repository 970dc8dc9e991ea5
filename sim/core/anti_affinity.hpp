// anti_affinity.hpp: the application a job belongs to, and at most K of its
// jobs on a node.
//
// Kubernetes' pod anti-affinity as Alibaba's GPU-disaggregated serving trace
// gives it (app_name, max_instance_per_node): a job of an application whose
// max_per_node is K > 0 goes to a node only while fewer than K jobs of its
// application hold anything there, so no node ever holds more than K of
// them. Every job of the application counts, whatever its own limit (one of
// K 0 sets none of its own, as the trace's -1). A job counts on every node
// it holds GPUs or cores on, once per node however many it holds there (a
// job spanning three nodes counts once on each). node_fit.hpp says so for
// every placement, SchedulerState's plan check refuses a plan that breaks
// it, and `--check`'s audit watches it.
//
//   job.application = std::make_shared<const Application>(Application{"app_0", 1});
#pragma once

#include <cstdint>
#include <string>

namespace gcsim {

struct Application {
  std::string name;
  std::uint32_t max_per_node = 0;  // K: at most K of its jobs on a node; 0: no limit of this job's own
};

}  // namespace gcsim
