#include "sim/state/scheduler_state.hpp"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "sim/core/gpu_power_states.hpp"

namespace gcsim {
namespace {

// Held, with a share left for another fractional job.
bool partly_free(const SchedulerState::GpuOccupancy& gpu) {
  return !gpu.holders.empty() && gpu.share < 1 - kGpuShareTolerance;
}

std::string share_text(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", share);
  return text;
}

// What a plan being checked changes, by key: the few keys a plan usually
// touches are searched in a vector, which allocates once where a hash map
// allocates per key; past kIndexed keys a hash map indexes them, so a plan of
// many decisions still costs O(1) per look-up.
template <class Key, class Value>
class PlanChanges {
 public:
  /// The value of `key`, or null.
  Value* find(Key key) {
    if (!index_.empty()) {
      const auto it = index_.find(key);
      return it == index_.end() ? nullptr : &entries_[it->second].second;
    }
    for (auto& [k, value] : entries_)
      if (k == key) return &value;
    return nullptr;
  }
  /// The value of `key`, `initial` if it had none; valid until the next call.
  Value& get(Key key, const Value& initial) {
    if (Value* value = find(key)) return *value;
    entries_.emplace_back(key, initial);
    if (!index_.empty()) {
      index_.emplace(key, entries_.size() - 1);
    } else if (entries_.size() > kIndexed) {
      for (std::size_t i = 0; i < entries_.size(); ++i) index_.emplace(entries_[i].first, i);
    }
    return entries_.back().second;
  }

 private:
  static constexpr std::size_t kIndexed = 16;
  std::vector<std::pair<Key, Value>> entries_;
  std::unordered_map<Key, std::size_t> index_;
};

}  // namespace

void SchedulerState::GpuOccupancy::add(JobIndex job, const JobSpec& spec) {
  holders.push_back(job);
  share += spec.gpu_share;
  memory += spec.gpu_memory_bytes;
}

void SchedulerState::GpuOccupancy::remove(JobIndex job, const JobSpec& spec) {
  holders.erase(std::find(holders.begin(), holders.end(), job));
  share -= spec.gpu_share;
  memory -= spec.gpu_memory_bytes;
  if (holders.empty()) {  // no rounding residue on a free GPU; the list keeps its room for the next holder
    share = 0;
    memory = 0;
  }
}

SchedulerState::SchedulerState(const ClusterLayout& layout, const Locality& locality, const std::vector<JobSpec>& jobs,
                               std::vector<Time> oracle_durations)
    : layout_(layout),
      locality_(locality),
      jobs_(jobs),
      oracle_durations_(std::move(oracle_durations)),
      runtime_(jobs.size()),
      gpus_(layout.gpu_count()),
      free_per_node_(layout.node_count()),
      host_used_(layout.node_count()),
      down_(layout.gpu_count(), false),
      node_down_(layout.node_count(), false),
      free_total_(layout.gpu_count()),
      partly_free_gpus_(layout.gpu_count()),
      run_order_(jobs.size()) {
  std::size_t largest_node = 0;
  for (NodeId n = 0; n < layout.node_count(); ++n) largest_node = std::max(largest_node, layout.node(n).gpus.size());
  nodes_by_free_.assign(largest_node + 1, OrderedBitSet(layout.node_count()));
  free_of_node_.reserve(layout.node_count());
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    const std::size_t gpus = layout.node(n).gpus.size();
    free_per_node_[n] = gpus;
    nodes_by_free_[gpus].insert(n);
    free_of_node_.emplace_back(gpus);
    for (std::size_t local = 0; local < gpus; ++local) free_of_node_[n].insert(local);
  }
}

void SchedulerState::note_room(GpuId gpu) {
  const bool free = gpus_[gpu].holders.empty() && !down_[gpu];
  const NodeId node = layout_.node_of(gpu);
  const std::size_t local = gpu - layout_.node(node).gpus.front();  // a node's GPUs are numbered in a row
  if (free)
    free_of_node_[node].insert(local);
  else
    free_of_node_[node].erase(local);
  partly_free_gpus_.set(gpu, !down_[gpu] && partly_free(gpus_[gpu]));
}

void SchedulerState::take_down(NodeId node) {
  node_down_[node] = true;
  for (GpuId g : layout_.node(node).gpus) {
    assert(gpus_[g].holders.empty() && "the jobs on a failed node let go of its GPUs first");
    if (down_[g]) continue;
    down_[g] = true;
    change_free_on_node(node, -1);
    --free_total_;
    note_room(g);
  }
}

