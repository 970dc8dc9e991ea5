// job_spec.hpp: what a user submitted, independent of where it runs.
//
// A JobSpec is immutable once read. Its work is either a data-parallel
// training model (per-GPU FLOPs and gradient bytes per iteration, iteration
// count) or a duration measured on a named GPU type, which the engine turns
// into per-GPU work at that type's speed.
//
//   JobSpec job;
//   job.id = "resnet-1"; job.gpus = 8; job.submit = 0;
//   job.work = TrainingWork{.flops_per_iteration = 3.1e12, .gradient_bytes = 1e8, .iterations = 500};
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sim/core/anti_affinity.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/node_role.hpp"
#include "sim/core/phased_work.hpp"
#include "sim/core/overloaded.hpp"
#include "sim/core/serving_spec.hpp"

namespace gcsim {

/// The input pipeline of a training job on real data
/// (sim/model/input_pipeline.hpp): on every node the job's CPU cores decode
/// and augment `samples_per_gpu` samples per GPU per iteration, each core
/// `core_samples_per_s` of them a second, while the GPUs compute. Absent (both
/// 0): synthetic data, the GPUs never wait for input.
struct InputPipeline {
  double samples_per_gpu = 0;     // per iteration
  double core_samples_per_s = 0;  // one core's decode and augment rate

  bool enabled() const { return samples_per_gpu > 0 && core_samples_per_s > 0; }
  /// Core-seconds of decoding one iteration's samples for `gpus` GPUs.
  double core_seconds(double gpus) const { return gpus * samples_per_gpu / core_samples_per_s; }
};

/// Data-parallel training: every iteration each GPU computes
/// `flops_per_iteration` then the job ring-allreduces `gradient_bytes`, or,
/// with `parameter_servers` k > 0, pushes them to k servers and pulls the
/// parameters back (sim/model/parameter_server_cost.hpp).
/// A model runs faster on some GPU types than their FLOP/s alone say (its
/// measured speed, as throughput tables give it): `flops_per_iteration_by_gpu_type`
/// then gives the FLOPs that make one iteration on a GPU of that type last
/// as measured; types not listed use `flops_per_iteration`.
struct TrainingWork {
  double flops_per_iteration = 0;  // per GPU, per iteration
  double gradient_bytes = 0;       // size of the gradients allreduced every iteration
  std::uint64_t iterations = 0;
  // GPU type name -> per GPU, per iteration; by name, each once (set_flops_on()).
  // A short list, not a map: a million jobs pay 24 bytes each for it, not 48.
  std::vector<std::pair<std::string, double>> flops_per_iteration_by_gpu_type;
  std::uint32_t parameter_servers = 0;  // 0: a ring allreduce
  // A hierarchical allreduce (inside nodes, then across them) instead of a
  // flat ring (sim/model/hierarchical_allreduce_cost.hpp). Beside the 4 bytes
  // above, where it costs no padding: every job carries this struct.
  bool hierarchical_allreduce = false;
  // Tensor fusion: the gradients go in buffers of this many bytes, each
  // exchanged on its own (its messages each paying their latency); 0: one
  // buffer of all of them.
  double fusion_bytes = 0;
  InputPipeline input_pipeline{};

  /// How many buffers the gradients fill each iteration (1 without fusion).
  std::uint64_t fusion_buffers() const {
    if (fusion_bytes <= 0 || fusion_bytes >= gradient_bytes) return 1;
    return static_cast<std::uint64_t>(std::ceil(gradient_bytes / fusion_bytes));
  }

  /// The FLOPs of one iteration on one GPU of `gpu_type`.
  double flops_on(const std::string& gpu_type) const {
    const auto it = find_type(gpu_type);
    return it != flops_per_iteration_by_gpu_type.end() && it->first == gpu_type ? it->second : flops_per_iteration;
  }
  /// Sets (or replaces) the FLOPs of an iteration on GPUs of `gpu_type`.
  void set_flops_on(const std::string& gpu_type, double flops) {
    const auto it = find_type(gpu_type);
    if (it != flops_per_iteration_by_gpu_type.end() && it->first == gpu_type) {
      flops_per_iteration_by_gpu_type[static_cast<std::size_t>(it - flops_per_iteration_by_gpu_type.begin())].second =
          flops;
      return;
    }
    flops_per_iteration_by_gpu_type.insert(it, {gpu_type, flops});
  }

