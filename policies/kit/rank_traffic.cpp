#include "policies/kit/rank_traffic.hpp"

#include "sim/core/overloaded.hpp"

namespace gcsim {

std::vector<RankTransfer> exchange_rank_transfers(const PhaseExchange& exchange, std::uint32_t ranks, double bytes) {
  std::vector<RankTransfer> transfers;
  const std::uint32_t size = exchange.groups.size, stride = exchange.groups.stride;
  if (size < 2 || stride == 0) return transfers;
  for (std::uint32_t r = 0; r < ranks; ++r) {
    const std::uint32_t digit = (r / stride) % size;
    const std::uint32_t first = r - digit * stride;  // the group's rank of digit 0
    switch (exchange.exchange) {
      case Exchange::kRingStep:
        transfers.push_back({r, first + ((digit + 1) % size) * stride, bytes});
        break;
      case Exchange::kAllToAll:
        for (std::uint32_t k = 1; k < size; ++k) transfers.push_back({r, first + ((digit + k) % size) * stride, bytes});
        break;
      case Exchange::kChainNext:
        if (digit + 1 < size) transfers.push_back({r, r + stride, bytes});
        break;
      case Exchange::kChainPrev:
        if (digit > 0) transfers.push_back({r, r - stride, bytes});
        break;
    }
  }
  return transfers;
}

std::uint64_t exchange_transfer_count(const PhaseExchange& exchange, std::uint32_t ranks) {
  const std::uint64_t size = exchange.groups.size;
  if (size < 2) return 0;
  switch (exchange.exchange) {
    case Exchange::kRingStep:
      return ranks;
    case Exchange::kAllToAll:
      return ranks * (size - 1);
    case Exchange::kChainNext:
    case Exchange::kChainPrev:
      return ranks / size * (size - 1);
  }
  return 0;
}

std::vector<RankTransfer> iteration_traffic(const JobWork& work, std::uint32_t ranks) {
  std::vector<RankTransfer> traffic;
  std::visit(Overloaded{[&](const PhasedWork& phased) {
                          for (const WorkPhase& phase : phased.phases)
                            for (const PhaseExchange& exchange : phase.exchanges) {
                              const double bytes = exchange.bytes * static_cast<double>(exchange.messages);
                              if (bytes <= 0) continue;
                              auto transfers = exchange_rank_transfers(exchange, ranks, bytes);
                              traffic.insert(traffic.end(), transfers.begin(), transfers.end());
                            }
                        },
                        [&](const TrainingWork& training) {
                          if (training.parameter_servers > 0 || ranks < 2 || training.gradient_bytes <= 0) return;
                          // A ring allreduce: 2 (n - 1) steps of G / n to the next rank.
                          const double bytes = 2.0 * (ranks - 1) * training.gradient_bytes / ranks;
                          for (std::uint32_t r = 0; r < ranks; ++r) traffic.push_back({r, (r + 1) % ranks, bytes});
                        },
                        [](const MeasuredWork&) {}, [](const DagWork&) {}, [](const NotebookWork&) {},
                        [](const ServingWork&) {}, [](const CpuWork&) {}},
             work);
  return traffic;
}

const PhasedWork* phased_work_of(const JobWork& work) {
  return std::visit(Overloaded{[](const PhasedWork& phased) { return &phased; },
                               [](const TrainingWork&) -> const PhasedWork* { return nullptr; },
                               [](const MeasuredWork&) -> const PhasedWork* { return nullptr; },
                               [](const DagWork&) -> const PhasedWork* { return nullptr; },
                               [](const NotebookWork&) -> const PhasedWork* { return nullptr; },
                               [](const ServingWork&) -> const PhasedWork* { return nullptr; },
                               [](const CpuWork&) -> const PhasedWork* { return nullptr; }},
                    work);
}

double iteration_flops_per_rank(const JobWork& work) {
  return std::visit(Overloaded{[](const PhasedWork& phased) {
                                 double flops = 0;
                                 for (const WorkPhase& phase : phased.phases) flops += phase.flops;
                                 return flops;
                               },
                               [](const TrainingWork& training) { return training.flops_per_iteration; },
                               [](const MeasuredWork&) { return 0.0; }, [](const DagWork&) { return 0.0; },
                               [](const NotebookWork&) { return 0.0; }, [](const ServingWork&) { return 0.0; },
                               [](const CpuWork&) { return 0.0; }},
                    work);
}

}  // namespace gcsim