void SchedulerState::bring_up(NodeId node) {
  node_down_[node] = false;
  for (GpuId g : layout_.node(node).gpus) {
    if (!down_[g]) continue;
    down_[g] = false;
    change_free_on_node(node, 1);
    ++free_total_;
    note_room(g);
  }
}

void SchedulerState::visit_partly_free_gpus(const std::function<void(GpuId)>& visit) const {
  for (GpuId g : partly_free_gpus_.members()) visit(g);
}

void SchedulerState::visit_free_gpus_of_node(NodeId node, GpuId from, const std::function<bool(GpuId)>& visit) const {
  if (!layout_.has_gpus(node)) return;
  const OrderedBitSet& free = free_of_node_[node];
  const GpuId first = layout_.node(node).gpus.front();
  for (std::size_t local = free.next(from > first ? from - first : 0); local != OrderedBitSet::kNone;
       local = free.next(local + 1))
    if (!visit(first + static_cast<GpuId>(local))) return;
}

void SchedulerState::change_free_on_node(NodeId node, int step) {
  std::size_t& free = free_per_node_[node];
  nodes_by_free_[free].erase(node);
  free = static_cast<std::size_t>(static_cast<std::int64_t>(free) + step);
  nodes_by_free_[free].insert(node);
}

NodeId SchedulerState::fullest_node_with_free(std::size_t need) const {
  for (std::size_t k = need; k < nodes_by_free_.size(); ++k)
    if (!nodes_by_free_[k].empty()) return static_cast<NodeId>(nodes_by_free_[k].first());
  return kNoNode;
}

void SchedulerState::submit(JobIndex job, Time submitted) {
  assert(runtime_[job].state == JobState::kPending && "only a pending job can be submitted");
  runtime_[job].state = JobState::kWaiting;
  runtime_[job].submitted = submitted;
  enqueue(job);
}

void SchedulerState::finish(JobIndex job, Time now) {
  assert(runtime_[job].state == JobState::kRunning && "only a running job can finish");
  runtime_[job].attained_gpu_seconds +=
      (now - runtime_[job].start) * static_cast<double>(runtime_[job].gpus.size()) * jobs_[job].gpu_share;
  release(job);
  runtime_[job].state = JobState::kFinished;
  runtime_[job].end = now;
}

void SchedulerState::fail(JobIndex job, Time now) {
  finish(job, now);
  runtime_[job].state = JobState::kFailed;
}

void SchedulerState::fail_pending(JobIndex job) {
  assert(runtime_[job].state == JobState::kPending && "only a job not submitted yet fails before it runs");
  runtime_[job].state = JobState::kFailed;
}

void SchedulerState::withdraw(JobIndex job, Time now) {
  JobRuntime& runtime = runtime_[job];
  if (runs_on_cpu(jobs_[job])) {
    // Not in the queue the policy sees: it lets go of its node, if it holds one.
    if (runtime.state == JobState::kRunning) let_go_of_nodes(job);
    runtime.state = JobState::kPending;
    runtime.end = now;
    return;
  }
  assert((runtime.state == JobState::kWaiting || runtime.state == JobState::kRunning) &&
         "only a waiting or running job is withdrawn");
  if (runtime.state == JobState::kRunning) {
    runtime.attained_gpu_seconds +=
        (now - runtime.start) * static_cast<double>(runtime.gpus.size()) * jobs_[job].gpu_share;
  } else {
    change_queue({job}, {});
    ++withdrawals_;
  }
  if (!runtime.gpus.empty()) release(job);
  runtime.state = JobState::kPending;
  runtime.end = now;  // its time in the cluster ends here, unless it is submitted again
  // `submitted` stays as it was until the job is submitted again: a policy
  // that keeps the waiting jobs ordered by it finds the job it must drop.
}

void SchedulerState::retire(JobIndex job, Time now) {
  assert(runtime_[job].state == JobState::kPending && "only a pending job is retired");
  runtime_[job].state = JobState::kFinished;
  if (runtime_[job].end == kNever) runtime_[job].end = now;  // withdrawn earlier: it left then
}

