// scheduler_state.hpp: the writable scheduler state: who holds which GPU,
// which jobs wait and which run, and the one place plans are applied.
//
// The engine owns one SchedulerState; only the engine and tests include this
// header. Policies receive the state only through the read-only views it
// implements, ClusterView (sim/core/cluster_view.hpp) and QueueView
// (sim/core/queue_view.hpp). It is a layer of its own, sim/state, above
// sim/core: the headers installed for plugins (sim/core) leave it out.
// apply() checks a whole Plan first and changes nothing if any decision is
// invalid.
//
//   SchedulerState state(layout, locality, jobs);
//   state.submit(0);
//   Plan plan; plan.allocate(0, {0, 1});
//   auto applied = state.apply(plan, now);  // throws PlanRejected on a bad plan
#pragma once

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/cluster_view.hpp"
#include "sim/core/gpu_set.hpp"
#include "sim/core/ordered_bit_set.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/locality.hpp"
#include "sim/core/node_fit.hpp"
#include "sim/core/plan.hpp"
#include "sim/core/queue_view.hpp"

namespace gcsim {

/// Where the workers of a job that runs on cores alone are: `workers` of
/// them on `node` (node_fit.hpp: cpu_workers(), cpu_claim()).
struct CpuShare {
  NodeId node = kNoNode;
  std::uint32_t workers = 0;
  bool operator==(const CpuShare& other) const { return node == other.node && workers == other.workers; }
};
/// A running CPU job's nodes, in cluster order, each once.
using CpuPlacement = std::vector<CpuShare>;

/// The cluster's occupancy and the jobs' states, changed only by submit(),
/// finish(), set_saved_fraction() and apply().
class SchedulerState final : public ClusterView, public QueueView {
 public:
  /// `oracle_durations`: one per job, or empty (then every oracle answer is kNever).
  SchedulerState(const ClusterLayout& layout, const Locality& locality, const std::vector<JobSpec>& jobs,
                 std::vector<Time> oracle_durations = {});

  // ClusterView
  const ClusterLayout& layout() const override { return layout_; }
  const Locality& locality() const override { return locality_; }
  bool is_free(GpuId gpu) const override { return gpus_[gpu].holders.empty() && !down_[gpu]; }
  JobIndex owner(GpuId gpu) const override { return gpus_[gpu].holders.empty() ? kNoJob : gpus_[gpu].holders.front(); }
  std::size_t free_gpu_count() const override { return free_total_; }
  std::size_t free_gpus_on_node(NodeId node) const override { return free_per_node_[node]; }
  const std::vector<std::size_t>& free_gpus_per_node() const override { return free_per_node_; }
  /// O(nodes / 64) per free count above `need`, from nodes_by_free_.
  NodeId fullest_node_with_free(std::size_t need) const override;
  double free_share(GpuId gpu) const override { return down_[gpu] ? 0.0 : std::max(0.0, 1 - gpus_[gpu].share); }
  double free_memory(GpuId gpu) const override {
    return down_[gpu] ? 0.0 : layout_.gpu_type_of(gpu).memory_bytes - gpus_[gpu].memory;
  }
  std::size_t partly_free_gpu_count() const override { return partly_free_gpus_.members().size(); }
  /// O(partly free GPUs), from a list kept up to date.
  void visit_partly_free_gpus(const std::function<void(GpuId)>& visit) const override;
  /// O(GPUs visited), from the node's free GPUs kept in order.
  void visit_free_gpus_of_node(NodeId node, GpuId from, const std::function<bool(GpuId)>& visit) const override;
  NodeClaim free_host(NodeId node) const override { return node_capacity(layout_, node) - host_used_[node]; }
  /// O(1) after one look-up of the application.
  std::uint32_t instances_on_node(const std::string& application, NodeId node) const override;
  /// Every job holding a part of the GPU, in the order they took it.
  const std::vector<JobIndex>& holders(GpuId gpu) const { return gpus_[gpu].holders; }

  // QueueView
  const std::vector<JobIndex>& waiting() const override { return waiting_; }
  const std::vector<JobIndex>& running() const override { return running_; }
  const std::vector<RunEvent>& run_log() const override { return run_log_; }
  const JobSpec& spec(JobIndex job) const override { return jobs_[job]; }
  const JobRuntime& runtime(JobIndex job) const override { return runtime_[job]; }
  std::size_t job_count() const override { return jobs_.size(); }
  Time oracle_duration(JobIndex job) const override {
    return job < oracle_durations_.size() ? oracle_durations_[job] : kNever;
  }

