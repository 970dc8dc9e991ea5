#include "sim/model/parameter_server_cost.hpp"

namespace gcsim {

std::uint32_t parameter_server_host(std::uint32_t server, std::uint32_t servers, std::uint32_t workers) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(server) * workers / servers);
}

std::vector<Transfer> parameter_server_pushes(std::uint32_t workers, std::uint32_t servers) {
  std::vector<Transfer> pushes;
  for (std::uint32_t s = 0; s < servers; ++s) {
    const std::uint32_t host = parameter_server_host(s, servers, workers);
    for (std::uint32_t w = 0; w < workers; ++w)
      if (w != host) pushes.push_back({w, host});
  }
  return pushes;
}

double parameter_server_phase_seconds_per_byte(const JobLinks& links, std::uint32_t servers) {
  const auto workers = static_cast<std::uint32_t>(links.node_of_gpu.size());
  if (workers == 0 || servers == 0) return 0;
  // Each push carries S/k: per byte of gradients, 1/k of a transfer's bytes.
  return busiest_link_seconds_per_byte(links, parameter_server_pushes(workers, servers)) / servers;
}

}  // namespace gcsim