void SchedulerState::submit_cpu_job(JobIndex job, Time submitted) {
  assert(runtime_[job].state == JobState::kPending && runs_on_cpu(jobs_[job]) && "a pending CPU job");
  runtime_[job].state = JobState::kWaiting;
  runtime_[job].submitted = submitted;
}

std::uint32_t SchedulerState::instances_on_node(const std::string& application, NodeId node) const {
  const auto it = instances_.find(application);
  return it == instances_.end() ? 0 : it->second[node];
}

void SchedulerState::count_instance(const JobSpec& spec, NodeId node, int sign) {
  std::vector<std::uint32_t>& per_node = instances_[spec.application->name];
  if (per_node.empty()) per_node.assign(layout_.node_count(), 0);
  per_node[node] = static_cast<std::uint32_t>(static_cast<std::int64_t>(per_node[node]) + sign);
}

void SchedulerState::count_instances(JobIndex job, const std::vector<GpuId>& held, const std::vector<GpuId>& gpus,
                                     int sign) {
  const JobSpec& spec = jobs_[job];
  if (!spec.application) return;
  std::vector<NodeId> nodes;  // the nodes of `gpus` the job holds nothing on beside them
  for (GpuId g : gpus) {
    const NodeId node = layout_.node_of(g);
    const bool elsewhere = std::any_of(held.begin(), held.end(), [&](GpuId h) { return layout_.node_of(h) == node; });
    if (!elsewhere && std::find(nodes.begin(), nodes.end(), node) == nodes.end()) nodes.push_back(node);
  }
  for (NodeId node : nodes) count_instance(spec, node, sign);
}

bool SchedulerState::cpu_job_fits(JobIndex job, NodeId node) const {
  if (node_down_[node]) return false;
  const JobSpec& spec = jobs_[job];
  const std::uint32_t instances = has_anti_affinity(spec) ? instances_on_node(spec.application->name, node) : 0;
  return node_admits(layout_, spec, node, instances) && cpu_job_claim(spec).fits_in(free_host(node));
}

CpuPlacement SchedulerState::place_cpu_job(JobIndex job) const {
  const JobSpec& spec = jobs_[job];
  std::size_t left = cpu_workers(spec);
  CpuPlacement placement;
  for (NodeId node = 0; node < layout_.node_count() && left > 0; ++node) {
    if (node_down_[node]) continue;
    if (!node_admits(layout_, spec, node,
                     has_anti_affinity(spec) ? instances_on_node(spec.application->name, node) : 0))
      continue;
    const std::size_t here = cpu_workers_that_fit(spec, free_host(node), left);
    if (here == 0 || (spec.single_node && here < left)) continue;  // single_node: all on one node
    placement.push_back({node, static_cast<std::uint32_t>(here)});
    left -= here;
  }
  if (left > 0) placement.clear();
  return placement;
}

const CpuPlacement& SchedulerState::cpu_job_placement(JobIndex job) const {
  static const CpuPlacement kNowhere;
  const auto it = cpu_placement_.find(job);
  return it == cpu_placement_.end() ? kNowhere : it->second;
}

void SchedulerState::start_cpu_job(JobIndex job, const CpuPlacement& placement, Time now) {
  assert(runtime_[job].state == JobState::kWaiting && !placement.empty() && "a waiting CPU job, placed");
  if (cpu_jobs_of_node_.empty()) cpu_jobs_of_node_.resize(layout_.node_count());
  std::uint32_t workers = 0;
  for (const CpuShare& share : placement) {
    const NodeClaim claim = cpu_claim(jobs_[job], share.workers);
    assert(!node_down_[share.node] && claim.fits_in(free_host(share.node)) &&
           "a CPU job's workers fit the nodes they start on");
    host_used_[share.node] += claim;
    if (jobs_[job].application) count_instance(jobs_[job], share.node, 1);
    cpu_jobs_of_node_[share.node].push_back(job);
    workers += share.workers;
  }
  assert(workers == cpu_workers(jobs_[job]) && "a CPU job starts with all its workers placed");
  (void)workers;
  cpu_placement_[job] = placement;
  runtime_[job].state = JobState::kRunning;
  runtime_[job].start = now;
}

// Gives back what a running CPU job holds of its nodes.
void SchedulerState::let_go_of_nodes(JobIndex job) {
  const auto it = cpu_placement_.find(job);
  for (const CpuShare& share : it->second) {
    host_used_[share.node] -= cpu_claim(jobs_[job], share.workers);
    if (jobs_[job].application) count_instance(jobs_[job], share.node, -1);
    std::vector<JobIndex>& on = cpu_jobs_of_node_[share.node];
    on.erase(std::find(on.begin(), on.end(), job));
  }
  cpu_placement_.erase(it);
}