 private:
  // The first entry not before `gpu_type`.
  std::vector<std::pair<std::string, double>>::const_iterator find_type(const std::string& gpu_type) const {
    return std::lower_bound(flops_per_iteration_by_gpu_type.begin(), flops_per_iteration_by_gpu_type.end(), gpu_type,
                            [](const auto& entry, const std::string& type) { return entry.first < type; });
  }
};

/// A run time measured on `gpu_type` (for instance taken from a trace); it
/// runs faster or slower on other GPU types in proportion to their FLOP/s,
/// unless `rescale` is false.
/// No communication is modelled for such a job.
struct MeasuredWork {
  double seconds = 0;
  std::string gpu_type;
  /// false: the run lasts the recorded seconds on whatever GPU type it gets
  /// (a trace's --trace-opt duration=recorded), not rescaled by FLOP/s.
  bool rescale = true;
};

/// A DAG of tasks run by pools of workers: a render farm, or any dependency
/// chain (sim/model/dag_schedule.hpp gives the rules). Each worker of a GPU
/// pool holds one of the job's GPUs; CPU pools' workers count against the
/// job's CPU cores. A DAG of CPU pools alone holds no GPU (JobSpec::gpus 0):
/// its workers spread over nodes with free cores (runs_on_cpu()). A task
/// lasts `seconds` plus `flops` at its GPU's speed, plus `task_overhead`; a
/// predecessor's `bytes` cross the simulated network from the predecessor's
/// worker to the task's before it starts.
struct DagPool {
  std::string name;
  std::uint32_t workers = 1;
  bool cpu = false;  // CPU workers: tasks of `seconds` only, no GPU held
};
struct DagInput {
  std::size_t task = 0;  // index of the predecessor in DagWork::tasks
  double bytes = 0;      // data it passes to this task
};
struct DagTask {
  std::string id;
  std::uint32_t pool = 0;  // index in DagWork::pools
  double seconds = 0;
  double flops = 0;
  std::vector<DagInput> after;
};
struct DagWork {
  std::vector<DagPool> pools;
  std::vector<DagTask> tasks;
  double task_overhead = 0;  // seconds every task costs its worker besides its work
  double wake_up = 0;        // seconds a worker that waited for work takes to start
};

/// One phase of a notebook's activity: its GPUs sit idle for `idle`
/// seconds, then compute for `busy` seconds (a burst: a cell run).
struct NotebookPhase {
  Time idle = 0;
  Time busy = 0;
};

/// An interactive notebook (workloads/kinds/notebook/notebook_activity.hpp): it holds its
/// GPUs from its start to the end of its activity and keeps them busy only
/// in its bursts, whatever GPU it gets. With an idle timeout the workload
/// reader splits a notebook into holds, each one job: `hold` is its rank
/// (1 for the first), and the later ones wait for the one before (after).
struct NotebookWork {
  std::vector<NotebookPhase> activity;
  std::uint32_t hold = 1;

  Time seconds() const {
    Time total = 0;
    for (const NotebookPhase& phase : activity) total += phase.idle + phase.busy;
    return total;
  }
  Time busy_seconds() const {
    Time total = 0;
    for (const NotebookPhase& phase : activity) total += phase.busy;
    return total;
  }
};

/// A CPU-only job (data preparation, a feature pipeline): it holds no GPU,
/// only its JobSpec::cpu_cores and memory_bytes on one node, for `seconds`.
/// The workload gives either the seconds or the core-seconds of work, which
/// its cores do at one core-second a second each (the reader turns them into
/// seconds). Such jobs are placed by the engine's CPU dispatcher
/// (sim/engine/cpu_dispatch.hpp), not by the GPU scheduling policy.
struct CpuWork {
  Time seconds = 0;
};

/// The forms of work the simulator runs. The simulator branches on a form
/// only through std::visit with a handler per form (sim/core/overloaded.hpp),
/// so that a form added here fails to compile wherever it is not handled;
/// the questions several places ask of a form are in sim/core/work_forms.hpp.
using JobWork = std::variant<TrainingWork, MeasuredWork, DagWork, NotebookWork, ServingWork, CpuWork, PhasedWork>;

/// Whether the work is a CPU-only job's (CpuWork).
inline bool is_cpu_job(const JobWork& work) {
  return std::visit(Overloaded{[](const TrainingWork&) { return false; }, [](const MeasuredWork&) { return false; },
                               [](const DagWork&) { return false; }, [](const NotebookWork&) { return false; },
                               [](const ServingWork&) { return false; }, [](const CpuWork&) { return true; },
                               [](const PhasedWork&) { return false; }},
                    work);
}

/// Checkpoints: a preempted job resumes from its last checkpoint, losing the
/// work done since, and pays `restore_cost` when it restarts. It takes one
/// every `interval` seconds of progress, one when preempted (`at_preemption`,
/// as a framework that saves on its stop signal does), or both. Without any
/// (interval 0, not at preemption) a preempted job starts over.
struct CheckpointSpec {
  Time interval = 0;           // seconds of progress between checkpoints; 0: none
  Time save_cost = 0;          // seconds each checkpoint takes
  Time restore_cost = 0;       // seconds a restart from a checkpoint takes
  bool at_preemption = false;  // a preempted job saves its work before it stops

