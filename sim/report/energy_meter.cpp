#include "sim/report/energy_meter.hpp"

#include <algorithm>
#include <cassert>
#include <utility>
#include <variant>

#include "sim/core/gpu_power_states.hpp"
#include "sim/core/stage_power_plan.hpp"

namespace gcsim {

EnergyMeter::EnergyMeter(const std::vector<JobSpec>& jobs, PowerModel power)
    : jobs_(jobs), power_(std::move(power)), open_(jobs.size()) {
  report_.job_joules.assign(jobs.size(), 0.0);
  report_.job_gpu_seconds.assign(jobs.size(), 0.0);
  report_.pue = power_.pue;
  if (!power_.nodes.empty()) {
    std::vector<Time> sleep_after;
    for (const PowerModel::NodePower& node : power_.nodes) sleep_after.push_back(node.sleep_after);
    sleep_.emplace(power_.gpu_node, std::move(sleep_after));
    report_.nodes_sleep = sleep_->any();
    if (!sleep_->any()) sleep_.reset();
  }
}

void EnergyMeter::slept(NodeId node, Time from, Time to) {
  if (to <= from) return;
  const PowerModel::NodePower& p = power_.nodes[node];
  report_.sleep_joules += p.sleep_watts * (to - from);
  slept_base_joules_ += p.base_watts * (to - from);
  slept_idle_joules_ += p.idle_gpu_watts * (to - from);
  const double saved = p.base_watts + p.idle_gpu_watts - p.sleep_watts;
  change(from, -saved);
  change(to, saved);
}

std::vector<double> EnergyMeter::busy_watts_of(JobIndex job, const std::vector<GpuId>& gpus, double limit,
                                               const PlannedPipeline* power_plan) {
  const auto* phased = std::get_if<PhasedWork>(&jobs_[job].work);
  if (phased && phased->power_plan) {
    assert(power_plan && power_plan->rank_watts.size() == gpus.size() && "a planned run comes with its plan");
    report_.stage_power_states[job] = {jobs_[job].id, power_plan->stages, power_plan->stretch};
    return power_plan->rank_watts;
  }
  std::vector<double> watts;
  watts.reserve(gpus.size());
  for (GpuId g : gpus) watts.push_back(power_.busy_watts(g, limit));
  return watts;
}

void EnergyMeter::run_started(JobIndex job, Time now, const std::vector<GpuId>& gpus, double run_limit_watts,
                              const PlannedPipeline* power_plan) {
  if (gpus.empty()) return;
  const double share = jobs_[job].gpu_share;
  const double limit = run_power_limit(jobs_[job].power_limit_watts, run_limit_watts);
  OpenRun run;
  run.open = true;
  run.ran = true;
  run.since = now;
  const std::vector<double> busy = busy_watts_of(job, gpus, limit, power_plan);
  double extra = 0;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const GpuPower& p = power_.gpus[gpus[i]];
    run.held_watts += share * p.communicating_watts;
    run.idle_watts += share * p.idle_watts;
    extra += busy[i] - p.communicating_watts;
  }
  run.busy_extra = extra / static_cast<double>(gpus.size());
  run.held_gpus = share * static_cast<double>(gpus.size());
  if (sleep_) {
    run.nodes = sleep_->nodes_of(gpus);
    sleep_->started(run.nodes, now, [&](NodeId node, Time from) { slept(node, from, now); });
  }
  open_[job] = std::move(run);
  change(now, open_[job].held_watts - open_[job].idle_watts);
}

void EnergyMeter::busy(JobIndex job, Time start, Time end, std::size_t gpus, double gpu_share) {
  if (job >= open_.size() || !open_[job].open || end <= start) return;
  OpenRun& run = open_[job];
  const double watts = static_cast<double>(gpus) * gpu_share * run.busy_extra;
  run.busy_joules += watts * (end - start);
  change(start, watts);
  change(end, -watts);
}

void EnergyMeter::busy_cut(JobIndex job, Time planned_end, Time now, std::size_t gpus, double gpu_share) {
  if (job >= open_.size() || !open_[job].ran || planned_end <= now) return;
  OpenRun& run = open_[job];
  const double watts = static_cast<double>(gpus) * gpu_share * run.busy_extra;
  const double joules = watts * (planned_end - now);
  if (run.open) {
    run.busy_joules -= joules;
  } else {  // the run's end was told first: its computation stopped with it
    report_.job_joules[job] -= joules;
    report_.lost_joules -= joules * run.lost_share;
  }
  change(now, -watts);
  change(planned_end, watts);
}

void EnergyMeter::run_ended(JobIndex job, Time now, double lost_share) {
  if (job >= open_.size() || !open_[job].open) return;
  OpenRun& run = open_[job];
  const Time held = now - run.since;
  const double joules = run.held_watts * held + run.busy_joules;
  report_.job_joules[job] += joules;
  report_.job_gpu_seconds[job] += run.held_gpus * held;
  report_.lost_joules += joules * lost_share;
  held_idle_joules_ += run.idle_watts * held;
  change(now, run.idle_watts - run.held_watts);
  if (sleep_) sleep_->ended(run.nodes, now);
  run.open = false;
  run.lost_share = lost_share;
}

EnergyReport EnergyMeter::finish(Time end) {
  for (std::size_t j = 0; j < open_.size(); ++j) run_ended(static_cast<JobIndex>(j), end, 0.0);
  if (sleep_) sleep_->asleep_at_end(end, [&](NodeId node, Time from) { slept(node, from, end); });
  double idle_watts = 0;
  for (const GpuPower& p : power_.gpus) idle_watts += p.idle_watts;
  EnergyReport& r = report_;
  r.duration = end;
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    r.jobs_joules += r.job_joules[j];
    if (r.job_gpu_seconds[j] > 0 || r.job_joules[j] > 0) {
      r.user_joules[jobs_[j].user] += r.job_joules[j];
      r.queue_joules[jobs_[j].queue] += r.job_joules[j];
    }
  }
  r.idle_gpu_joules = std::max(0.0, idle_watts * end - held_idle_joules_ - slept_idle_joules_);
  r.base_joules = power_.base_watts * end - slept_base_joules_;
  r.it_joules = r.jobs_joules + r.idle_gpu_joules + r.base_joules + r.sleep_joules;
  r.facility_joules = r.it_joules * power_.pue;
  r.mean_watts = end > 0 ? r.it_joules / end : power_.base_watts + idle_watts;

  // The power curve: the changes summed per instant, in order of time.
  std::stable_sort(changes_.begin(), changes_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  double watts = power_.base_watts + idle_watts;
  r.power.emplace_back(0.0, watts);
  r.peak_watts = watts;
  for (std::size_t i = 0; i < changes_.size();) {
    const Time at = changes_[i].first;
    for (; i < changes_.size() && changes_[i].first == at; ++i) watts += changes_[i].second;
    if (at > end) break;
    if (r.power.back().first == at)
      r.power.back().second = watts;
    else if (watts != r.power.back().second)
      r.power.emplace_back(at, watts);
    if (at < end) r.peak_watts = std::max(r.peak_watts, watts);
  }
  changes_.clear();
  changes_.shrink_to_fit();
  return std::move(report_);
}

}  // namespace gcsim
