// rank_traffic.hpp: what a job's ranks send each other in one iteration,
// as a placement or a policy reads it from the job's work.
//
// A job's ranks are its GPUs in placement order. Phased work (the form a
// large model's training compiles into, sim/core/phased_work.hpp) sends,
// for every exchange of every phase, `bytes` x `messages` along each of the
// exchange's transfers, by the rule the engine runs (exchange_transfers in
// sim/core/phased_work.hpp: a ring step to the next rank of the group, an
// all-to-all to every other one, a chain or a broadcast to the next, a chain
// to the previous); data-parallel training with a
// ring allreduce sends 2 (n - 1) / n of its gradients to the next rank of
// the ring. Other work (parameter servers, measured runs, DAGs, notebooks,
// serving, CPU jobs) sends nothing a placement can arrange.
//
//   for (const RankTransfer& t : iteration_traffic(job.work, job.gpus)) load[route(t.from, t.to)] += t.bytes;
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "sim/core/phased_work.hpp"

namespace gcsim {

/// Bytes rank `from` sends rank `to` in one iteration.
struct RankTransfer {
  std::uint32_t from, to;
  double bytes;
};

/// The transfers one message of `exchange` makes among ranks 0..ranks-1, in
/// the sender's rank order, each carrying `bytes` (set to the exchange's
/// bytes x messages by the callers below).
std::vector<RankTransfer> exchange_rank_transfers(const PhaseExchange& exchange, std::uint32_t ranks, double bytes);

/// Every transfer of one iteration of `work` on `ranks` ranks (see the file
/// comment); empty for work that sends nothing between its ranks.
std::vector<RankTransfer> iteration_traffic(const JobWork& work, std::uint32_t ranks);

/// The work's phases, or null for any other form of work.
const PhasedWork* phased_work_of(const JobWork& work);

/// FLOPs one iteration of `work` computes on each rank; 0 for work without
/// iterations of known FLOPs.
double iteration_flops_per_rank(const JobWork& work);

}  // namespace gcsim
