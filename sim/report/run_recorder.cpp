#include "sim/report/run_recorder.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>
#include <variant>

#include "sim/core/job_spec.hpp"
#include "sim/core/work_forms.hpp"

namespace gcsim {
namespace {

constexpr std::int64_t kShareUnits = 1000000;
static_assert(kSmallestGpuShare * kShareUnits == 1, "the smallest share is one unit");

// GPUs in timeline units: each counts its share.
std::int64_t share_units(std::size_t gpus, double share) {
  return static_cast<std::int64_t>(gpus) * std::llround(share * kShareUnits);
}

}  // namespace

RunRecorder::RunRecorder(std::size_t job_count, std::size_t total_gpus) {
  record_.total_gpus = total_gpus;
  record_.outcomes.resize(job_count);
}

void RunRecorder::add_change(const Change& change) {
  while (!future_.empty() && future_.begin()->first <= change.time) {
    const Change due = future_.begin()->second;
    future_.erase(future_.begin());
    add_change(due);
  }
  // Changes at one instant only ever add up (assemble_timeline()), so one
  // entry holds them all: most of a run's changes happen at the latest instant.
  const double allocated = static_cast<double>(change.allocated);
  const double busy = static_cast<double>(change.busy);
  const auto queued = static_cast<std::uint32_t>(change.queued);  // modulo 2^32
  if (!changes_.empty() && changes_.back().time == change.time) {
    TimelinePoint& last = changes_.back();
    last.allocated += allocated;
    last.busy += busy;
    last.queued += queued;
    return;
  }
  changes_.push_back({change.time, allocated, busy, queued});
}

void RunRecorder::add_future_change(const Change& change) {
  const auto [at, added] = future_.try_emplace(change.time, change);
  if (added) return;
  Change& sum = at->second;
  sum.allocated += change.allocated;
  sum.busy += change.busy;
  sum.queued += change.queued;
  if (sum.allocated == 0 && sum.busy == 0 && sum.queued == 0) future_.erase(at);
}

void RunRecorder::job_submitted(Time now) {
  ++record_.events;
  add_change({now, 0, 0, 1});
}

void RunRecorder::allocation_changed(Time now, double allocated_delta, std::int64_t queued_delta) {
  add_change({now, std::llround(allocated_delta * kShareUnits), 0, queued_delta});
}

void RunRecorder::job_started(JobIndex job, Time now, const std::vector<GpuId>& gpus) {
  JobOutcome& outcome = record_.outcomes[job];
  if (outcome.start == kNever) outcome.start = now;
  outcome.gpus = gpus;
}

void RunRecorder::cpu_job_started(JobIndex job, Time now, const std::vector<NodeId>& nodes) {
  JobOutcome& outcome = record_.outcomes[job];
  if (outcome.start == kNever) outcome.start = now;
  if (record_.cpu_nodes.empty()) record_.cpu_nodes.assign(record_.outcomes.size(), kNoNode);
  record_.cpu_nodes[job] = nodes.empty() ? kNoNode : nodes.front();
  if (nodes.size() > 1) {
    record_.cpu_spans[job] = nodes;
  } else {
    record_.cpu_spans.erase(job);
  }
}

void RunRecorder::replica_submitted(JobIndex job, Time submitted) {
  JobOutcome& outcome = record_.outcomes[job];
  if (outcome.submitted == kNever) outcome.submitted = submitted;
  outcome.end = kNever;
}

void RunRecorder::replica_run_started(JobIndex job, Time now) { replica_runs_[job].running_since = now; }

void RunRecorder::replica_run_ended(JobIndex job, Time now) {
  const auto runs = replica_runs_.find(job);
  if (runs == replica_runs_.end() || runs->second.running_since == kNever) return;
  runs->second.ran += now - runs->second.running_since;
  runs->second.running_since = kNever;
}

void RunRecorder::job_finished(JobIndex job, Time now, std::size_t gpus, double gpu_share, double held_gpu_seconds) {
  record_.run_gpu_seconds += held_gpu_seconds;
  record_.outcomes[job].end = now;
  ++jobs_ended_;
  add_change({now, -share_units(gpus, gpu_share), 0, 0});
}

void RunRecorder::job_failed(JobIndex job, Time now, std::size_t gpus, double gpu_share, double held_gpu_seconds,
                             Failure failure) {
  job_finished(job, now, gpus, gpu_share, held_gpu_seconds);
  record_.failed_gpu_seconds += held_gpu_seconds;
  record_.outcomes[job].failure = failure;
}

void RunRecorder::job_preempted(double held_gpu_seconds, double lost_gpu_seconds, bool kept_nothing) {
  record_.lost_gpu_seconds += lost_gpu_seconds;
  record_.run_gpu_seconds += held_gpu_seconds;
  if (kept_nothing) ++record_.restarts_from_zero;
}

void RunRecorder::run_cut(double held_gpu_seconds) { record_.run_gpu_seconds += held_gpu_seconds; }

void RunRecorder::busy(Time start, Time end, std::size_t gpus, double gpu_share) {
  const std::int64_t units = share_units(gpus, gpu_share);
  add_change({start, 0, units, 0});
  add_future_change({end, 0, -units, 0});
}

void RunRecorder::busy_cut(Time planned_end, Time now, std::size_t gpus, double gpu_share) {
  if (planned_end <= now) return;
  const std::int64_t units = share_units(gpus, gpu_share);
  add_future_change({planned_end, 0, units, 0});  // undo the planned end
  add_change({now, 0, -units, 0});
}

RunRecord RunRecorder::finish(Time end, const QueueView& jobs) {
  for (JobIndex j = 0; j < record_.outcomes.size(); ++j) {
    JobOutcome& o = record_.outcomes[j];
    const JobRuntime& runtime = jobs.runtime(j);
    o.state = runtime.state;
    o.preemptions = runtime.preemptions;
    if (!runtime.gpus.empty()) o.gpus = runtime.gpus;
    if (replica_of(jobs.spec(j).work)) {
      finish_replica(j, end, runtime);
      continue;
    }
    if (o.submitted == kNever) o.submitted = runtime.submitted;
    o.uncontended = jobs.oracle_duration(j);
    if (o.end == kNever) o.end = runtime.end;
  }
  record_.simulated_time = end;
  const std::map<Time, Change> due = std::move(future_);
  future_.clear();
  for (const auto& [time, change] : due) add_change(change);
  record_.timeline = assemble_timeline();
  changes_ = {};
  return std::move(record_);
}

// A replica has no work of its own to time alone: it serves as long as its
// deployment keeps it. Its submission, start and end are those the events
// told (replica_submitted, job_started, replica_left, job_finished).
void RunRecorder::finish_replica(JobIndex job, Time end, const JobRuntime& runtime) {
  JobOutcome& o = record_.outcomes[job];
  replica_run_ended(job, end);
  const auto runs = replica_runs_.find(job);
  o.uncontended = runs == replica_runs_.end() ? 0 : runs->second.ran;
  // Let go, or retired with its deployment: neither waiting nor running now.
  if (runtime.state == JobState::kPending || runtime.state == JobState::kFinished) {
    o.state = o.start != kNever ? JobState::kFinished : o.submitted != kNever ? JobState::kWaiting : JobState::kPending;
  }
}

std::vector<TimelinePoint> RunRecorder::assemble_timeline() {
  // The counts at an instant are the sums of all its changes, in any order,
  // so an in-place sort serves (a stable one would take a buffer of them).
  std::sort(changes_.begin(), changes_.end(),
            [](const TimelinePoint& a, const TimelinePoint& b) { return a.time < b.time; });
  // The counts after each instant, written over the changes already summed
  // (an instant whose counts equal the last kept one's dropped).
  std::size_t kept = 0;
  std::int64_t allocated = 0;
  std::int64_t busy = 0;
  std::uint32_t queued = 0;
  std::int64_t kept_allocated = -1;
  std::int64_t kept_busy = -1;
  for (std::size_t i = 0; i < changes_.size(); ++i) {
    const Time time = changes_[i].time;
    allocated += std::llround(changes_[i].allocated);
    busy += std::llround(changes_[i].busy);
    queued += changes_[i].queued;
    if (i + 1 < changes_.size() && changes_[i + 1].time == time) continue;
    assert(allocated >= 0 && busy >= 0 && busy <= allocated && static_cast<std::int32_t>(queued) >= 0 &&
           "counts stay consistent");
    if (kept > 0 && kept_allocated == allocated && kept_busy == busy && changes_[kept - 1].queued == queued) continue;
    kept_allocated = allocated;
    kept_busy = busy;
    changes_[kept++] = {time, static_cast<double>(allocated) / kShareUnits, static_cast<double>(busy) / kShareUnits,
                        queued};
  }
  changes_.resize(kept);
  return std::move(changes_);
}

}  // namespace gcsim
