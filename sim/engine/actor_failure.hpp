// actor_failure.hpp: an exception in a SimGrid actor ends the run, not the process.
//
// An exception escaping an actor's body reaches SimGrid's handler, which
// prints a backtrace and aborts the process: no message of gcsim's, no exit
// status of its own. Every actor gcsim creates runs its body through
// guarded(): the first exception is kept in the run's ActorFailure, the run
// is stopped (by ActorFailure::stop when set, else by killing every other
// actor) so that the engine ends, and simulate() rethrows it to its caller.
//
//   ActorFailure failure;
//   sg4::Actor::create("worker", host, guarded(failure, [] { work(); }));
//   engine.run();
//   if (failure.first) std::rethrow_exception(failure.first);
#pragma once

#include <exception>
#include <functional>
#include <utility>

#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Actor.hpp>

namespace gcsim {

struct ActorFailure {
  std::exception_ptr first;  // the first exception that escaped an actor's body
  /// Stops the run after a failure, from the failed actor. Unset: every other
  /// actor is killed (unsafe in SimGrid 3.32 for an actor waiting in
  /// Activity::wait_any_for on an activity it started, see runner_pool.hpp).
  std::function<void()> stop;
};

template <class Body>
auto guarded(ActorFailure& failure, Body body) {
  return [&failure, body = std::move(body)]() mutable {
    try {
      body();
    } catch (const simgrid::ForcefulKillException&) {
      throw;  // SimGrid ending this actor: not a failure
    } catch (...) {
      if (!failure.first) failure.first = std::current_exception();
      if (failure.stop)
        failure.stop();
      else
        simgrid::s4u::Actor::kill_all();
    }
  };
}

}  // namespace gcsim
