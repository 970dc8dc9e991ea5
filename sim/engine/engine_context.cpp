#include "sim/engine/engine_context.hpp"

#include <cassert>

#include "sim/model/duration_oracle.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;

void Doorbell::open() {
  mailbox_ = sg4::Mailbox::by_name("gcsim-scheduler");
  wait_.push_back(mailbox_->get_async<void>(&payload_));
}

void Doorbell::ring() {
  if (!listening_ || rung_) return;
  rung_ = true;
  // Runners and DAG coordinators stand on the scheduler's host for this reason.
  assert(sg4::this_actor::get_host() == host_ && "the doorbell rings from the scheduler's host");
  mailbox_->put_init(this, 0)->detach();
}

bool Doorbell::wait(double timeout) {
  listening_ = true;
  const ssize_t index = sg4::Activity::wait_any_for(wait_, timeout);
  listening_ = false;
  if (index < 0) return false;
  rung_ = false;
  wait_.front() = mailbox_->get_async<void>(&payload_);
  return true;
}

EngineContext::EngineContext(const SimulationInput& input, const SimGridPlatform& simgrid_platform,
                             ActorFailure& actor_failure)
    : in(input),
      platform(simgrid_platform),
      failure(actor_failure),
      state(input.layout, input.locality, input.jobs, uncontended_durations(input.jobs, input.layout)),
      recording(input.jobs.size(), input.layout.gpu_count()),
      doorbell(simgrid_platform.control_host()) {
  events.subscribe(recording);
}

void EngineContext::report(bool done) {
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - began_).count();
  if (!done && wall < last_report_ + 0.5) return;
  last_report_ = wall;
  const RunRecorder& recorder = recording.recorder();
  in.options.progress(SimulationProgress{now, recorder.jobs_ended(), in.jobs.size(), recorder.events(), wall, done});
}

}  // namespace gcsim
