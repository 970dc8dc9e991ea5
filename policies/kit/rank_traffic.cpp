#include "policies/kit/rank_traffic.hpp"

#include "sim/core/overloaded.hpp"

namespace gcsim {

std::vector<RankTransfer> exchange_rank_transfers(const PhaseExchange& exchange, std::uint32_t ranks, double bytes) {
  std::vector<RankTransfer> transfers;
  for (const Transfer& t : exchange_transfers(exchange, ranks)) transfers.push_back({t.from, t.to, bytes});
  return transfers;
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
