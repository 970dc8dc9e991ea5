// job_activity_plan.hpp: the sequence of steps a running job executes, at the
// chosen fidelity.
//
// A step is a computation (every GPU of the job executes `amount` FLOPs), a
// transfer step of the gradient exchange, or a pure delay of `amount`
// seconds. A step starts when the previous one has completed on every GPU.
// The exchange is a ring allreduce (sim/model/ring_allreduce_cost.hpp) unless
// the job names parameter servers (sim/model/parameter_server_cost.hpp):
// - a ring step: every GPU sends `amount` bytes to its ring successor, all at once;
// - a push: every worker sends `amount` bytes (its shard for that server) to
//   each server not on its own host, all at once; a pull: the reverse;
// - a hierarchical allreduce's step inside the nodes, or across them
//   (sim/model/hierarchical_allreduce_cost.hpp): every transfer of the step
//   carries `amount` bytes.
//
// With tensor fusion (TrainingWork::fusion_bytes) the gradients go in
// buffers of that size (the last one smaller), each exchanged on its own:
// the bytes are the same, the messages, and so the latencies, as many times
// more as there are buffers.
//
// Fidelity::kIteration: per iteration, one computation then the exchange's
//   messages (per buffer, the 2(N-1) ring steps, or a push and a pull);
//   exact, cost grows with iterations.
// Fidelity::kJob: a constant number of steps for the whole run: the
//   iterations are merged into R rounds (R = job_rounds, default 1), and each
//   round is one computation of its iterations' FLOPs, the exchange's
//   transfer steps carrying its iterations' traffic (one ring step, or one
//   push and one pull; so link sharing with other jobs is still decided by
//   the network model), and a delay for the per-message latencies the merged
//   flows do not pay: (iterations x messages per iteration - transfer steps)
//   x latency. Uncontended, both fidelities give the same duration; more
//   rounds let the compute and communication phases of jobs sharing links
//   interleave as they do iteration by iteration.
//
// A job restarted from a checkpoint runs only the part of its work the
// checkpoint did not keep, after a leading delay for the restore; delays can
// also be appended (the time its own checkpoints take).
//
//   JobActivityPlan plan(spec, Fidelity::kJob, /*flops_per_gpu_unit=*/0, exchange_latency);
//   for (std::uint64_t k = 0; k < plan.step_count(); ++k) run(plan.step(k));
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "sim/model/hierarchical_allreduce_cost.hpp"

namespace gcsim {

enum class Fidelity { kJob, kIteration };

std::string_view to_string(Fidelity fidelity);

struct JobStep {
  // kPhase: a PhasedWork phase, its computation (`amount` FLOPs per GPU)
  // and its exchanges' flows (each of its messages' bytes for `iterations`
  // iterations) started together.
  enum class Kind { kCompute, kRingStep, kPush, kPull, kIntraNode, kInterNode, kDelay, kBusy, kPhase };
  Kind kind;
  // FLOPs per GPU, bytes per flow (ring edge, worker to server, between local
  // ranks), or seconds (a delay; a notebook's burst: its GPUs busy that long)
  double amount;
  double iterations = 0;    // a computation: the iterations it covers (their input is decoded meanwhile)
  std::uint32_t phase = 0;  // kPhase: the phase's index in PhasedWork::phases
};

/// What a placement costs each phase of a PhasedWork alone, for one
/// iteration (placement_costs()): the latency its merged flows pay (the
/// largest of its exchanges'), the latencies its messages pay in all (the
/// largest of its exchanges' messages x latency), and the seconds its
/// busiest link takes to carry its bytes.
struct PhaseCost {
  double paid_latency = 0;
  double message_latencies = 0;
  double busiest_seconds = 0;
};

class JobActivityPlan {
 public:
  /// `measured_type_flops`: FLOP/s of the GPU type a MeasuredWork was
  /// measured on (ignored for training jobs). `exchange_latency`: latency of
  /// one message of the exchange (the slowest ring edge's, or the slowest
  /// flow's between a worker and a server), seconds. `remaining_fraction`:
  /// the share of the work left (training jobs run that share of their
  /// iterations, rounded up). `restore_delay`: seconds before the work starts.
  /// `hierarchy`: for a hierarchical allreduce, where it runs;
  /// `exchange_latency` is then a transfer's inside a node.
  /// The job's work is training, a measured run or a notebook; a plan of
  /// another form's is a std::logic_error (the engine runs those otherwise).
  JobActivityPlan(const JobSpec& job, Fidelity fidelity, double measured_type_flops, double exchange_latency,
                  double remaining_fraction = 1.0, Time restore_delay = 0, std::uint32_t job_rounds = 1,
                  const Hierarchy& hierarchy = {}, const std::vector<PhaseCost>& phase_costs = {});

  /// Appends `seconds` of delay after the work.
  void add_trailing_delay(Time seconds);
  /// The delay appended after the work (0: none).
  Time trailing_delay() const { return trailing_delay_; }
  /// The job's input pipeline takes `seconds` per iteration to decode on its
  /// slowest node when nothing else decodes there
  /// (sim/model/input_pipeline.hpp): an iteration's computation lasts at
  /// least that long uncontended.
  void set_decode_seconds(Time seconds) { decode_seconds_ = seconds; }
  /// Iterations this plan runs (1 for a measured run).
  std::uint64_t iterations() const { return iterations_; }
  /// Whether the steps are a training job's iterations (whose pace, in
  /// iterations a second, the engine reports when the run ends).
  bool trains() const { return trains_; }
  /// Whether any step is a computation; a notebook's bursts are not (its
  /// GPUs are busy for their seconds at any speed and share).
  bool computes() const { return computes_; }

