// phased_work.hpp: iterations of a program of phases over a job's ranks,
// the form of work a large model's training compiles into
// (workloads/kinds/llm_training/).
//
// A job's ranks are its GPUs in placement order, 0..n-1. A phase computes
// `flops` on every GPU while its exchanges go; it ends when the computation
// and every transfer have ended. An exchange moves data among the ranks of
// each of its groups (RankGroups): one step of a ring (reduce-scatter,
// all-gather and allreduce are rings of n-1, n-1 and 2(n-1) such steps), an
// all-to-all, a broadcast, or the sends between neighbouring pipeline stages
// (a point-to-point message is a chain of groups of 2). Its
// `messages` are what it stands for: a phase's exchange is one flow per
// transfer carrying the bytes of all its messages, and the latencies the
// merged messages do not pay come as a delay (sim/model/job_activity_plan.hpp).
//
//   PhasedWork work;
//   work.iterations = 100;
//   // 8 data-parallel groups of 4 ranks, ranks 0, 8, 16, 24 the first: a ring allreduce of 1 GB each.
//   work.phases = {{.flops = 3e14},
//                  {.exchanges = {{Exchange::kRingStep, {4, 8}, 1e9 / 4, 2 * 3}}}};
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gcsim {

/// The ranks in groups of `size`, neighbours `stride` apart: rank r is in
/// the group of the ranks that differ from r only in the digit (r / stride) %
/// size. {t, 1}: consecutive ranks (tensor parallel groups); {d, t}: every
/// t-th rank within a block of t x d (data parallel groups).
struct RankGroups {
  std::uint32_t size = 1;
  std::uint32_t stride = 1;
};

enum class Exchange : std::uint8_t {
  kRingStep,   // each rank sends `bytes` to the next of its group, the last to the first
  kAllToAll,   // each rank sends `bytes` to every other rank of its group, all at once
  kChainNext,  // each rank but the last of its group sends `bytes` to the next (pipeline stages, forward)
  kChainPrev,  // each rank but the first sends `bytes` to the one before (pipeline stages, backward)
  kBroadcast,  // from the group's first rank down the chain, pipelined: each rank but the last sends `bytes` to
               // the next, all at once, and a message reaches the last rank size - 1 latencies after it left
};

/// An exchange of a phase: `messages` messages of `bytes` per transfer, run
/// as one flow per transfer carrying them all.
struct PhaseExchange {
  Exchange exchange = Exchange::kRingStep;
  RankGroups groups;
  double bytes = 0;            // per transfer and message
  std::uint64_t messages = 1;  // per iteration
};

struct WorkPhase {
  double flops = 0;  // per GPU, per iteration
  std::vector<PhaseExchange> exchanges;
};

/// The power states of a pipeline's computations (sim/core/stage_power_plan.hpp):
/// its stages' computation, for the 1F1B schedule's DAG, and either each
/// stage's power limit or Perseus's per-computation rule with its slack.
struct StagePowerPlan {
  RankGroups stages;                   // the p stages: rank r is on stage (r / stride) % size
  std::uint32_t micro_batches = 1;     // m
  std::vector<double> forward_flops;   // per stage: one micro-batch's forward on one GPU
  std::vector<double> backward_flops;  // per stage: its backward (recomputation included)
  std::vector<double> limits_watts;    // per stage; empty: the states Perseus's rule picks
  double slack = 0;                    // Perseus's rule: the pipeline may take (1 + slack) x its time at full power
};

struct PhasedWork {
  std::vector<WorkPhase> phases;  // one iteration
  std::uint64_t iterations = 1;
  /// A pipeline whose stages run in their own power states: the phases'
  /// computation is its time at full power, stretched on the job's GPUs
  /// by the plan's states. None: every GPU runs as the cluster caps it.
  /// Held by pointer, shared by the job's copies: every job carries a
  /// PhasedWork's room in its JobSpec, and few jobs have a plan.
  std::shared_ptr<const StagePowerPlan> power_plan;
};

/// A transfer from one rank of a job to another (indices in placement, or
/// ring, order).
struct Transfer {
  std::uint32_t from, to;
  bool operator==(const Transfer& other) const { return from == other.from && to == other.to; }
};

/// The transfers one message of `exchange` makes among ranks 0..ranks-1, in
/// rank order of the sender: the one rule the engine runs and placements
/// read. Rank r's group holds the ranks that differ from r only in the digit
/// g = (r / stride) % size; its neighbours are r +- stride. A ring step sends
/// from each rank to the next of its group (the last to the first), an
/// all-to-all from each rank to every other of its group, a chain (and a
/// broadcast's) from each rank to the next (or the previous) but from the
/// last (the first).
///
///   exchange_transfers({Exchange::kRingStep, {4, 2}, 1e6, 6}, 8);
///   // 0->2, 1->3, 2->4, 3->5, 4->6, 5->7, 6->0, 7->1
std::vector<Transfer> exchange_transfers(const PhaseExchange& exchange, std::uint32_t ranks);

/// The latencies one message of `exchange` pays in a row: size - 1 for a
/// broadcast down its chain, 1 for the others (their transfers go at once).
std::uint32_t latencies_per_message(const PhaseExchange& exchange);

}  // namespace gcsim
