#include "sim/report/run_log.hpp"

namespace gcsim {

void RunLog::started(JobIndex job, Time now, const std::vector<GpuId>& gpus, const std::vector<NodeId>& nodes) {
  if (job >= open_.size()) open_.resize(job + 1, kNone);
  stopped(job, now, RunEnd::kUnfinished);
  open_[job] = static_cast<std::uint32_t>(runs_.size());
  runs_.push_back({job, now, now, RunEnd::kUnfinished, nodes, gpus});
}

void RunLog::stopped(JobIndex job, Time now, RunEnd how) {
  if (job >= open_.size() || open_[job] == kNone) return;
  RunSlice& run = runs_[open_[job]];
  run.end = now;
  run.how = how;
  open_[job] = kNone;
}

std::vector<RunSlice> RunLog::close_all(Time end) {
  for (JobIndex job = 0; job < open_.size(); ++job) stopped(job, end, RunEnd::kUnfinished);
  return std::move(runs_);
}

}  // namespace gcsim
