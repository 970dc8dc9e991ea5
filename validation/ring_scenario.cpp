#include "validation/ring_scenario.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "sim/model/ring_allreduce_cost.hpp"

namespace gcsim::validation {

namespace {
// The GPUs are fast enough that the 1-FLOP compute step is negligible (1e-15 s).
constexpr double kRankFlops = 1e15;
}  // namespace

std::string ring_cluster_json(std::uint32_t ranks, const RingCalibration& link) {
  const nlohmann::json cluster = {
      {"name", "ring-" + std::to_string(ranks)},
      {"gpu_types", {{{"name", "rank"}, {"flops", kRankFlops}, {"memory", "1GB"}}}},
      {"node_groups",
       {{{"name", "rank"},
         {"count", ranks},
         {"gpus_per_node", 1},
         {"gpu_type", "rank"},
         {"cpu_cores", 1},
         {"memory", "1GB"},
         {"intra_node", {{"kind", "pcie"}, {"bandwidth", 1e15}, {"latency", 0}}},
         {"nic", {{"bandwidth", link.goodput_Bps}, {"latency", link.hop_latency_s / 2}}}}}}};
  return cluster.dump(2) + "\n";
}

std::string ring_workload_json(std::uint32_t ranks, double bytes, std::uint64_t iterations) {
  const nlohmann::json workload = {
      {"jobs",
       {{{"id", "allreduce"},
         {"submit", 0},
         {"gpus", ranks},
         {"training", {{"flops_per_iteration", 1}, {"gradient_bytes", bytes}, {"iterations", iterations}}}}}}};
  return workload.dump(2) + "\n";
}

double ring_closed_form_seconds(std::uint32_t ranks, double bytes, const RingCalibration& link) {
  return 1 / kRankFlops + ring_allreduce_seconds(ranks, bytes, link.hop_latency_s, link.goodput_Bps);
}

std::string size_label(double bytes) {
  const double units[] = {1073741824.0, 1048576.0, 1024.0};
  const char* names[] = {"GiB", "MiB", "KiB"};
  for (int i = 0; i < 3; ++i)
    if (bytes >= units[i] && std::fmod(bytes, units[i]) == 0)
      return std::to_string(static_cast<long long>(bytes / units[i])) + names[i];
  return std::to_string(static_cast<long long>(bytes)) + "B";
}

}  // namespace gcsim::validation
