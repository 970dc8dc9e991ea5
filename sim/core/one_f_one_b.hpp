// one_f_one_b.hpp: the 1F1B schedule of one iteration's pipeline as a DAG of
// its computations, and the time it takes when its stages compute for
// unequal times: the DAG's longest path.
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
// OneFOneBDag gives each op's earliest end (one pass in topological order)
// and latest end (one pass back), both O(ops): an op's float, latest end -
// earliest end, is how much longer it may take before the pipeline does
// (sim/core/stage_power_plan.hpp plans on it).
//
//   one_f_one_b_seconds({1, 2}, {2, 4}, 3);  // 21: stage 1 takes twice stage 0's time
//   const OneFOneBDag dag(2, 3);
//   std::vector<double> durations(dag.size());
//   durations[pipeline_op(1, 0, true, 3)] = 4;  // stage 1's backward of micro-batch 0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gcsim {

/// The number of an op of a 1F1B pipeline of `micro_batches` micro-batches:
/// (stage x micro_batches + micro_batch) x 2, + 1 for the backward.
inline std::size_t pipeline_op(std::uint32_t stage, std::uint32_t micro_batch, bool backward,
                               std::uint32_t micro_batches) {
  return (std::size_t{stage} * micro_batches + micro_batch) * 2 + (backward ? 1 : 0);
}

/// The 1F1B schedule's DAG over `stages` stages (at least one) and
/// `micro_batches` micro-batches: 2 x stages x micro_batches ops, numbered
/// by pipeline_op(); durations are given in that numbering.
class OneFOneBDag {
 public:
  OneFOneBDag(std::uint32_t stages, std::uint32_t micro_batches);

  std::size_t size() const { return order_.size(); }

  /// Each op's earliest end when op k takes durations[k]; the pipeline's
  /// time is the largest (0 without ops).
  std::vector<double> earliest_ends(const std::vector<double>& durations) const;

  /// Each op's latest end that keeps the pipeline within `end`.
  std::vector<double> latest_ends(const std::vector<double>& durations, double end) const;

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> order_;                      // the ops, each after those it waits for
  std::vector<std::array<std::size_t, 2>> waits_for_;   // per op: the op before it on its stage, the one on the next
  std::vector<std::array<std::size_t, 2>> waited_for_;  // per op: the ops that wait for it (kNone: none)
};

/// The 1F1B pipeline's time for `micro_batches` micro-batches, stage s
/// taking forward[s] for a micro-batch's forward and backward[s] for its
/// backward (any unit: the result is in the same). forward and backward
/// have one entry per stage, at least one; 0 for no micro-batch.
double one_f_one_b_seconds(const std::vector<double>& forward, const std::vector<double>& backward,
                           std::uint32_t micro_batches);

}  // namespace gcsim