void SchedulerState::finish_cpu_job(JobIndex job, Time now) {
  assert(runtime_[job].state == JobState::kRunning && cpu_job_node(job) != kNoNode && "a running CPU job");
  let_go_of_nodes(job);
  runtime_[job].state = JobState::kFinished;
  runtime_[job].end = now;
}

void SchedulerState::stop_cpu_job(JobIndex job) {
  assert(runtime_[job].state == JobState::kRunning && cpu_job_node(job) != kNoNode && "a running CPU job");
  let_go_of_nodes(job);
  runtime_[job].state = JobState::kWaiting;
  ++runtime_[job].preemptions;
}

// Adds GPUs to those a waiting job holds.
void SchedulerState::take(JobIndex job, const std::vector<GpuId>& gpus) {
  const JobSpec& spec = jobs_[job];
  for (GpuId g : gpus) {
    GpuOccupancy& gpu = gpus_[g];
    if (gpu.holders.empty()) {
      change_free_on_node(layout_.node_of(g), -1);
      --free_total_;
    }
    gpu.add(job, spec);
    note_room(g);
  }
  allocated_ += static_cast<double>(gpus.size()) * spec.gpu_share;
  claim_host(job, runtime_[job].gpus, gpus, 1);
  count_instances(job, runtime_[job].gpus, gpus, 1);
  runtime_[job].gpus.insert(runtime_[job].gpus.end(), gpus.begin(), gpus.end());
}

void SchedulerState::claim_host(JobIndex job, const std::vector<GpuId>& held, const std::vector<GpuId>& gpus,
                                int sign) {
  for (const auto& [node, change] : host_changes(layout_, jobs_[job], held, gpus)) {
    if (sign > 0)
      host_used_[node] += change;
    else
      host_used_[node] -= change;
  }
}

void SchedulerState::start(JobIndex job, Time now) {
  runtime_[job].state = JobState::kRunning;
  runtime_[job].start = now;
  run_order_[job] = next_run_order_++;
  running_.push_back(job);
  run_log_.push_back({job, true});
}

// Frees every GPU the job holds; a running job leaves the running list.
void SchedulerState::release(JobIndex job) {
  const JobSpec& spec = jobs_[job];
  for (GpuId g : runtime_[job].gpus) {
    GpuOccupancy& gpu = gpus_[g];
    gpu.remove(job, spec);
    if (gpu.holders.empty() && !down_[g]) {
      change_free_on_node(layout_.node_of(g), 1);
      ++free_total_;
    }
    note_room(g);
  }
  allocated_ -= static_cast<double>(runtime_[job].gpus.size()) * spec.gpu_share;
  claim_host(job, {}, runtime_[job].gpus, -1);
  count_instances(job, {}, runtime_[job].gpus, -1);
  if (free_total_ == layout_.gpu_count()) allocated_ = 0;
  runtime_[job].gpus = {};              // its memory back too: a million finished jobs would keep theirs
  runtime_[job].power_limit_watts = 0;  // a run's limit lasts for that run
  if (runtime_[job].state == JobState::kRunning) {
    // The list is in the order the jobs started: a binary search finds the job.
    running_.erase(
        std::lower_bound(running_.begin(), running_.end(), run_order_[job],
                         [this](JobIndex running, std::uint64_t order) { return run_order_[running] < order; }));
    run_log_.push_back({job, false});
  }
}

std::vector<JobIndex> SchedulerState::holding() const {
  std::vector<JobIndex> jobs;
  for (JobIndex job : waiting_)
    if (!runtime_[job].gpus.empty()) jobs.push_back(job);
  return jobs;
}

