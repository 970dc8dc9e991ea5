#include "validation/renderfarm_scenario.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace gcsim::validation {

std::string farm_cluster_json() {
  const nlohmann::json cluster = {{"name", "renderfarm"},
                                  {"gpu_types", {{{"name", "worker"}, {"flops", 1e12}, {"memory", "1GB"}}}},
                                  {"node_groups",
                                   {{{"name", "farm"},
                                     {"count", 1},
                                     {"gpus_per_node", 9},
                                     {"gpu_type", "worker"},
                                     {"cpu_cores", 9},
                                     {"memory", "1GB"},
                                     {"intra_node", {{"kind", "pcie"}, {"bandwidth", 1e12}, {"latency", 0}}},
                                     {"nic", {{"bandwidth", 1e12}, {"latency", 0}}}}}}};
  return cluster.dump(2) + "\n";
}

std::string farm_workload_json(const FarmCalibration& farm) {
  nlohmann::json jobs = nlohmann::json::array();
  for (const char* schedule : {"serial", "parallel", "pipelined"})
    jobs.push_back({{"id", schedule},
                    {"submit", 0},
                    {"frame_chain",
                     {{"frames", 10},
                      {"elements", 3},
                      {"element_seconds", farm.task_seconds},
                      {"render_seconds", farm.task_seconds},
                      {"schedule", schedule},
                      {"task_overhead", std::max(0.0, farm.task_overhead)},
                      {"wake_up", std::max(0.0, farm.wake_up)}}}});
  return nlohmann::json{{"jobs", jobs}}.dump(2) + "\n";
}

}  // namespace gcsim::validation
