#include "sim/model/job_activity_plan.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <variant>

#include "sim/model/ring_allreduce_cost.hpp"

namespace gcsim {

std::string_view to_string(Fidelity fidelity) { return fidelity == Fidelity::kJob ? "job" : "iteration"; }

JobActivityPlan::JobActivityPlan(const JobSpec& job, Fidelity fidelity, double measured_type_flops, double ring_latency,
                                 double remaining_fraction, Time restore_delay, std::uint32_t job_rounds)
    : fidelity_(fidelity), ranks_(job.gpus), ring_latency_(ring_latency) {
  assert(remaining_fraction > 0 && remaining_fraction <= 1 && "a plan has work left to do");
  assert(job_rounds >= 1 && "at least one round");
  if (restore_delay > 0) {
    leading_ = 1;
    restore_delay_ = restore_delay;
  }
  if (const auto* measured = std::get_if<MeasuredWork>(&job.work)) {
    // A measured run is one computation at the speed of the type it was measured on.
    flops_per_iteration_ = measured->seconds * measured_type_flops * remaining_fraction;
    iterations_ = 1;
    rounds_ = 1;
    steps_per_round_ = 1;
    return;
  }
  const auto& training = std::get<TrainingWork>(job.work);
  // Whole iterations: a checkpoint keeps completed iterations only.
  auto iterations =
      static_cast<std::uint64_t>(std::ceil(static_cast<double>(training.iterations) * remaining_fraction));
  iterations_ = std::max<std::uint64_t>(1, std::min(iterations, training.iterations));
  flops_per_iteration_ = training.flops_per_iteration;
  chunk_bytes_ = ring_chunk_bytes(ranks_, training.gradient_bytes);
  // A job without gradients (gradient_bytes 0) exchanges nothing: no ring steps.
  messages_per_iteration_ = training.gradient_bytes > 0 ? ring_step_count(ranks_) : 0;
  if (fidelity == Fidelity::kIteration) {
    rounds_ = iterations_;
    ring_steps_per_round_ = messages_per_iteration_;
  } else {
    rounds_ = std::min<std::uint64_t>(job_rounds, iterations_);
    ring_steps_per_round_ = messages_per_iteration_ > 0 ? 1 : 0;
    // The merged flow pays the route latency once; the real run pays it once per message.
    with_latency_delay_ = messages_per_iteration_ > 0 && ring_latency > 0;
  }
  steps_per_round_ = 1 + ring_steps_per_round_ + (with_latency_delay_ ? 1 : 0);
}

void JobActivityPlan::add_trailing_delay(Time seconds) {
  if (seconds > 0) trailing_delay_ += seconds;
}

std::uint64_t JobActivityPlan::iterations_in_round(std::uint64_t round) const {
  // Rounds differ by at most one iteration, the longer ones first.
  return iterations_ / rounds_ + (round < iterations_ % rounds_ ? 1 : 0);
}

JobStep JobActivityPlan::step(std::uint64_t k) const {
  assert(k < step_count() && "step index within the plan");
  if (k < leading_) return {JobStep::Kind::kDelay, restore_delay_};
  k -= leading_;
  if (k == rounds_ * steps_per_round_) return {JobStep::Kind::kDelay, trailing_delay_};
  const std::uint64_t round = k / steps_per_round_, within = k % steps_per_round_;
  if (fidelity_ == Fidelity::kIteration) {
    if (within == 0) return {JobStep::Kind::kCompute, flops_per_iteration_};
    return {JobStep::Kind::kRingStep, chunk_bytes_};
  }
  const auto iterations = static_cast<double>(iterations_in_round(round));
  if (within == 0) return {JobStep::Kind::kCompute, flops_per_iteration_ * iterations};
  const double messages = iterations * static_cast<double>(messages_per_iteration_);
  if (within == 1 && ring_steps_per_round_ == 1) return {JobStep::Kind::kRingStep, chunk_bytes_ * messages};
  return {JobStep::Kind::kDelay, (messages - 1) * ring_latency_};
}

Time JobActivityPlan::uncontended_work_seconds(double gpu_flops, double edge_bandwidth) const {
  const double ring = messages_per_iteration_ > 0 ? static_cast<double>(messages_per_iteration_) *
                                                        (ring_latency_ + chunk_bytes_ / edge_bandwidth)
                                                  : 0.0;
  return static_cast<double>(iterations_) * (flops_per_iteration_ / gpu_flops + ring);
}

}  // namespace gcsim
