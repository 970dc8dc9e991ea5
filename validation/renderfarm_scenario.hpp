// renderfarm_scenario.hpp: the measured render farm as a gcsim scenario.
//
// The real render farm (real/renderfarm) runs the frame chain, 10 frames x 3
// elements, with threads in three schedules. gcsim simulates the same runs
// as three DAG jobs ("frame_chain" in the workload format), one per schedule,
// named by it, whose tasks cost the measured task length plus the executor's
// measured per-task overhead, and whose idle workers wake up with its
// measured latency. The cluster is one node with a GPU per worker of all
// three jobs (1 + 4 + 4), so they run side by side without sharing anything.
//
//   write(farm_cluster_json()); write(farm_workload_json({0.05, 1.6e-4, 3e-5}));
//   // gcsim run ...; jobs.csv: serial, parallel, pipelined with their makespans as JCT
#pragma once

#include <string>

namespace gcsim::validation {

struct FarmCalibration {
  double task_seconds = 0;   // every element and render task
  double task_overhead = 0;  // per task, measured; negative figures count as 0
  double wake_up = 0;        // of a worker that waited
};

std::string farm_cluster_json();
std::string farm_workload_json(const FarmCalibration& farm);

}  // namespace gcsim::validation
