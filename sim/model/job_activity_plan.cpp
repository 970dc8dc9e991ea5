#include "sim/model/job_activity_plan.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <variant>

#include "sim/model/ring_allreduce_cost.hpp"

namespace gcsim {

std::string_view to_string(Fidelity fidelity) { return fidelity == Fidelity::kJob ? "job" : "iteration"; }

JobActivityPlan::JobActivityPlan(const JobSpec& job, Fidelity fidelity, double measured_type_flops,
                                 double ring_latency, double remaining_fraction, Time restore_delay)
    : fidelity_(fidelity), ranks_(job.gpus), ring_latency_(ring_latency) {
  assert(remaining_fraction > 0 && remaining_fraction <= 1 && "a plan has work left to do");
  if (restore_delay > 0) {
    leading_ = 1;
    restore_delay_ = restore_delay;
  }
  if (const auto* measured = std::get_if<MeasuredWork>(&job.work)) {
    // A measured run is one computation at the speed of the type it was measured on.
    compute_flops_ = measured->seconds * measured_type_flops * remaining_fraction;
    chunk_bytes_ = 0;
    iterations_ = 1;
    ring_steps_ = 0;
    steps_per_iteration_ = 1;
    core_steps_ = 1;
    return;
  }
  const auto& training = std::get<TrainingWork>(job.work);
  const std::uint64_t ring_steps = ring_step_count(ranks_);
  // Whole iterations: a checkpoint keeps completed iterations only.
  auto iterations = static_cast<std::uint64_t>(std::ceil(static_cast<double>(training.iterations) * remaining_fraction));
  iterations = std::max<std::uint64_t>(1, std::min(iterations, training.iterations));
  if (fidelity == Fidelity::kIteration) {
    compute_flops_ = training.flops_per_iteration;
    chunk_bytes_ = ring_chunk_bytes(ranks_, training.gradient_bytes);
    iterations_ = iterations;
    ring_steps_ = ring_steps;
    steps_per_iteration_ = 1 + ring_steps;
    core_steps_ = iterations * steps_per_iteration_;
    return;
  }
  const auto count = static_cast<double>(iterations);
  compute_flops_ = training.flops_per_iteration * count;
  chunk_bytes_ = ring_chunk_bytes(ranks_, training.gradient_bytes) * static_cast<double>(ring_steps) * count;
  iterations_ = 1;
  ring_steps_ = ring_steps > 0 ? 1 : 0;
  // The merged flow pays the route latency once; the real run pays it once per message.
  const double messages = count * static_cast<double>(ring_steps);
  latency_delay_ = messages > 1 ? (messages - 1) * ring_latency : 0.0;
  steps_per_iteration_ = 1 + ring_steps_;
  core_steps_ = steps_per_iteration_ + (latency_delay_ > 0 ? 1 : 0);
}

void JobActivityPlan::add_trailing_delay(Time seconds) {
  if (seconds > 0) trailing_delay_ += seconds;
}

JobStep JobActivityPlan::step(std::uint64_t k) const {
  assert(k < step_count() && "step index within the plan");
  if (k < leading_) return {JobStep::Kind::kDelay, restore_delay_};
  k -= leading_;
  if (k == core_steps_) return {JobStep::Kind::kDelay, trailing_delay_};
  if (fidelity_ == Fidelity::kJob && k == steps_per_iteration_) return {JobStep::Kind::kDelay, latency_delay_};
  const std::uint64_t within = k % steps_per_iteration_;
  if (within == 0) return {JobStep::Kind::kCompute, compute_flops_};
  return {JobStep::Kind::kRingStep, chunk_bytes_};
}

Time JobActivityPlan::uncontended_work_seconds(double gpu_flops, double edge_bandwidth) const {
  const double ring = static_cast<double>(ring_steps_) * (ring_latency_ + chunk_bytes_ / edge_bandwidth);
  return static_cast<double>(iterations_) * (compute_flops_ / gpu_flops + ring) + latency_delay_;
}

}  // namespace gcsim
