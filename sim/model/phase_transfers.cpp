#include "sim/model/phase_transfers.hpp"

namespace gcsim {

std::optional<std::string> phased_work_problem(const PhasedWork& work, std::uint32_t ranks) {
  if (work.iterations == 0) return "a phased job runs at least one iteration";
  for (std::size_t p = 0; p < work.phases.size(); ++p) {
    const WorkPhase& phase = work.phases[p];
    const std::string where = "phase " + std::to_string(p) + ": ";
    if (!(phase.flops >= 0)) return where + "negative FLOPs";
    for (const PhaseExchange& exchange : phase.exchanges) {
      const RankGroups& groups = exchange.groups;
      if (groups.size == 0 || groups.stride == 0) return where + "a group of no rank, or ranks no stride apart";
      const std::uint64_t block = static_cast<std::uint64_t>(groups.size) * groups.stride;
      if (ranks % block != 0)
        return where + "groups of " + std::to_string(groups.size) + " ranks " + std::to_string(groups.stride) +
               " apart do not tile " + std::to_string(ranks) + " ranks";
      if (!(exchange.bytes >= 0)) return where + "negative bytes";
    }
  }
  return std::nullopt;
}

double phase_exchange_seconds(const WorkPhase& phase, const std::vector<std::vector<Transfer>>& transfers,
                              const std::vector<double>& latencies, const JobLinks& links) {
  std::vector<const std::vector<Transfer>*> sets;
  std::vector<double> bytes;
  double latency = 0;
  for (std::size_t e = 0; e < phase.exchanges.size(); ++e) {
    const PhaseExchange& exchange = phase.exchanges[e];
    if (transfers[e].empty() || exchange.messages == 0) continue;
    sets.push_back(&transfers[e]);
    bytes.push_back(exchange.bytes * static_cast<double>(exchange.messages));
    latency =
        std::max(latency, static_cast<double>(exchange.messages) * latencies_per_message(exchange) * latencies[e]);
  }
  return sets.empty() ? 0 : latency + busiest_link_seconds(links, sets, bytes);
}

}  // namespace gcsim