void SchedulerState::check(const Plan& plan) const {
  // Tentative changes of this plan, so that a preemption recorded first frees
  // GPUs for a later allocation, and nothing is given beyond what a GPU has.
  PlanChanges<GpuId, GpuOccupancy> gpu_after;
  PlanChanges<JobIndex, JobState> state_after;
  PlanChanges<JobIndex, std::vector<GpuId>> held_after;  // GPUs a job holds at this point of the plan
  PlanChanges<NodeId, NodeClaim> host_after;             // per node: what the holders claim
  auto add_host = [&](JobIndex job, const std::vector<GpuId>& held, const std::vector<GpuId>& gpus, int sign) {
    for (const auto& [node, change] : host_changes(layout_, jobs_[job], held, gpus)) {
      NodeClaim& used = host_after.get(node, host_used_[node]);
      if (sign > 0)
        used += change;
      else
        used -= change;
    }
  };
  // Per application and node, the change this plan makes to the jobs of an
  // anti-affinity there (few plans place such jobs: an ordered map is enough).
  std::map<std::pair<std::string, NodeId>, std::int64_t> instances_change;
  auto instances_after = [&](const JobSpec& spec, NodeId node) {
    const auto it = instances_change.find({spec.application->name, node});
    return static_cast<std::int64_t>(instances_on_node(spec.application->name, node)) +
           (it == instances_change.end() ? 0 : it->second);
  };
  // The nodes of `gpus` the job holds nothing on beside them (`held`).
  auto new_nodes = [&](const std::vector<GpuId>& held, const std::vector<GpuId>& gpus) {
    std::vector<NodeId> nodes;
    for (GpuId g : gpus) {
      const NodeId node = layout_.node_of(g);
      if (std::none_of(held.begin(), held.end(), [&](GpuId h) { return layout_.node_of(h) == node; }) &&
          std::find(nodes.begin(), nodes.end(), node) == nodes.end())
        nodes.push_back(node);
    }
    return nodes;
  };
  auto gpu_of = [&](GpuId g) -> GpuOccupancy& { return gpu_after.get(g, gpus_[g]); };
  auto state_of = [&](JobIndex j) {
    const JobState* state = state_after.find(j);
    return state ? *state : runtime_[j].state;
  };
  for (std::size_t i = 0; i < plan.decisions().size(); ++i) {
    const Decision& d = plan.decisions()[i];
    // Named only when a decision is rejected: a plan that holds costs no text.
    const auto where = [&] {
      return "decision " + std::to_string(i) + " (job " +
             (d.job < jobs_.size() ? "'" + jobs_[d.job].id + "'" : std::to_string(d.job)) + ")";
    };
    if (d.job >= jobs_.size()) throw PlanRejected(where() + ": no such job");
    const JobSpec& spec = jobs_[d.job];
    std::vector<GpuId>& holds = held_after.get(d.job, runtime_[d.job].gpus);
    if (d.kind != Decision::Kind::kAllocate) {
      if (d.kind == Decision::Kind::kPreempt && state_of(d.job) != JobState::kRunning)
        throw PlanRejected(where() + ": preempting a job that is not running");
      if (d.kind == Decision::Kind::kRelease && state_of(d.job) != JobState::kWaiting)
        throw PlanRejected(where() + ": releasing the GPUs of a job that is not waiting");
      for (GpuId g : holds) gpu_of(g).remove(d.job, spec);
      add_host(d.job, {}, holds, -1);
      if (spec.application)
        for (NodeId node : new_nodes({}, holds)) --instances_change[{spec.application->name, node}];
      holds.clear();
      state_after.get(d.job, JobState::kWaiting) = JobState::kWaiting;
      continue;
    }
    if (state_of(d.job) != JobState::kWaiting)
      throw PlanRejected(where() + ": allocating to a job that is not waiting");
    if (d.gpus.empty()) throw PlanRejected(where() + ": allocates no GPU");
    if (!(d.power_limit_watts >= 0))
      throw PlanRejected(where() + ": a power limit of " + std::to_string(d.power_limit_watts) +
                         " W (a limit is > 0 W, or 0 for none)");
    if (holds.size() + d.gpus.size() > spec.gpus)
      throw PlanRejected(where() + ": allocates " + std::to_string(d.gpus.size()) + " GPUs to a job holding " +
                         std::to_string(holds.size()) + ", the job needs " + std::to_string(spec.gpus));
    for (GpuId g : d.gpus) {
      if (g >= layout_.gpu_count()) throw PlanRejected(where() + ": GPU " + std::to_string(g) + " does not exist");
      GpuOccupancy& gpu = gpu_of(g);
      if (std::find(gpu.holders.begin(), gpu.holders.end(), d.job) != gpu.holders.end())
        throw PlanRejected(where() + ": GPU " + layout_.gpu_label(g) + " is given to the job twice");
      if (down_[g]) throw PlanRejected(where() + ": GPU " + layout_.gpu_label(g) + " is down (its node failed)");
      const bool whole = spec.gpu_share >= 1;
      if (!gpu.holders.empty() && (whole || gpu.share + spec.gpu_share > 1 + kGpuShareTolerance))
        throw PlanRejected(
            where() + ": GPU " + layout_.gpu_label(g) + " is not free (held by job '" + jobs_[gpu.holders.front()].id +
            "'" + (gpu.holders.size() > 1 ? " and " + std::to_string(gpu.holders.size() - 1) + " more" : "") +
            (whole ? ""
                   : ", " + share_text(1 - gpu.share) + " of it left, the job asks " + share_text(spec.gpu_share)) +
            ")");
      if (gpu.memory + spec.gpu_memory_bytes > layout_.gpu_type_of(g).memory_bytes)
        throw PlanRejected(where() + ": GPU " + layout_.gpu_label(g) + " has less memory than the job needs" +
                           (gpu.holders.empty() ? "" : " beside the jobs sharing it"));
      if (!allows_gpu_type(spec, layout_.gpu_type_of(g).name))
        throw PlanRejected(where() + ": GPU " + layout_.gpu_label(g) + " is a " + layout_.gpu_type_of(g).name +
                           ", a type the job does not allow (gpu_types)");
      // One type per run unless the job allows several: its first GPU's type, held or given here.
      if (const GpuId first = holds.empty() ? d.gpus.front() : holds.front();
          layout_.gpu_type_index(g) != layout_.gpu_type_index(first) && !may_mix_gpu_types(spec))
        throw PlanRejected(where() + ": GPU " + layout_.gpu_label(g) + " is a " + layout_.gpu_type_of(g).name +
                           " and GPU " + layout_.gpu_label(first) + " a " + layout_.gpu_type_of(first).name +
                           ": a job runs on one GPU type unless it allows several (gpu_types listing several, or "
                           "mixed_gpu_types)");
      if (spec.single_node && layout_.node_of(g) != layout_.node_of(holds.empty() ? d.gpus.front() : holds.front()))
        throw PlanRejected(where() + ": GPU " + layout_.gpu_label(g) +
                           " is on another node than the job's other GPUs "
                           "(single_node)");
      if (const NodeRole role = layout_.group_of_node(layout_.node_of(g)).role; !role_allows(spec.role, role))
        throw PlanRejected(where() + ": GPU " + layout_.gpu_label(g) + " is on a node of role '" +
                           node_role_name(role) + "', the job asks role '" + node_role_name(spec.role) + "'");
      gpu.add(d.job, spec);
    }
    if (spec.application) {
      for (NodeId node : new_nodes(holds, d.gpus)) {
        const std::int64_t there = instances_after(spec, node);
        if (has_anti_affinity(spec) && there >= spec.application->max_per_node)
          throw PlanRejected(where() + ": node " + layout_.node(node).name + " already holds " + std::to_string(there) +
                             " jobs of application '" + spec.application->name + "', the job allows at most " +
                             std::to_string(spec.application->max_per_node) + " on a node (max_instance_per_node)");
        ++instances_change[{spec.application->name, node}];
      }
    }
    add_host(d.job, holds, d.gpus, 1);
    for (const auto& [node, change] : host_changes(layout_, spec, holds, d.gpus)) {
      const NodeClaim used = *host_after.find(node), capacity = node_capacity(layout_, node);
      if (!used.fits_in(capacity))
        throw PlanRejected(where() + ": node " + layout_.node(node).name + " would hold " +
                           claim_beyond(used, capacity) +
                           " (cpu_cores, memory, rdma_percent and disk are split over the job's GPUs)");
    }
    holds.insert(holds.end(), d.gpus.begin(), d.gpus.end());
    if (holds.size() == spec.gpus) state_after.get(d.job, JobState::kRunning) = JobState::kRunning;
  }
}

