// one_f_one_b.hpp: the time one iteration's pipeline takes under the 1F1B
// schedule when its stages compute for unequal times: the longest path of
// the schedule's DAG.
//
// Each stage s of p runs its ops in the 1F1B order: min(p - s - 1, m)
// warm-up forwards, then one forward and one backward in turn, then the
// cool-down backwards. Besides that order, the forward of micro-batch i on
// stage s waits for its forward on stage s - 1, and its backward on stage s
// for its backward on stage s + 1. Each op starts once the ops it waits for
// have ended; the pipeline ends with the first stage's last backward. The
// messages between stages are not edges of the DAG: the callers add their
// time per slot (sim/model/llm_iteration.hpp). With every stage equal, the
// longest path is (m + p - 1)(t_f + t_b).
//
//   one_f_one_b_seconds({1, 2}, {2, 4}, 3);  // 21: stage 1 takes twice stage 0's time
#pragma once

#include <cstdint>
#include <vector>

namespace gcsim {

/// The 1F1B pipeline's time for `micro_batches` micro-batches, stage s
/// taking forward[s] for a micro-batch's forward and backward[s] for its
/// backward (any unit: the result is in the same). forward and backward
/// have one entry per stage, at least one; 0 for no micro-batch.
double one_f_one_b_seconds(const std::vector<double>& forward, const std::vector<double>& backward,
                           std::uint32_t micro_batches);

}  // namespace gcsim
