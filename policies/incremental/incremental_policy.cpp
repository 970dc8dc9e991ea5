#include "policies/incremental/incremental_policy.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {
namespace {

// A unit of service: one job that is not a trial, or one study.
struct Unit {
  std::int64_t priority;
  Time submit;
  JobIndex first;                  // the job, or the study's first waiting trial; workload order breaks ties
  std::size_t study = kNotAStudy;  // the study's trials in trial order: study_trials[study]
  static constexpr std::size_t kNotAStudy = static_cast<std::size_t>(-1);
  bool operator<(const Unit& other) const {
    return std::make_tuple(-priority, submit, first) < std::make_tuple(-other.priority, other.submit, other.first);
  }
};

struct StudyUse {
  std::uint32_t min_gpus = 0, max_gpus = 0, used = 0;  // used: GPUs of its running trials
  std::int64_t priority = 0;
};

}  // namespace

IncrementalPolicy::IncrementalPolicy(std::unique_ptr<PlacementPolicy> placement) : placement_(std::move(placement)) {
  if (!placement_) throw std::invalid_argument("incremental needs a placement policy");
}

void IncrementalPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  const QueueView& jobs = ctx.jobs;
  if (!workload_has_studies_) {
    workload_has_studies_ = false;
    for (JobIndex job = 0; job < jobs.job_count() && !*workload_has_studies_; ++job)
      workload_has_studies_ = jobs.spec(job).study != nullptr;
  }
  std::map<std::string, StudyUse> studies;
  std::map<std::string, std::size_t> unit_of_study;
  std::vector<Unit> units;
  std::vector<std::vector<JobIndex>> study_trials;
  auto note = [&](JobIndex job, bool running) {
    const JobSpec& spec = jobs.spec(job);
    if (!spec.study) {
      if (!running) units.push_back({spec.priority, jobs.runtime(job).submitted, job});
      return;
    }
    StudyUse& use = studies[spec.study->id];
    use.min_gpus = spec.study->min_gpus;
    use.max_gpus = spec.study->max_gpus;
    use.priority = spec.priority;
    if (running) {
      use.used += spec.gpus;
      return;
    }
    auto [it, inserted] = unit_of_study.emplace(spec.study->id, units.size());
    if (inserted) {
      units.push_back({spec.priority, jobs.runtime(job).submitted, job, study_trials.size()});
      study_trials.emplace_back();
    }
    study_trials[units[it->second].study].push_back(job);
  };
  // Running jobs matter only as trials of studies.
  if (*workload_has_studies_)
    for (JobIndex job : jobs.running()) note(job, true);
  for (JobIndex job : jobs.waiting()) note(job, false);
  // In queue order already when every priority is the same: no sort then.
  if (!std::is_sorted(units.begin(), units.end())) std::stable_sort(units.begin(), units.end());

  TentativeCluster cluster(ctx.cluster);
  const std::vector<bool> none_taken;  // the tentative view holds what the call takes
  // The running trials, in the order victims are taken: latest started
  // first; among equals, the one that started last in order.
  std::vector<JobIndex> trials;
  if (*workload_has_studies_)
    for (auto it = jobs.running().rbegin(); it != jobs.running().rend(); ++it)
      if (jobs.spec(*it).study) trials.push_back(*it);
  std::stable_sort(trials.begin(), trials.end(),
                   [&](JobIndex a, JobIndex b) { return jobs.runtime(a).start > jobs.runtime(b).start; });
  std::vector<JobIndex> preempted;
  auto start = [&](JobIndex job, std::vector<GpuId> gpus) {
    cluster.take(gpus, ctx.jobs.spec(job));
    plan.allocate(job, std::move(gpus));
  };

  for (const Unit& unit : units) {
    // No GPU free and none to take back: nothing more can start.
    if (cluster.free_gpu_count() == 0 && trials.size() == preempted.size()) break;
    if (unit.study != Unit::kNotAStudy) {
      StudyUse& use = studies[jobs.spec(unit.first).study->id];
      for (JobIndex trial : study_trials[unit.study]) {
        const JobSpec& spec = jobs.spec(trial);
        if (use.used + spec.gpus > use.max_gpus) break;
        if (spec.gpus > cluster.free_gpu_count()) break;  // no placement finds that many
        auto gpus = placement_->place(spec, cluster, none_taken);
        if (!gpus) break;
        use.used += spec.gpus;
        start(trial, std::move(*gpus));
      }
      continue;
    }
    const JobIndex job = unit.first;
    const JobSpec& spec = jobs.spec(job);
    // No placement finds more GPUs than are free.
    if (spec.gpus <= cluster.free_gpu_count()) {
      if (auto gpus = placement_->place(spec, cluster, none_taken)) {
        start(job, std::move(*gpus));
        continue;
      }
    }
    // Take trials back from lower-priority studies above their minimum, youngest first.
    std::vector<JobIndex> victims;
    for (JobIndex running : trials)
      if (jobs.spec(running).priority < spec.priority &&
          std::find(preempted.begin(), preempted.end(), running) == preempted.end())
        victims.push_back(running);
    if (victims.empty()) continue;  // nothing to take back: it waits
    TentativeCluster what_if = cluster;
    std::map<std::string, std::uint32_t> used_after;
    std::vector<JobIndex> chosen;
    std::optional<std::vector<GpuId>> gpus;
    for (JobIndex victim : victims) {
      const JobSpec& trial = jobs.spec(victim);
      const StudyUse& use = studies[trial.study->id];
      auto [it, inserted] = used_after.emplace(trial.study->id, use.used);
      if (it->second < use.min_gpus + trial.gpus) continue;  // would drop below its minimum
      it->second -= trial.gpus;
      what_if.free(jobs.runtime(victim).gpus, jobs.spec(victim));
      chosen.push_back(victim);
      if ((gpus = placement_->place(spec, what_if, none_taken))) break;
    }
    if (!gpus) continue;  // even the studies' spare GPUs would not make room
    for (JobIndex victim : chosen) {
      plan.preempt(victim);
      preempted.push_back(victim);
      cluster.free(jobs.runtime(victim).gpus, jobs.spec(victim));
      studies[jobs.spec(victim).study->id].used -= jobs.spec(victim).gpus;
    }
    start(job, std::move(*gpus));
  }
}

}  // namespace gcsim
