// engine_context.hpp: what the parts of the engine share during one run:
// the input, the SimGrid platform, the scheduler state, the clock, the
// events and their first listener (the run recorder), and the doorbell the
// scheduler waits on.
//
// The scheduler's loop (scheduler_loop.hpp) owns it; the job runs, the
// runner actors and the timer steps read and advance its clock. Every
// change of state is announced through `events` (engine_events.hpp).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/state/scheduler_state.hpp"
#include "sim/engine/actor_failure.hpp"
#include "sim/engine/engine_events.hpp"
#include "sim/engine/platform_builder.hpp"
#include "sim/engine/record_listeners.hpp"
#include "sim/engine/simulation.hpp"

namespace gcsim {

// The doorbell: a receive on a mailbox, the one activity the scheduler
// waits on; a runner (or a DAG's coordinator) whose job's steps all ran
// ends the wait by sending to it. It rings from the scheduler's host to
// itself: no route, so the message arrives at this instant, once every
// actor waits.
class Doorbell {
 public:
  explicit Doorbell(simgrid::s4u::Host* host) : host_(host) {}
  /// Posts the first receive (from the scheduler's actor).
  void open();
  /// Wakes the scheduler if it waits on the doorbell (from an actor on its host).
  void ring();
  /// Waits for a ring, at most `timeout` seconds (negative: without a
  /// limit). True when it rang; false when the time ran out.
  bool wait(double timeout);
  /// Cancels the pending receive at the end of the run.
  void close() { wait_.front()->cancel(); }

 private:
  simgrid::s4u::Host* host_;
  simgrid::s4u::Mailbox* mailbox_ = nullptr;
  std::vector<simgrid::s4u::ActivityPtr> wait_;
  void* payload_ = nullptr;
  bool listening_ = false;  // the scheduler waits on the doorbell
  bool rung_ = false;       // a message to the doorbell is on its way
};

class EngineContext {
 public:
  EngineContext(const SimulationInput& input, const SimGridPlatform& platform, ActorFailure& failure);

  /// SimGrid's clock, once it has moved past `now`.
  void advance_clock() { now = std::max(now, simgrid::s4u::Engine::get_clock()); }
  /// SimulationOptions::stop_request is set.
  bool stop_requested() const { return in.options.stop_request && *in.options.stop_request != 0; }
  /// The progress report, about twice a second of wall time: the clock is
  /// read once every 1024 calls, so a run pays almost nothing for it.
  void report_progress(bool done = false) {
    if (in.options.progress && (done || (++turns_ & 1023) == 0)) report(done);
  }

  const SimulationInput& in;
  const SimGridPlatform& platform;
  ActorFailure& failure;
  SchedulerState state;
  EngineEvents events;
  RecorderListener recording;  // the first subscriber
  Doorbell doorbell;
  Time now = 0;
  bool stopped = false;     // the run is over (or failed): runners do nothing more
  std::uint64_t wakes = 0;  // runners and DAG workers back from a wait (SchedulerLoop::settle())

 private:
  // The report, unless the last was less than half a second ago.
  void report(bool done);

  const std::chrono::steady_clock::time_point began_ = std::chrono::steady_clock::now();
  std::uint64_t turns_ = 0;
  double last_report_ = 0;
};

}  // namespace gcsim