  std::uint64_t step_count() const { return leading_ + rounds_ * steps_per_round_ + (trailing_delay_ > 0 ? 1 : 0); }
  /// True when no step transfers anything: every step is a computation or a delay.
  bool without_transfers() const { return transfer_steps_per_round_ == 0; }
  /// The parameter servers the gradients go through; 0 for a ring allreduce.
  std::uint32_t parameter_servers() const { return servers_; }
  /// Step k (0-based), computed on demand: iteration fidelity has millions of steps.
  JobStep step(std::uint64_t k) const;

  /// Duration of the work alone on GPUs of `gpu_flops` FLOP/s when each
  /// message of the exchange carries its bytes at `exchange_bandwidth` after
  /// its latency (restore and appended delays excluded): for a ring, its
  /// slowest edge's bandwidth; for parameter servers, a flow's bytes over the
  /// time the phase's busiest link takes (placement_costs()); for a
  /// hierarchical allreduce, a transfer's inside a node (the one across
  /// nodes is the hierarchy's).
  Time uncontended_work_seconds(double gpu_flops, double exchange_bandwidth) const;
  /// The same on synthetic data: the input pipeline left out.
  Time synthetic_work_seconds(double gpu_flops, double exchange_bandwidth) const;

 private:
  // The steps of each form that runs some.
  void plan_training(const TrainingWork& training, double remaining_fraction, std::uint32_t job_rounds,
                     const Hierarchy& hierarchy);
  void plan_measured(const MeasuredWork& measured, double measured_type_flops, double remaining_fraction);
  void plan_notebook(const NotebookWork& notebook);
  void plan_phased(const PhasedWork& phased, double remaining_fraction, std::uint32_t job_rounds,
                   const std::vector<PhaseCost>& phase_costs);
  /// Step `within` of a round of `iterations` iterations of a PhasedWork.
  JobStep phased_step(std::uint64_t within, double iterations) const;
  /// One iteration of a PhasedWork alone.
  Time phased_iteration_seconds(double gpu_flops) const;
  std::uint64_t iterations_in_round(std::uint64_t round) const;
  /// An iteration's exchange alone.
  Time exchange_seconds(double exchange_bandwidth) const;
  /// The bytes of fusion buffer `buffer` of an iteration (the last one holds the rest).
  double buffer_bytes(std::uint64_t buffer) const;
  /// Transfer step `within` (1-based) of a round of a hierarchical allreduce.
  JobStep hierarchical_step(std::uint64_t within, double iterations) const;

  std::vector<JobStep> notebook_steps_;  // a notebook's activity: its idle gaps and bursts
  // A PhasedWork's phases that do something (their index, FLOPs per GPU and
  // iteration, whether they exchange), and each phase's costs alone.
  struct PlannedPhase {
    std::uint32_t index;
    double flops;
    bool exchanges;
  };
  std::vector<PlannedPhase> phases_;
  std::vector<PhaseCost> phase_costs_;
  bool phased_ = false;
  Time notebook_seconds_ = 0;
  Fidelity fidelity_;
  std::uint32_t ranks_;
  double exchange_latency_;
  std::uint32_t servers_ = 0;       // parameter servers; 0: a ring
  double flops_per_iteration_ = 0;  // per GPU (a measured run: the whole run)
  double gradient_bytes_ = 0;
  double divisor_ = 1;         // a message carries a buffer over this: N for a ring, k for servers, L for a hierarchy
  std::uint64_t buffers_ = 1;  // tensor fusion: ceil(S / fusion_bytes) buffers per iteration
  double buffer_bytes_ = 0;    // each but the last
  std::uint64_t messages_per_buffer_ = 0;     // 2(N-1) ring steps per allreduce, or a push and a pull
  std::uint64_t messages_per_iteration_ = 0;  // messages_per_buffer_ x buffers_
  bool hierarchical_ = false;
  Hierarchy hierarchy_;
  std::uint64_t intra_steps_ = 0;  // hierarchical, per buffer: L - 1 reduce-scatter steps (as many all-gather)
  std::uint64_t inter_steps_ = 0;  // hierarchical, per buffer: 2(M - 1) steps across nodes
  std::uint64_t iterations_ = 1;   // in this plan
  std::uint64_t rounds_ = 1;       // iteration fidelity: one per iteration
  std::uint64_t transfer_steps_per_round_ = 0;
  bool with_latency_delay_ = false;  // job fidelity: a delay ends each round
  Time decode_seconds_ = 0;          // per iteration, alone (set_decode_seconds())
  std::uint64_t steps_per_round_ = 1;
  std::uint64_t leading_ = 0;  // 1 when there is a restore delay
  Time restore_delay_ = 0;
  Time trailing_delay_ = 0;
  bool trains_ = false;   // a training job's iterations
  bool computes_ = true;  // false: a notebook's bursts
};

}  // namespace gcsim
