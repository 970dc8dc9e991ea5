// phase_transfers.hpp: what makes a PhasedWork wrong on a job's ranks, and
// what a phase costs alone on a placement. The transfers of its exchanges
// are sim/core/phased_work.hpp's exchange_transfers().
//
//   double t = phase_exchange_seconds(phase, {exchange_transfers(phase.exchanges[0], 8)}, {1e-3}, links);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/phased_work.hpp"
#include "sim/model/job_links.hpp"

namespace gcsim {

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
