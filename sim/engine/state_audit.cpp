#include "sim/engine/state_audit.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/invariant_violation.hpp"
#include "sim/core/node_fit.hpp"
#include "sim/core/number_text.hpp"

namespace gcsim {
namespace {

// Shares and memory are summed in doubles in varying order: a sum may exceed
// its bound by rounding alone.
constexpr double kRelativeSlack = 1e-9;

std::string gpu_name(const ClusterLayout& layout, GpuId gpu) { return "GPU " + layout.gpu_label(gpu); }

}  // namespace

StateAudit::StateAudit(const ClusterLayout& layout, const std::vector<JobSpec>& jobs)
    : layout_(layout), jobs_(jobs), ends_(jobs.size(), 0), listed_(jobs.size(), 0) {
  node_rules_ = std::any_of(jobs.begin(), jobs.end(),
                            [](const JobSpec& job) { return job.role != NodeRole::kNone || has_anti_affinity(job); });
}

void StateAudit::check(const SchedulerState& state, Time now) {
  if (now < last_)
    throw InvariantViolation(
        "time-monotone", "the clock went back from " + significant(last_, 12) + " s to " + significant(now, 12) + " s");
  waiting_hold_ += (now - last_) * waiting_held_;
  last_ = now;
  waiting_held_ = 0;
  for (JobIndex job : state.waiting())
    waiting_held_ += static_cast<double>(state.runtime(job).gpus.size()) * jobs_[job].gpu_share;
  check_gpus(state);
  check_jobs(state);
  check_hosts(state);
  if (node_rules_) check_node_rules(state);
}

void StateAudit::ended(JobIndex job) {
  if (++ends_[job] > 1) throw InvariantViolation("one-end", "job '" + jobs_[job].id + "' ended a second time", {job});
}

void StateAudit::check_gpus(const SchedulerState& state) const {
  std::size_t free = 0;
  double allocated = 0;
  for (GpuId gpu = 0; gpu < layout_.gpu_count(); ++gpu) {
    const std::vector<JobIndex>& holders = state.holders(gpu);
    if (holders.empty()) {
      if (!state.is_down(gpu)) ++free;
      continue;
    }
    if (state.is_down(gpu))
      throw InvariantViolation("gpu-capacity", gpu_name(layout_, gpu) + " is held on a failed node", holders);
    double share = 0;
    double memory = 0;
    for (JobIndex job : holders) {
      const JobSpec& spec = jobs_[job];
      share += spec.gpu_share;
      memory += spec.gpu_memory_bytes;
      if (spec.gpu_share >= 1 && holders.size() > 1)
        throw InvariantViolation(
            "gpu-capacity", gpu_name(layout_, gpu) + " is shared, but job '" + spec.id + "' takes whole GPUs", holders);
      const std::vector<GpuId>& held = state.runtime(job).gpus;
      if (std::count(held.begin(), held.end(), gpu) != 1)
        throw InvariantViolation("holdings-agree",
                                 gpu_name(layout_, gpu) + " lists job '" + spec.id + "', whose GPUs name it " +
                                     std::to_string(std::count(held.begin(), held.end(), gpu)) + " times",
                                 {job});
    }
    if (share > 1 + kRelativeSlack)
      throw InvariantViolation("gpu-capacity",
                               gpu_name(layout_, gpu) + " is given " + significant(share, 12) + " of itself", holders);
    const double capacity = layout_.gpu_type_of(gpu).memory_bytes;
    if (memory > capacity * (1 + kRelativeSlack))
      throw InvariantViolation("gpu-memory",
                               gpu_name(layout_, gpu) + " has " + significant(memory, 12) +
                                   " bytes of device memory asked of its " + significant(capacity, 12),
                               holders);
    allocated += share;
  }
  if (free != state.free_gpu_count())
    throw InvariantViolation("free-count", "the state counts " + std::to_string(state.free_gpu_count()) +
                                               " free GPUs; " + std::to_string(free) + " are held by nobody and up");
  if (std::abs(allocated - state.allocated_gpus()) > kRelativeSlack * std::max(1.0, allocated))
    throw InvariantViolation("allocated-sum", "the state counts " + significant(state.allocated_gpus(), 12) +
                                                  " GPUs allocated; its holders' shares sum to " +
                                                  significant(allocated, 12));
}

void StateAudit::check_jobs(const SchedulerState& state) {
  // listed_ is all zeros between checks: set here, cleared on the way out.
  struct Clear {
    std::vector<std::uint8_t>& listed;
    const SchedulerState& state;
    ~Clear() {
      for (JobIndex job : state.waiting()) listed[job] = 0;
      for (JobIndex job : state.running()) listed[job] = 0;
    }
  } clear{listed_, state};
  std::vector<std::uint8_t>& listed = listed_;
  for (JobIndex job : state.waiting()) {
    if (listed[job]++)
      throw InvariantViolation("queue-states", "job '" + jobs_[job].id + "' is listed twice among the waiting", {job});
    if (state.runtime(job).state != JobState::kWaiting)
      throw InvariantViolation(
          "queue-states",
          "job '" + jobs_[job].id + "' is listed waiting but is " + std::string(to_string(state.runtime(job).state)),
          {job});
  }
  for (JobIndex job : state.running()) {
    if (listed[job]++)
      throw InvariantViolation("queue-states",
                               "job '" + jobs_[job].id + "' is listed twice among the queued and running", {job});
    const JobRuntime& runtime = state.runtime(job);
    if (runtime.state != JobState::kRunning)
      throw InvariantViolation(
          "queue-states",
          "job '" + jobs_[job].id + "' is listed running but is " + std::string(to_string(runtime.state)), {job});
    if (runtime.gpus.size() != jobs_[job].gpus)
      throw InvariantViolation("gang-whole",
                               "job '" + jobs_[job].id + "' runs on " + std::to_string(runtime.gpus.size()) +
                                   " GPUs of the " + std::to_string(jobs_[job].gpus) + " it asked for",
                               {job});
  }
}

void StateAudit::check_hosts(const SchedulerState& state) const {
  for (NodeId node = 0; node < layout_.node_count(); ++node) {
    const NodeClaim free = state.free_host(node);
    if (free.millicores < 0 || free.memory_bytes < 0)
      throw InvariantViolation("host-capacity", "node " + layout_.node(node).name + " has " +
                                                    std::to_string(-std::min<std::int64_t>(free.millicores, 0)) +
                                                    " millicores and " +
                                                    std::to_string(-std::min<std::int64_t>(free.memory_bytes, 0)) +
                                                    " bytes of memory claimed beyond it");
    if (!free.none_negative()) {
      const NodeClaim capacity = node_capacity(layout_, node);
      throw InvariantViolation("host-capacity",
                               "node " + layout_.node(node).name + " holds " + claim_beyond(capacity - free, capacity));
    }
  }
}

void StateAudit::check_node_rules(const SchedulerState& state) const {
  for (NodeId node = 0; node < layout_.node_count(); ++node) {
    // Every job holding something on the node, once.
    std::vector<JobIndex> on = state.cpu_jobs_on(node);
    for (GpuId g : layout_.node(node).gpus)
      for (JobIndex job : state.holders(g))
        if (std::find(on.begin(), on.end(), job) == on.end()) on.push_back(job);
    const NodeRole role = layout_.group_of_node(node).role;
    for (JobIndex job : on) {
      const JobSpec& spec = jobs_[job];
      if (!role_allows(spec.role, role))
        throw InvariantViolation("node-role",
                                 "job '" + spec.id + "' asks role '" + node_role_name(spec.role) + "' and holds node " +
                                     layout_.node(node).name + " of role '" + node_role_name(role) + "'",
                                 {job});
      if (!has_anti_affinity(spec)) continue;
      std::vector<JobIndex> same;  // the jobs of its application on the node
      for (JobIndex other : on)
        if (jobs_[other].application && jobs_[other].application->name == spec.application->name) same.push_back(other);
      if (same.size() > spec.application->max_per_node)
        throw InvariantViolation("anti-affinity",
                                 "node " + layout_.node(node).name + " holds " + std::to_string(same.size()) +
                                     " jobs of application '" + spec.application->name + "'; job '" + spec.id +
                                     "' allows at most " + std::to_string(spec.application->max_per_node),
                                 same);
    }
  }
}

void StateAudit::check_end(const SchedulerState& state, bool complete) const {
  for (JobIndex job = 0; job < jobs_.size(); ++job) {
    const JobState s = state.runtime(job).state;
    const bool terminal = s == JobState::kFinished || s == JobState::kFailed;
    if (terminal != (ends_[job] == 1))
      throw InvariantViolation("one-end",
                               "job '" + jobs_[job].id + "' is " + std::string(to_string(s)) +
                                   ", yet its ends counted " + std::to_string(ends_[job]),
                               {job});
    if (complete && (s == JobState::kWaiting || s == JobState::kRunning))
      throw InvariantViolation(
          "one-end",
          "job '" + jobs_[job].id + "' is still " + std::string(to_string(s)) + " when nothing more could happen",
          {job});
  }
}

}  // namespace gcsim