  /// A pending job enters the queue (keeps the queue in submit order).
  /// The job joins the queue at `submitted` (JobRuntime::submitted).
  void submit(JobIndex job, Time submitted);
  /// The job joins the queue at its submit time.
  void submit(JobIndex job) { submit(job, jobs_[job].submit); }
  /// A running job completed: it releases its GPUs.
  void finish(JobIndex job, Time now);
  /// The node's GPUs go down (a node failure): none is free until
  /// bring_up(). The jobs holding any of them must have let go first.
  void take_down(NodeId node);
  void bring_up(NodeId node);
  bool is_down(GpuId gpu) const { return down_[gpu]; }
  bool is_node_down(NodeId node) const { return node_down_[node]; }
  /// A running job failed: it releases its GPUs and ends failed.
  void fail(JobIndex job, Time now);
  /// A job not submitted yet will never be: it ends failed.
  void fail_pending(JobIndex job);
  /// A waiting or running job is taken back, not ended: it lets go of its
  /// GPUs, leaves the queue or the running jobs, and is pending again, to be
  /// submitted anew or retired (a serving deployment scaling down).
  void withdraw(JobIndex job, Time now);
  /// A pending job is done without running again: it ends finished, at the
  /// time it was last withdrawn, or at `now` if never (a serving replica
  /// when its deployment ends).
  void retire(JobIndex job, Time now);
  std::uint64_t withdrawals() const override { return withdrawals_; }

  /// Jobs that run on cores alone (runs_on_cpu(): CPU jobs, replicas on
  /// CPUs, DAGs of CPU pools) are not in the queue the policy sees: the
  /// engine dispatches them (sim/engine/cpu_dispatch.hpp). One waits
  /// (submit_cpu_job()), runs holding the cores and memory of its workers on
  /// their nodes (start_cpu_job()), and finishes, or waits again when one of
  /// its nodes fails (stop_cpu_job()). The policy sees the cores and memory
  /// it holds in free_host(), so no GPU job is placed on them.
  void submit_cpu_job(JobIndex job, Time submitted);
  /// Whether the node is up, of the role the CPU job asks, below its
  /// anti-affinity's limit, and has all its cores, memory, RDMA and disk free.
  bool cpu_job_fits(JobIndex job, NodeId node) const;
  /// Where the waiting CPU job's workers would run now: nodes in cluster
  /// order, each that is up and admits the job (node_admits(): role,
  /// anti-affinity) taking as many of them as its free host resources
  /// hold (cpu_workers_that_fit()), until all are placed; empty when
  /// the nodes up cannot hold them all now. A job of one worker, or a
  /// single_node one, gets the first node that holds it all. O(nodes).
  CpuPlacement place_cpu_job(JobIndex job) const;
  void start_cpu_job(JobIndex job, const CpuPlacement& placement, Time now);
  /// All its workers on `node`.
  void start_cpu_job(JobIndex job, NodeId node, Time now) {
    start_cpu_job(job, {{node, cpu_workers(jobs_[job])}}, now);
  }
  void finish_cpu_job(JobIndex job, Time now);
  void stop_cpu_job(JobIndex job);
  /// The nodes a running CPU job holds (empty otherwise).
  const CpuPlacement& cpu_job_placement(JobIndex job) const;
  /// The first node a running CPU job holds (kNoNode otherwise).
  NodeId cpu_job_node(JobIndex job) const {
    const CpuPlacement& placement = cpu_job_placement(job);
    return placement.empty() ? kNoNode : placement.front().node;
  }
  /// The CPU jobs running on `node`, in the order they started.
  std::vector<JobIndex> cpu_jobs_on(NodeId node) const {
    return cpu_jobs_of_node_.empty() ? std::vector<JobIndex>{} : cpu_jobs_of_node_[node];
  }
  /// The engine records how much of a preempted job's work its checkpoints kept.
  void set_saved_fraction(JobIndex job, double fraction) { runtime_[job].saved_fraction = fraction; }

