// run_log.hpp: every run of every job, kept for a timeline of the schedule
// (`gcsim run --timeline`): where it ran, from when to when, and how it ended.
// Off by default: a run that draws no timeline keeps none.
//
//   RunLog log;
//   log.started(job, 0, gpus, {});
//   log.stopped(job, 40, RunEnd::kPreempted);
//   std::vector<RunSlice> runs = log.close_all(100);
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/ids.hpp"

namespace gcsim {

enum class RunEnd : std::uint8_t { kFinished, kFailed, kPreempted, kWithdrawn, kUnfinished };

/// One run of a job: on `gpus`, or on `nodes` for a job that holds no GPU
/// (a CPU job's one node, a DAG of CPU workers' several), over [start, end).
struct RunSlice {
  JobIndex job = 0;
  Time start = 0, end = 0;
  RunEnd how = RunEnd::kUnfinished;
  std::vector<NodeId> nodes;
  std::vector<GpuId> gpus;
};

/// Something that happened at one instant to the cluster: a node failed.
struct NodeEvent {
  Time at = 0;
  NodeId node = 0;
};

class RunLog {
 public:
  /// A job's run began (a run it had open ends now, unfinished: it cannot have two).
  void started(JobIndex job, Time now, const std::vector<GpuId>& gpus, const std::vector<NodeId>& nodes);
  /// Its open run ended now, as `how`; nothing when it has none open.
  void stopped(JobIndex job, Time now, RunEnd how);
  void node_failed(Time now, NodeId node) { node_failures_.push_back({now, node}); }
  /// Every run, in the order they began, those still open ending at `end`, unfinished.
  std::vector<RunSlice> close_all(Time end);
  const std::vector<NodeEvent>& node_failures() const { return node_failures_; }

 private:
  static constexpr std::uint32_t kNone = static_cast<std::uint32_t>(-1);
  std::vector<RunSlice> runs_;
  std::vector<std::uint32_t> open_;  // per job, its open run's index in runs_ (kNone)
  std::vector<NodeEvent> node_failures_;
};

}  // namespace gcsim