  /// Whether a preempted job keeps any of its work.
  bool keeps_work() const { return interval > 0 || at_preemption; }
};

/// A trial of a hyperparameter-search study. The trials of one study share
/// the study's GPU bounds: it should hold at least `min_gpus` while it has
/// work (as soon as they are free) and never more than `max_gpus` at once.
struct StudyMembership {
  std::string id;
  std::uint32_t min_gpus = 1;
  std::uint32_t max_gpus = 1;
};

/// Device memory a job uses on each of its GPUs from `at` seconds into each
/// of its runs (JobSpec::gpu_memory_use).
struct MemoryUse {
  Time at = 0;
  double bytes = 0;
};

/// A job's relations to others and to its GPUs' memory, which few jobs have.
struct JobRelations {
  /// Jobs (indices in the workload) that must all finish before this one is
  /// submitted: it joins the queue `after_delay` seconds after the last of
  /// them ends, and not before its submit time. Empty: it is submitted then.
  std::vector<JobIndex> after;
  Time after_delay = 0;
  /// What the job really uses on each GPU over a run, in increasing `at`
  /// (sim/engine/memory_watch.hpp); empty: its gpu_memory_bytes throughout.
  /// A misconfigured job uses more than it asked for.
  std::vector<MemoryUse> gpu_memory_use;
};

/// A job's quality-of-service class. A guaranteed job keeps the GPUs it got
/// until it ends (unless the policy's own rules preempt it); a spot job
/// (best effort: a cloud's spot or preemptible instance, a Kubernetes
/// BestEffort pod, a YARN opportunistic container) runs on GPUs no
/// guaranteed job needs, and a policy that honours the class (fifo,
/// capacity) preempts it when a waiting guaranteed job needs its GPUs.
/// A spot job never preempts another job.
enum class QosClass : std::uint8_t { kGuaranteed, kSpot };

/// "guaranteed" or "spot", as the workload format and the outputs write it.
inline const char* qos_name(QosClass qos) { return qos == QosClass::kSpot ? "spot" : "guaranteed"; }

/// The smallest JobSpec::gpu_share: the engine counts GPUs in millionths,
/// where a smaller share would vanish.
inline constexpr double kSmallestGpuShare = 1e-6;

struct JobSpec {
  std::string id;
  std::string user = "default";
  std::string queue = "default";
  Time submit = 0;
  std::uint32_t gpus = 1;
  // The four small fields next to `gpus`, where they take no padding (a
  // million jobs each carry them).
  /// All its GPUs on one node (a Kubernetes pod cannot span nodes).
  bool single_node = false;
  QosClass qos = QosClass::kGuaranteed;
  /// The role of the nodes it runs on (node_role.hpp); kNone: any node.
  NodeRole role = NodeRole::kNone;
  /// Its GPUs may be of several types at once (the workload's
  /// mixed_gpu_types, or --trace-opt mixed_gpu_types=true). Without it, nor
  /// several gpu_types, all its GPUs are of one type (may_mix_gpu_types()).
  bool mixed_gpu_types = false;
  double gpu_memory_bytes = 0;  // per GPU; 0 means "any GPU fits"
  /// The fraction of each of its GPUs the job uses, in (0, 1]. Below 1 the
  /// job shares GPUs with other fractional jobs: each of its `gpus` workers
  /// takes this share of a distinct GPU, computes at this share of the GPU's
  /// speed (a hard limit, as MPS or a GPU-sharing scheduler sets it), and its
  /// gpu_memory must fit beside theirs. A MeasuredWork's run time was taken
  /// at this share. DAG jobs use whole GPUs.
  double gpu_share = 1;  // at least kSmallestGpuShare
  /// Host cores and memory for the whole job (input pipeline, workers), split
  /// evenly over its GPU workers: a node holding k of its g GPUs gives it
  /// cpu_cores x k / g cores and memory_bytes x k / g bytes.
  std::uint32_t cpu_cores = 0;
  /// Its share of the nodes' RDMA NICs in percent of one RNIC's bandwidth
  /// (Alibaba's rdma_request: 25 is a quarter of one RNIC), for the whole
  /// job, split over its GPU workers as its cores are (node_fit.hpp).
  std::uint32_t rdma_percent = 0;
  double memory_bytes = 0;
  /// Host disk for the whole job, split over its GPU workers as its memory is.
  double disk_bytes = 0;
  /// The power limit it sets on each of its GPUs, watts (Zeus-style); 0:
  /// none. Its GPUs run in the highest power state within the least of it
  /// and their cluster cap (sim/core/gpu_power_states.hpp).
  double power_limit_watts = 0;
  /// The GPU types it may run on (node selectors); empty: any type. Listing
  /// several also lets one run mix them.
  std::vector<std::string> gpu_types;
  std::int64_t priority = 0;  // larger is more important
  Time runtime_estimate = 0;  // the user's estimate of the run time, seconds; 0: none given
  CheckpointSpec checkpoint;
  /// Set for the trials of a study, which share one: a pointer costs a job
  /// outside any study 16 bytes where the membership itself would cost 48.
  std::shared_ptr<const StudyMembership> study;
  /// The application it belongs to and at most how many of its jobs a node
  /// may hold (anti_affinity.hpp); null: none. Out of line, shared by the
  /// jobs of one application.
  std::shared_ptr<const Application> application;
  /// What few jobs have (dependencies, a memory profile), out of line: a
  /// million jobs without any pay 16 bytes each for it, not 56. Null: none.
  std::shared_ptr<const JobRelations> relations;
  JobWork work;

