#include "validation/alltoall_scenario.hpp"

#include <nlohmann/json.hpp>

namespace gcsim::validation {

std::string alltoall_workload_json(std::uint32_t ranks, double block_bytes) {
  nlohmann::json pools = nlohmann::json::array();
  nlohmann::json tasks = nlohmann::json::array();
  for (std::uint32_t r = 0; r < ranks; ++r) {
    const std::string rank = std::to_string(r);
    pools.push_back({{"name", "rank-" + rank}, {"workers", 1}});
    tasks.push_back({{"id", "send-" + rank}, {"pool", "rank-" + rank}, {"seconds", 0}});
  }
  for (std::uint32_t r = 0; r < ranks; ++r) {
    const std::string rank = std::to_string(r);
    nlohmann::json after = nlohmann::json::array();
    for (std::uint32_t s = 0; s < ranks; ++s) {
      if (s == r)
        after.push_back("send-" + rank);  // its own block stays on its node
      else
        after.push_back({{"task", "send-" + std::to_string(s)}, {"bytes", block_bytes}});
    }
    tasks.push_back({{"id", "receive-" + rank}, {"pool", "rank-" + rank}, {"seconds", 0}, {"after", after}});
  }
  const nlohmann::json workload = {
      {"jobs", {{{"id", "alltoall"}, {"submit", 0}, {"gpus", ranks}, {"dag", {{"pools", pools}, {"tasks", tasks}}}}}}};
  return workload.dump(2) + "\n";
}

double alltoall_closed_form_seconds(std::uint32_t ranks, double block_bytes, const RingCalibration& link) {
  if (ranks < 2) return 0;
  return link.hop_latency_s + (ranks - 1) * block_bytes / link.goodput_Bps;
}

}  // namespace gcsim::validation
