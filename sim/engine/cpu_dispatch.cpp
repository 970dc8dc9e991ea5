#include "sim/engine/cpu_dispatch.hpp"

#include <variant>

#include "sim/core/overloaded.hpp"

namespace gcsim {

void CpuDispatch::submit(SchedulerState& state, JobIndex job, Time submitted) {
  if (submitted_.empty()) {
    submitted_.assign(jobs_.size(), kNever);
    runs_.assign(jobs_.size(), 0);
  }
  state.submit_cpu_job(job, submitted);
  submitted_[job] = submitted;
  line_.emplace(submitted, job);
}

std::vector<JobIndex> CpuDispatch::dispatch(SchedulerState& state, Time now) {
  std::vector<JobIndex> started;
  for (auto it = line_.begin(); it != line_.end();) {
    const JobIndex job = it->second;
    const CpuPlacement placement = state.place_cpu_job(job);
    if (placement.empty()) {
      ++it;
      continue;
    }
    state.start_cpu_job(job, placement, now);
    ++runs_[job];
    // A CPU job runs for its seconds; a serving replica until its deployment
    // lets it go (withdraw(), finish()), a DAG until its workers' last task
    // ends (finish()). The other forms hold GPUs and never come here.
    std::visit(Overloaded{[&](const CpuWork& work) {
                            ends_.push({now + work.seconds, job, runs_[job]});
                          },
                          [](const ServingWork&) {}, [](const DagWork&) {}, [](const TrainingWork&) {},
                          [](const MeasuredWork&) {}, [](const NotebookWork&) {}, [](const PhasedWork&) {}},
               jobs_[job].work);
    ++running_;
    started.push_back(job);
    it = line_.erase(it);
  }
  return started;
}

std::vector<JobIndex> CpuDispatch::finish_due(SchedulerState& state, Time now) {
  std::vector<JobIndex> ended;
  for (drop_stale_ends(); !ends_.empty() && ends_.top().at <= now; drop_stale_ends()) {
    const JobIndex job = ends_.top().job;
    ends_.pop();
    ++runs_[job];  // no later entry of this run's is due
    state.finish_cpu_job(job, now);
    --running_;
    ended.push_back(job);
  }
  return ended;
}

std::vector<JobIndex> CpuDispatch::stop_on_node(SchedulerState& state, NodeId node) {
  std::vector<JobIndex> stopped = state.cpu_jobs_on(node);
  for (JobIndex job : stopped) {
    state.stop_cpu_job(job);
    ++runs_[job];  // its end is stale
    --running_;
    line_.emplace(submitted_[job], job);
  }
  return stopped;
}

void CpuDispatch::withdraw(SchedulerState& state, JobIndex job, Time now) {
  if (state.runtime(job).state == JobState::kRunning) {
    ++runs_[job];
    --running_;
  } else {
    line_.erase({submitted_[job], job});
  }
  state.withdraw(job, now);
}

void CpuDispatch::finish(SchedulerState& state, JobIndex job, Time now) {
  ++runs_[job];
  --running_;
  state.finish_cpu_job(job, now);
}

Time CpuDispatch::next_end() {
  drop_stale_ends();
  return ends_.empty() ? kNever : ends_.top().at;
}

void CpuDispatch::drop_stale_ends() {
  while (!ends_.empty() && stale(ends_.top())) ends_.pop();
}

}  // namespace gcsim