  const std::vector<JobIndex>& after() const { return relations ? relations->after : kNoRelations.after; }
  Time after_delay() const { return relations ? relations->after_delay : 0; }
  const std::vector<MemoryUse>& gpu_memory_use() const {
    return relations ? relations->gpu_memory_use : kNoRelations.gpu_memory_use;
  }
  /// The relations to change: a copy of the current ones, owned by this job alone.
  JobRelations& change_relations() {
    auto copy = std::make_shared<JobRelations>(relations ? *relations : JobRelations{});
    JobRelations& mine = *copy;
    relations = std::move(copy);
    return mine;
  }

 private:
  static inline const JobRelations kNoRelations{};
};

/// Whether the job's application limits the nodes it goes to: at most
/// max_per_node of the application's jobs on one (anti_affinity.hpp).
inline bool has_anti_affinity(const JobSpec& job) { return job.application && job.application->max_per_node > 0; }

/// Whether the job is of the spot class (QosClass).
inline bool is_spot(const JobSpec& job) { return job.qos == QosClass::kSpot; }

/// The job's compute scale on GPUs of `gpu_type`: the FLOPs of one of its
/// iterations there over its flops_per_iteration (a throughput table may say
/// the model runs otherwise on that type); 1 for any job but training. A GPU
/// of that type gives the job its FLOP/s over this scale.
inline double compute_scale_on(const JobSpec& job, const std::string& gpu_type) {
  return std::visit(Overloaded{[&](const TrainingWork& training) {
                                 return training.flops_per_iteration > 0
                                            ? training.flops_on(gpu_type) / training.flops_per_iteration
                                            : 1.0;
                               },
                               [](const MeasuredWork&) { return 1.0; }, [](const DagWork&) { return 1.0; },
                               [](const NotebookWork&) { return 1.0; }, [](const ServingWork&) { return 1.0; },
                               [](const CpuWork&) { return 1.0; }, [](const PhasedWork&) { return 1.0; }},
                    job.work);
}

/// Whether the job runs on nodes' cores, holding no GPU: a CPU job, a
/// serving deployment's replica of no GPU (ServingSpec: replicas on CPUs), or
/// a DAG whose pools are all CPU pools. The engine dispatches these
/// (sim/engine/cpu_dispatch.hpp), not the policy.
inline bool runs_on_cpu(const JobSpec& job) {
  if (job.gpus != 0) return false;
  // The forms that may hold no GPU; the others hold at least one.
  return std::visit(Overloaded{[](const TrainingWork&) { return false; }, [](const MeasuredWork&) { return false; },
                               [](const DagWork&) { return true; }, [](const NotebookWork&) { return false; },
                               [](const ServingWork&) { return true; }, [](const CpuWork&) { return true; },
                               [](const PhasedWork&) { return false; }},
                    job.work);
}

}  // namespace gcsim
