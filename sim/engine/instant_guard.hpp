// instant_guard.hpp: stops a run whose policy keeps changing allocations
// without simulated time advancing.
//
// Between two instants the engine calls the policy only when something
// happens (a completion, an arrival, a wake-up). A policy that takes a job's
// GPUs away and gives them back, over and over, at one instant, would hold
// the run there forever while its records grow until memory runs out. The
// guard counts, for the instant being simulated, the policy's calls and how
// often each job's GPUs were taken away (preempted, or released while it
// waited); past either bound it gives the engine a LivelockReport naming the
// jobs and the decisions that repeat, and the engine stops the run there.
//
// Bounds: a job's GPUs taken away more than kMaxTakenAwayPerJob times at one
// instant, or more than kMaxCallsAtOneInstant policy calls at one instant.
// Calls less than kInstantWidth of simulated time after the first call of an
// instant count as that instant: the clock's resolution at a simulated year
// is a few nanoseconds, so a policy that wakes itself "just after now" over
// and over is still at one instant.
//
// It listens to the engine's events (engine_events.hpp): each policy plan
// applied is a call.
//
//   InstantGuard guard;
//   guard.begin_call(now);
//   guard.record(plan);  // after the engine applied it (on_plan_applied does both)
//   if (auto report = guard.livelock()) stop the run with *report;
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>

#include "sim/core/plan.hpp"
#include "sim/engine/engine_events.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

class InstantGuard : public EngineListener {
 public:
  static constexpr std::uint32_t kMaxTakenAwayPerJob = 10;
  static constexpr std::uint64_t kMaxCallsAtOneInstant = 100000;
  static constexpr Time kInstantWidth = 1e-6;

  /// A policy call at `now`; a later instant starts the counts afresh.
  void begin_call(Time now);
  /// The decisions of the call's plan, as applied.
  void record(const Plan& plan);
  /// Set once a bound is passed at the current instant.
  std::optional<LivelockReport> livelock() const;

  void on_plan_applied(const PlanApplied& e) override {
    begin_call(e.now);
    record(e.plan);
  }

 private:
  // The decisions kept to find what repeats: enough for any cycle the
  // bounds let through between a few jobs.
  static constexpr std::size_t kKeptDecisions = 256;

  Time instant_ = -1;
  std::uint64_t calls_ = 0;
  std::unordered_map<JobIndex, std::uint32_t> taken_away_;
  std::deque<Decision> recent_;  // the last decisions of the instant, GPUs left out
  bool over_bound_ = false;
};

}  // namespace gcsim
