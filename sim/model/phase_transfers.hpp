// phase_transfers.hpp: the transfers one message of a PhasedWork exchange
// (sim/core/phased_work.hpp) makes among a job's ranks, and what a phase
// costs alone on a placement.
//
// Rank r's group holds the ranks that differ from r only in the digit
// g = (r / stride) % size; its neighbours are r +- stride. A ring step sends
// from each rank to the next of its group (the last to the first), an
// all-to-all from each rank to every other of its group, a chain from each
// rank to the next (or the previous) but from the last (the first).
//
//   const std::vector<Transfer> ring = exchange_transfers({Exchange::kRingStep, {4, 2}, 1e6, 6}, 8);
//   // 0->2, 1->3, 2->4, 3->5, 4->6, 5->7, 6->0, 7->1
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/phased_work.hpp"
#include "sim/model/job_links.hpp"

namespace gcsim {

/// The transfers of one message of `exchange` among ranks 0..ranks-1, in
/// rank order of the sender.
std::vector<Transfer> exchange_transfers(const PhaseExchange& exchange, std::uint32_t ranks);

/// The latencies one message of `exchange` pays in a row: size - 1 for a
/// broadcast down its chain, 1 for the others (their transfers go at once).
std::uint32_t latencies_per_message(const PhaseExchange& exchange);

/// What is wrong with `work` on `ranks` GPUs, or nothing: a group of no
/// rank or of no stride, groups that do not tile the ranks (size x stride
/// must divide them), a negative amount, no iteration.
std::optional<std::string> phased_work_problem(const PhasedWork& work, std::uint32_t ranks);

/// Seconds one iteration of the phase's exchanges takes alone on `links`,
/// all of them started together: the busiest link's bytes (every message of
/// every exchange) over its bandwidth, plus each exchange's messages'
/// latencies (`latencies`, one per exchange, in order, each paid
/// latencies_per_message() times a message).
double phase_exchange_seconds(const WorkPhase& phase, const std::vector<std::vector<Transfer>>& transfers,
                              const std::vector<double>& latencies, const JobLinks& links);

}  // namespace gcsim
