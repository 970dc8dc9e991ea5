// decision_channel.hpp: the simulation's side of gcsim.env.SchedulingEnv:
// each decision shown to the environment, and its action taken.
//
// The environment (python/gcsim/env/) runs the simulation in the child
// process of gcsim.run under DecisionPolicy, whose schedule() hands each
// call to serve(): the child runs no Python at all. The two processes share
// a page of memory (an anonymous shared mmap the environment made before the
// fork) and two pipes:
//
//   child -> parent  one byte, 'd': a decision is in the page
//                    (the parent's run thread writes 'e' once the run returned)
//   parent -> child  four bytes, the action (int32, this machine's order):
//                    a row of the observation (start that job), or the number
//                    of rows K (wait: nothing more at this instant)
//
// One decision is one step: serve() shows the first K waiting jobs (those
// it started in this call left out) and the cluster; when none of them can
// start now, the call ends without asking, and time moves on; otherwise it
// sends 'd', blocks for the action and, for a job, places it with the run's
// placement and allocates it, then shows the instant again. An instant with
// several free slots thus takes several steps.
//
// The page (kPageHeader float64 first, then in this order, each array
// 8-byte aligned):
//   header[0] now, [1] rows shown, [2] waiting jobs, [3] running jobs,
//   [4] free GPUs, [5] jobs ended, [6] in_system_rate, [7] in_system_offset,
//   [8] ended_slowdown, [9] the child's pid, [10] node count,
//   [11] decisions so far, [12] policy calls so far, [13] jobs yet to join
//   the queue
//   jobs      float64[K][kJobFeatures]: per row, GPUs asked, GPU share, time
//             waited (now - joined the queue), expected run time (the oracle
//             duration; inf: unknown), the user's estimate (0: none), 1 when
//             it can start now; rows past those shown are 0
//   indices   int64[K]: each row's job index, -1 past those shown
//   mask      uint8[K + 1]: 1 where the action is allowed: a row that can
//             start now; wait (the last), unless nothing runs and no job is
//             yet to join the queue (nothing would happen any more)
//   free      int32[nodes]: free GPUs per node
// The accrued slowdown at time t is ended_slowdown + t * in_system_rate -
// in_system_offset: the sum over jobs that joined the queue of
// (min(t, end) - joined) / expected run time (jobs without one count nothing).
//
//   registry.add_policy("SchedulingEnv", "...", "pack", [=](const PolicyOptions&, auto placement) {
//     return std::make_unique<DecisionPolicy>(ends, std::move(placement));
//   });
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "policies/kit/waiting_changes.hpp"
#include "python/python_policy.hpp"

namespace gcsim::python {

inline constexpr std::size_t kPageHeader = 16;
inline constexpr std::size_t kJobFeatures = 6;

/// Bytes of the page for K rows and `nodes` nodes.
std::size_t decision_page_size(std::size_t rows, std::size_t nodes);

class DecisionChannel {
 public:
  /// `page`: at least decision_page_size(rows, nodes) bytes, shared with the environment.
  DecisionChannel(unsigned char* page, std::size_t page_size, int decision_fd, int action_fd, std::size_t rows);

  /// One schedule() call: the decisions of this instant (see the file
  /// comment). Throws std::runtime_error when the environment went away or
  /// sent an action the mask forbids.
  void serve(PolicyCall& call);

 private:
  // Shows the instant in the page; the number of rows that can start now.
  std::size_t observe(PolicyCall& call);
  // Brings the slowdown sums up to date with the jobs that joined and ended.
  void account(const PolicyCall& call);

  unsigned char* page_;
  std::size_t page_size_;
  int decision_fd_, action_fd_;
  std::size_t rows_;
  double* header_;
  double* jobs_;
  std::int64_t* indices_;
  unsigned char* mask_;
  std::int32_t* free_;
  // Per row of the last observation: the GPUs a job that can start got.
  std::vector<std::vector<GpuId>> placed_;
  std::vector<JobIndex> started_;  // jobs started in this call
  WaitingChanges changes_;
  std::vector<char> in_system_;  // per job: joined the queue and not ended
  std::size_t in_system_count_ = 0;
  std::size_t runs_read_ = 0;
  double rate_ = 0, offset_ = 0, ended_slowdown_ = 0, ended_ = 0, decisions_ = 0, calls_ = 0;
};

/// The page and the child's ends of the pipes, as the environment gives them.
struct DecisionEnds {
  unsigned char* page = nullptr;
  std::size_t page_size = 0;
  int decision_fd = -1, action_fd = -1;
  std::size_t rows = 0;
  /// The environment's ends, closed in the child (so that they are the
  /// environment's alone) when the policy is made.
  std::vector<int> close_in_child;
};

/// The policy of an environment's simulation: every decision goes through
/// the channel. Its name in summary.json is "SchedulingEnv".
class DecisionPolicy final : public SchedulingPolicy {
 public:
  DecisionPolicy(const DecisionEnds& ends, std::unique_ptr<PlacementPolicy> placement);
  std::string_view name() const override { return "SchedulingEnv"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;

 private:
  std::unique_ptr<PlacementPolicy> placement_;
  DecisionChannel channel_;
  PolicyCall call_;
};

}  // namespace gcsim::python
