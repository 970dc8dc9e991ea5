#include "sim/model/phase_transfers.hpp"

namespace gcsim {

std::vector<Transfer> exchange_transfers(const PhaseExchange& exchange, std::uint32_t ranks) {
  std::vector<Transfer> transfers;
  const std::uint32_t size = exchange.groups.size, stride = exchange.groups.stride;
  if (size < 2) return transfers;
  for (std::uint32_t r = 0; r < ranks; ++r) {
    const std::uint32_t digit = (r / stride) % size;
    const std::uint32_t first = r - digit * stride;  // the group's rank of digit 0
    switch (exchange.exchange) {
      case Exchange::kRingStep:
        transfers.push_back({r, first + ((digit + 1) % size) * stride});
        break;
      case Exchange::kAllToAll:
        for (std::uint32_t k = 1; k < size; ++k) transfers.push_back({r, first + ((digit + k) % size) * stride});
        break;
      case Exchange::kChainNext:
      case Exchange::kBroadcast:  // the chain a pipelined broadcast's chunks follow
        if (digit + 1 < size) transfers.push_back({r, r + stride});
        break;
      case Exchange::kChainPrev:
        if (digit > 0) transfers.push_back({r, r - stride});
        break;
    }
  }
  return transfers;
}

std::uint32_t latencies_per_message(const PhaseExchange& exchange) {
  // A broadcast's chunks reach the last rank of the chain one hop at a time.
  if (exchange.exchange == Exchange::kBroadcast && exchange.groups.size > 1) return exchange.groups.size - 1;
  return 1;
}

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
