#include "sim/model/job_activity_plan.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <variant>

#include "sim/core/overloaded.hpp"
#include "sim/model/ring_allreduce_cost.hpp"

namespace gcsim {

std::string_view to_string(Fidelity fidelity) { return fidelity == Fidelity::kJob ? "job" : "iteration"; }

JobActivityPlan::JobActivityPlan(const JobSpec& job, Fidelity fidelity, double measured_type_flops,
                                 double exchange_latency, double remaining_fraction, Time restore_delay,
                                 std::uint32_t job_rounds, const Hierarchy& hierarchy,
                                 const std::vector<PhaseCost>& phase_costs)
    : fidelity_(fidelity), ranks_(job.gpus), exchange_latency_(exchange_latency) {
  assert(remaining_fraction > 0 && remaining_fraction <= 1 && "a plan has work left to do");
  assert(job_rounds >= 1 && "at least one round");
  if (restore_delay > 0) {
    leading_ = 1;
    restore_delay_ = restore_delay;
  }
  std::visit(
      Overloaded{
          [&](const TrainingWork& training) { plan_training(training, remaining_fraction, job_rounds, hierarchy); },
          [&](const MeasuredWork& measured) { plan_measured(measured, measured_type_flops, remaining_fraction); },
          [&](const NotebookWork& notebook) { plan_notebook(notebook); },
          [&](const PhasedWork& phased) { plan_phased(phased, remaining_fraction, job_rounds, phase_costs); },
          // The forms that run no steps: the engine runs them otherwise.
          [](const DagWork&) {
            throw std::logic_error("a DAG job runs its tasks on its workers, not a plan of steps");
          },
          [](const ServingWork&) {
            throw std::logic_error(
                "a serving replica is held until its deployment ends it, "
                "not run as a plan of steps");
          },
          [](const CpuWork&) {
            throw std::logic_error("a CPU job runs on its cores for its seconds, not a plan of steps");
          }},
      job.work);
}

void JobActivityPlan::plan_notebook(const NotebookWork& notebook) {
  // Its activity as it comes, at any fidelity; a preempted notebook starts it over.
  for (const NotebookPhase& phase : notebook.activity) {
    if (phase.idle > 0) notebook_steps_.push_back({JobStep::Kind::kDelay, phase.idle});
    if (phase.busy > 0) notebook_steps_.push_back({JobStep::Kind::kBusy, phase.busy});
  }
  notebook_seconds_ = notebook.seconds();
  iterations_ = 1;
  rounds_ = 1;
  steps_per_round_ = notebook_steps_.size();
  computes_ = false;
}

void JobActivityPlan::plan_phased(const PhasedWork& phased, double remaining_fraction, std::uint32_t job_rounds,
                                  const std::vector<PhaseCost>& phase_costs) {
  trains_ = true;
  phased_ = true;
  // Whole iterations: a checkpoint keeps completed iterations only.
  const auto iterations =
      static_cast<std::uint64_t>(std::ceil(static_cast<double>(phased.iterations) * remaining_fraction));
  iterations_ = std::max<std::uint64_t>(1, std::min(iterations, phased.iterations));
  rounds_ = fidelity_ == Fidelity::kIteration ? iterations_ : std::min<std::uint64_t>(job_rounds, iterations_);
  phase_costs_ = phase_costs;
  phase_costs_.resize(phased.phases.size());
  for (std::uint32_t p = 0; p < phased.phases.size(); ++p) {
    const WorkPhase& phase = phased.phases[p];
    const PhaseCost& cost = phase_costs_[p];
    const bool exchanges = cost.busiest_seconds > 0 || cost.paid_latency > 0;
    if (phase.flops <= 0 && !exchanges) continue;  // a phase that does nothing on these GPUs
    phases_.push_back({p, phase.flops, exchanges});
    if (exchanges) ++transfer_steps_per_round_;
    // The merged flows of a phase pay one latency; the messages they stand
    // for pay theirs in a delay that ends each round.
    if (exchanges && cost.message_latencies > 0) with_latency_delay_ = true;
  }
  computes_ = std::any_of(phases_.begin(), phases_.end(), [](const PlannedPhase& p) { return p.flops > 0; });
  steps_per_round_ = phases_.size() + (with_latency_delay_ ? 1 : 0);
  if (steps_per_round_ == 0) {  // nothing to do on these GPUs: one empty delay
    rounds_ = 1;
    steps_per_round_ = 1;
    with_latency_delay_ = true;
  }
}

JobStep JobActivityPlan::phased_step(std::uint64_t within, double iterations) const {
  if (within < phases_.size()) {
    const PlannedPhase& phase = phases_[within];
    return {JobStep::Kind::kPhase, phase.flops * iterations, iterations, phase.index};
  }
  // The latencies the round's messages pay beyond the one each phase's flows paid.
  double delay = 0;
  for (const PlannedPhase& phase : phases_) {
    const PhaseCost& cost = phase_costs_[phase.index];
    if (phase.exchanges) delay += iterations * cost.message_latencies - cost.paid_latency;
  }
  return {JobStep::Kind::kDelay, std::max(0.0, delay)};
}

Time JobActivityPlan::phased_iteration_seconds(double gpu_flops) const {
  // A phase lasts its computation or its flows, the longer, then the
  // latencies its merged messages did not pay.
  Time seconds = 0;
  for (const PlannedPhase& phase : phases_) {
    const PhaseCost& cost = phase_costs_[phase.index];
    const Time flows = phase.exchanges ? cost.paid_latency + cost.busiest_seconds : 0;
    seconds +=
        std::max(phase.flops / gpu_flops, flows) + (phase.exchanges ? cost.message_latencies - cost.paid_latency : 0.0);
  }
  return seconds;
}

void JobActivityPlan::plan_measured(const MeasuredWork& measured, double measured_type_flops,
                                    double remaining_fraction) {
  // A measured run is one computation at the speed of the type it was measured on.
  flops_per_iteration_ = measured.seconds * measured_type_flops * remaining_fraction;
  iterations_ = 1;
  rounds_ = 1;
  steps_per_round_ = 1;
}

void JobActivityPlan::plan_training(const TrainingWork& training, double remaining_fraction, std::uint32_t job_rounds,
                                    const Hierarchy& hierarchy) {
  trains_ = true;
  // Whole iterations: a checkpoint keeps completed iterations only.
  auto iterations =
      static_cast<std::uint64_t>(std::ceil(static_cast<double>(training.iterations) * remaining_fraction));
  iterations_ = std::max<std::uint64_t>(1, std::min(iterations, training.iterations));
  flops_per_iteration_ = training.flops_per_iteration;
  servers_ = training.parameter_servers;
  // A job without gradients (gradient_bytes 0) exchanges nothing, nor does a
  // single GPU (its servers run on its own host): no transfer steps.
  const bool exchanges = training.gradient_bytes > 0 && ranks_ >= 2;
  gradient_bytes_ = training.gradient_bytes;
  if (servers_ > 0) {
    divisor_ = servers_;
    messages_per_buffer_ = exchanges ? 2 : 0;  // a push and a pull
  } else if (training.hierarchical_allreduce) {
    hierarchical_ = true;
    hierarchy_ = hierarchy;
    divisor_ = hierarchy.local_ranks;  // inside a node S/L, across nodes S/(L M)
    intra_steps_ = hierarchy.local_ranks - 1;
    inter_steps_ = 2ull * (hierarchy.nodes - 1);
    messages_per_buffer_ = exchanges ? 2 * intra_steps_ + inter_steps_ : 0;
  } else {
    divisor_ = ranks_;
    messages_per_buffer_ = exchanges ? ring_step_count(ranks_) : 0;
  }
  buffers_ = training.fusion_buffers();
  buffer_bytes_ = training.fusion_bytes;
  messages_per_iteration_ = messages_per_buffer_ * buffers_;
  if (fidelity_ == Fidelity::kIteration) {
    rounds_ = iterations_;
    transfer_steps_per_round_ = messages_per_iteration_;
  } else {
    rounds_ = std::min<std::uint64_t>(job_rounds, iterations_);
    if (messages_per_iteration_ == 0) {
      transfer_steps_per_round_ = 0;
    } else if (hierarchical_) {  // one step inside the nodes, one across, where there are any
      transfer_steps_per_round_ = (intra_steps_ > 0 ? 1 : 0) + (inter_steps_ > 0 ? 1 : 0);
    } else {
      transfer_steps_per_round_ = servers_ > 0 ? 2 : 1;
    }
    // The merged flows pay the route latency once each; the real run pays it once per message.
    with_latency_delay_ = messages_per_iteration_ > 0 && exchange_latency_ > 0;
  }
  steps_per_round_ = 1 + transfer_steps_per_round_ + (with_latency_delay_ ? 1 : 0);
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
  if (!notebook_steps_.empty() && k < notebook_steps_.size()) return notebook_steps_[k];
  if (k < leading_) return {JobStep::Kind::kDelay, restore_delay_};
  k -= leading_;
  if (k == rounds_ * steps_per_round_) return {JobStep::Kind::kDelay, trailing_delay_};
  const std::uint64_t round = k / steps_per_round_, within = k % steps_per_round_;
  // Each message of an iteration (iteration fidelity), or the merged flows of a round.
  const double iterations = fidelity_ == Fidelity::kIteration ? 1.0 : static_cast<double>(iterations_in_round(round));
  if (phased_) return phased_step(within, iterations);
  if (within == 0) return {JobStep::Kind::kCompute, flops_per_iteration_ * iterations, iterations};
  if (within <= transfer_steps_per_round_ && hierarchical_) return hierarchical_step(within, iterations);
  if (within <= transfer_steps_per_round_) {
    const std::uint64_t index = within - 1;  // iteration fidelity: the iteration's message `index`
    const bool push = fidelity_ == Fidelity::kIteration ? index % messages_per_buffer_ == 0 : within == 1;
    const JobStep::Kind kind = servers_ == 0 ? JobStep::Kind::kRingStep
                               : push        ? JobStep::Kind::kPush
                                             : JobStep::Kind::kPull;
    if (fidelity_ == Fidelity::kIteration) return {kind, buffer_bytes(index / messages_per_buffer_) / divisor_};
    // Merged: the flow carries every buffer's messages of the round's
    // iterations: a push or a pull one per buffer, a ring step 2(N-1).
    const double per_buffer = servers_ > 0 ? 1.0 : static_cast<double>(messages_per_buffer_);
    return {kind, gradient_bytes_ / divisor_ * (iterations * per_buffer)};
  }
  if (hierarchical_) {
    // Every message pays its latency, inside a node or across; the merged steps paid one each.
    const auto buffers = static_cast<double>(buffers_);
    const double per_iteration = buffers * (2.0 * static_cast<double>(intra_steps_) * exchange_latency_ +
                                            static_cast<double>(inter_steps_) * hierarchy_.inter_node_latency);
    const double paid =
        (intra_steps_ > 0 ? exchange_latency_ : 0.0) + (inter_steps_ > 0 ? hierarchy_.inter_node_latency : 0.0);
    return {JobStep::Kind::kDelay, iterations * per_iteration - paid};
  }
  const double messages = iterations * static_cast<double>(messages_per_iteration_);
  return {JobStep::Kind::kDelay, (messages - static_cast<double>(transfer_steps_per_round_)) * exchange_latency_};
}

JobStep JobActivityPlan::hierarchical_step(std::uint64_t within, double iterations) const {
  const double local = static_cast<double>(hierarchy_.local_ranks), nodes = static_cast<double>(hierarchy_.nodes);
  if (fidelity_ == Fidelity::kJob) {
    // Merged: a round's reduce-scatter and all-gather steps inside the nodes,
    // then its steps across them, every buffer's.
    if (within == 1 && intra_steps_ > 0)
      return {JobStep::Kind::kIntraNode,
              2.0 * static_cast<double>(intra_steps_) * gradient_bytes_ / local * iterations};
    return {JobStep::Kind::kInterNode,
            static_cast<double>(inter_steps_) * gradient_bytes_ / (local * nodes) * iterations};
  }
  // Message `index` of the iteration: buffer by buffer, its reduce-scatter,
  // its steps across the nodes, its all-gather.
  const std::uint64_t index = within - 1, at = index % messages_per_buffer_;
  const double bytes = buffer_bytes(index / messages_per_buffer_);
  if (at >= intra_steps_ && at < intra_steps_ + inter_steps_)
    return {JobStep::Kind::kInterNode, bytes / (local * nodes)};
  return {JobStep::Kind::kIntraNode, bytes / local};
}

double JobActivityPlan::buffer_bytes(std::uint64_t buffer) const {
  return buffer + 1 < buffers_ ? buffer_bytes_ : gradient_bytes_ - static_cast<double>(buffers_ - 1) * buffer_bytes_;
}

Time JobActivityPlan::uncontended_work_seconds(double gpu_flops, double exchange_bandwidth) const {
  if (!notebook_steps_.empty()) return notebook_seconds_;  // on any GPU
  if (phased_) return static_cast<double>(iterations_) * phased_iteration_seconds(gpu_flops);
  // The GPUs compute while the pipeline decodes; the slower of the two sets the pace.
  return static_cast<double>(iterations_) *
         (std::max(flops_per_iteration_ / gpu_flops, decode_seconds_) + exchange_seconds(exchange_bandwidth));
}

Time JobActivityPlan::synthetic_work_seconds(double gpu_flops, double exchange_bandwidth) const {
  if (!notebook_steps_.empty()) return notebook_seconds_;
  if (phased_) return static_cast<double>(iterations_) * phased_iteration_seconds(gpu_flops);
  return static_cast<double>(iterations_) * (flops_per_iteration_ / gpu_flops + exchange_seconds(exchange_bandwidth));
}

Time JobActivityPlan::exchange_seconds(double exchange_bandwidth) const {
  double exchange = 0;
  if (messages_per_iteration_ > 0 && hierarchical_) {
    const auto buffers = static_cast<double>(buffers_);
    const double local = static_cast<double>(hierarchy_.local_ranks), nodes = static_cast<double>(hierarchy_.nodes);
    exchange =
        2.0 * static_cast<double>(intra_steps_) *
            (buffers * exchange_latency_ + gradient_bytes_ / local / exchange_bandwidth) +
        static_cast<double>(inter_steps_) * (buffers * hierarchy_.inter_node_latency +
                                             gradient_bytes_ / (local * nodes) / hierarchy_.inter_node_bandwidth);
  } else if (messages_per_iteration_ > 0 && buffers_ > 1) {
    // Every message pays its latency; a flow carries S / divisor per buffer's messages in all.
    exchange = static_cast<double>(messages_per_iteration_) * exchange_latency_ +
               static_cast<double>(messages_per_buffer_) * (gradient_bytes_ / divisor_) / exchange_bandwidth;
  } else if (messages_per_iteration_ > 0) {
    exchange = static_cast<double>(messages_per_iteration_) *
               (exchange_latency_ + gradient_bytes_ / divisor_ / exchange_bandwidth);
  }
  return exchange;
}

}  // namespace gcsim