SchedulerState::Applied SchedulerState::apply(const Plan& plan, Time now) {
  check(plan);
  Applied applied;
  std::vector<JobIndex> requeued;  // preempted by the plan
  for (const Decision& d : plan.decisions()) {
    JobRuntime& rt = runtime_[d.job];
    switch (d.kind) {
      case Decision::Kind::kPreempt: {
        rt.attained_gpu_seconds += (now - rt.start) * static_cast<double>(rt.gpus.size()) * jobs_[d.job].gpu_share;
        release(d.job);
        rt.state = JobState::kWaiting;
        // A job started earlier in this same plan never ran: nothing to stop,
        // and it has not left the queue.
        auto started = std::find(applied.started.begin(), applied.started.end(), d.job);
        if (started != applied.started.end()) {
          applied.started.erase(started);
        } else {
          ++rt.preemptions;
          applied.preempted.push_back(d.job);
          requeued.push_back(d.job);
        }
        break;
      }
      case Decision::Kind::kRelease:
        release(d.job);
        break;
      case Decision::Kind::kAllocate:
        // Of several allocations completing a run, the lowest limit holds.
        if (d.power_limit_watts > 0) rt.power_limit_watts = run_power_limit(rt.power_limit_watts, d.power_limit_watts);
        take(d.job, d.gpus);
        if (rt.gpus.size() == jobs_[d.job].gpus) {
          start(d.job, now);
          applied.started.push_back(d.job);
        }
        break;
    }
  }
  // The queue changes once for the whole plan: the jobs that started leave
  // it, those preempted (and not started again) join it at their place.
  std::vector<JobIndex> leaving;  // those that started from the queue, not after a preemption in the plan
  for (JobIndex job : applied.started)
    if (std::find(requeued.begin(), requeued.end(), job) == requeued.end()) leaving.push_back(job);
  requeued.erase(std::remove_if(requeued.begin(), requeued.end(),
                                [&](JobIndex job) { return runtime_[job].state != JobState::kWaiting; }),
                 requeued.end());
  change_queue(std::move(leaving), std::move(requeued));
  return applied;
}