  struct Applied {
    std::vector<JobIndex> started;
    std::vector<JobIndex> preempted;
  };
  /// Waiting jobs holding some GPUs (a non-gang policy's partial allocations).
  std::vector<JobIndex> holding() const;
  /// Validates every decision of `plan` against the current state, then
  /// applies them all; on an invalid decision nothing changes and
  /// PlanRejected says which decision broke which rule.
  Applied apply(const Plan& plan, Time now);

  /// GPUs held, counting a job's share of each shared GPU (a half-GPU job counts 0.5).
  double allocated_gpus() const { return allocated_; }

  /// What jobs hold of one GPU.
  struct GpuOccupancy {
    double share = 0;   // sum of the holders' gpu_share
    double memory = 0;  // sum of the holders' gpu_memory_bytes
    std::vector<JobIndex> holders;

    /// `job` (of spec `spec`) takes its share and memory of the GPU.
    void add(JobIndex job, const JobSpec& spec);
    /// `job` gives them back; the last holder leaves the GPU exactly free.
    void remove(JobIndex job, const JobSpec& spec);
  };

 private:
  void check(const Plan& plan) const;
  /// Adds (sign 1) or removes (-1) the host claim of `job` for `gpus` beside the `held` it keeps.
  void claim_host(JobIndex job, const std::vector<GpuId>& held, const std::vector<GpuId>& gpus, int sign);
  void take(JobIndex job, const std::vector<GpuId>& gpus);
  void start(JobIndex job, Time now);
  void release(JobIndex job);
  void enqueue(JobIndex job);
  /// Takes `leaving` (queued) out of the queue and puts `joining` (not queued) in.
  void change_queue(std::vector<JobIndex> leaving, std::vector<JobIndex> joining);
  /// The queue's order: time submitted, then workload order.
  auto submit_order() const {
    return [this](JobIndex a, JobIndex b) {
      if (runtime_[a].submitted != runtime_[b].submitted) return runtime_[a].submitted < runtime_[b].submitted;
      return a < b;
    };
  }

  const ClusterLayout& layout_;
  const Locality& locality_;
  const std::vector<JobSpec>& jobs_;
  std::vector<Time> oracle_durations_;
  std::vector<JobRuntime> runtime_;
  std::vector<GpuOccupancy> gpus_;
  std::vector<std::size_t> free_per_node_;
  // nodes_by_free_[k]: the nodes with k free GPUs, in index order, so the
  // best single-node fit is found without visiting every node.
  std::vector<OrderedBitSet> nodes_by_free_;
  void change_free_on_node(NodeId node, int step);
  std::vector<NodeClaim> host_used_;  // per node: cores, memory, RDMA and disk the holders claim
  // Per application of a job with an anti-affinity: per node, how many of its
  // jobs hold something there (empty until such a job takes a node).
  std::unordered_map<std::string, std::vector<std::uint32_t>> instances_;
  /// Counts `job` on the nodes (`sign` 1) it newly takes with `gpus` beside
  /// its `held`, or off those (-1) it leaves giving back `gpus` of `held`.
  void count_instances(JobIndex job, const std::vector<GpuId>& held, const std::vector<GpuId>& gpus, int sign);
  void count_instance(const JobSpec& spec, NodeId node, int sign);
  std::vector<bool> down_;       // per GPU: its node has failed (take_down())
  std::vector<bool> node_down_;  // per node: it has failed (a CPU node has no GPU to say so)
  std::size_t free_total_;
  GpuSet partly_free_gpus_;
  std::vector<OrderedBitSet> free_of_node_;  // per node, its free GPUs by local index
  void note_room(GpuId gpu);                 // keeps both right after the GPU changed
  double allocated_ = 0;
  std::vector<JobIndex> waiting_;
  std::vector<JobIndex> running_;         // in the order the jobs started
  std::vector<std::uint64_t> run_order_;  // per job: when its current run started, counted in starts
  std::uint64_t next_run_order_ = 0;
  std::vector<RunEvent> run_log_;
  std::uint64_t withdrawals_ = 0;
  // The nodes each running CPU job holds, and per node its running CPU jobs
  // (empty until a CPU job starts).
  std::unordered_map<JobIndex, CpuPlacement> cpu_placement_;
  std::vector<std::vector<JobIndex>> cpu_jobs_of_node_;
  void let_go_of_nodes(JobIndex job);
};

}  // namespace gcsim
