#include "sim/model/job_activity_plan.hpp"

#include <cassert>
#include <variant>

#include "sim/model/ring_allreduce_cost.hpp"

namespace gcsim {

std::string_view to_string(Fidelity fidelity) { return fidelity == Fidelity::kJob ? "job" : "iteration"; }

JobActivityPlan::JobActivityPlan(const JobSpec& job, Fidelity fidelity, double measured_type_flops,
                                 double ring_latency)
    : fidelity_(fidelity), ranks_(job.gpus) {
  if (const auto* measured = std::get_if<MeasuredWork>(&job.work)) {
    // A measured run is one computation at the speed of the type it was measured on.
    compute_flops_ = measured->seconds * measured_type_flops;
    chunk_bytes_ = 0;
    delay_seconds_ = 0;
    ring_steps_ = 0;
    steps_per_iteration_ = 1;
    step_count_ = 1;
    return;
  }
  const auto& training = std::get<TrainingWork>(job.work);
  const std::uint64_t ring_steps = ring_step_count(ranks_);
  const auto iterations = static_cast<double>(training.iterations);
  if (fidelity == Fidelity::kIteration) {
    compute_flops_ = training.flops_per_iteration;
    chunk_bytes_ = ring_chunk_bytes(ranks_, training.gradient_bytes);
    delay_seconds_ = 0;
    ring_steps_ = ring_steps;
    steps_per_iteration_ = 1 + ring_steps;
    step_count_ = training.iterations * steps_per_iteration_;
    return;
  }
  compute_flops_ = training.flops_per_iteration * iterations;
  chunk_bytes_ = ring_chunk_bytes(ranks_, training.gradient_bytes) * static_cast<double>(ring_steps) * iterations;
  ring_steps_ = ring_steps > 0 ? 1 : 0;
  // The merged flow pays the route latency once; the real run pays it once per message.
  const double messages = iterations * static_cast<double>(ring_steps);
  delay_seconds_ = messages > 1 ? (messages - 1) * ring_latency : 0.0;
  steps_per_iteration_ = 1 + ring_steps_;
  step_count_ = steps_per_iteration_ + (delay_seconds_ > 0 ? 1 : 0);
}

JobStep JobActivityPlan::step(std::uint64_t k) const {
  assert(k < step_count_ && "step index within the plan");
  if (fidelity_ == Fidelity::kJob && k == steps_per_iteration_) return {JobStep::Kind::kDelay, delay_seconds_};
  const std::uint64_t within = k % steps_per_iteration_;
  if (within == 0) return {JobStep::Kind::kCompute, compute_flops_};
  return {JobStep::Kind::kRingStep, chunk_bytes_};
}

}  // namespace gcsim