// In place: each job's place is found by binary search, and the stretches of
// the queue between the places that change move as blocks (leaving jobs
// squeezed out going forward, joining ones opened up going backward from the
// end), so a deep queue costs a memory move per plan, not a scan per job.
void SchedulerState::change_queue(std::vector<JobIndex> leaving, std::vector<JobIndex> joining) {
  const auto order = submit_order();
  const auto place_of = [&](JobIndex job, bool after_equals) {
    const auto at = after_equals ? std::upper_bound(waiting_.begin(), waiting_.end(), job, order)
                                 : std::lower_bound(waiting_.begin(), waiting_.end(), job, order);
    return static_cast<std::size_t>(at - waiting_.begin());
  };
  if (!leaving.empty()) {
    std::sort(leaving.begin(), leaving.end(), order);
    std::vector<std::size_t> at(leaving.size());  // each one's place, found before anything moves
    for (std::size_t k = 0; k < leaving.size(); ++k) at[k] = place_of(leaving[k], false);
    std::size_t to = at.front();
    for (std::size_t k = 0; k < leaving.size(); ++k) {
      const std::size_t from = at[k] + 1;
      const std::size_t until = k + 1 < leaving.size() ? at[k + 1] : waiting_.size();
      std::move(waiting_.begin() + static_cast<std::ptrdiff_t>(from),
                waiting_.begin() + static_cast<std::ptrdiff_t>(until),
                waiting_.begin() + static_cast<std::ptrdiff_t>(to));
      to += until - from;
    }
    waiting_.resize(to);
  }
  if (joining.empty()) return;
  std::sort(joining.begin(), joining.end(), order);
  joining.erase(std::unique(joining.begin(), joining.end()), joining.end());
  std::vector<std::size_t> place(joining.size());  // each goes before the first queued job after it
  for (std::size_t k = 0; k < joining.size(); ++k) place[k] = place_of(joining[k], true);
  std::size_t end = waiting_.size();
  waiting_.resize(waiting_.size() + joining.size());
  for (std::size_t k = joining.size(); k-- > 0;) {
    // The stretch [place[k], end) moves up by the k + 1 jobs still to insert.
    std::move_backward(waiting_.begin() + static_cast<std::ptrdiff_t>(place[k]),
                       waiting_.begin() + static_cast<std::ptrdiff_t>(end),
                       waiting_.begin() + static_cast<std::ptrdiff_t>(end + k + 1));
    waiting_[place[k] + k] = joining[k];
    end = place[k];
  }
}

// Keeps the queue in submit order; equal submit times keep workload order.
void SchedulerState::enqueue(JobIndex job) {
  waiting_.insert(std::upper_bound(waiting_.begin(), waiting_.end(), job, submit_order()), job);
}

}  // namespace gcsim
