#include "python/decision_channel.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace gcsim::python {
namespace {

std::size_t aligned(std::size_t bytes) { return (bytes + 7) / 8 * 8; }

// Where each part of the page begins, in bytes.
struct PageLayout {
  std::size_t jobs, indices, mask, free, end;
  PageLayout(std::size_t rows, std::size_t nodes) {
    jobs = kPageHeader * sizeof(double);
    indices = jobs + rows * kJobFeatures * sizeof(double);
    mask = indices + rows * sizeof(std::int64_t);
    free = mask + aligned(rows + 1);
    end = free + aligned(nodes * sizeof(std::int32_t));
  }
};

bool usable(double expected) { return std::isfinite(expected) && expected > 0; }

}  // namespace

std::size_t decision_page_size(std::size_t rows, std::size_t nodes) { return PageLayout(rows, nodes).end; }

DecisionChannel::DecisionChannel(unsigned char* page, std::size_t page_size, int decision_fd, int action_fd,
                                 std::size_t rows)
    : page_(page), page_size_(page_size), decision_fd_(decision_fd), action_fd_(action_fd), rows_(rows) {
  if (rows_ == 0) throw std::invalid_argument("an environment shows at least one waiting job");
  const PageLayout layout(rows_, 0);
  if (layout.end > page_size_) throw std::invalid_argument("the shared page is too small for the rows asked");
  header_ = reinterpret_cast<double*>(page_);
  jobs_ = reinterpret_cast<double*>(page_ + layout.jobs);
  indices_ = reinterpret_cast<std::int64_t*>(page_ + layout.indices);
  mask_ = page_ + layout.mask;
  free_ = reinterpret_cast<std::int32_t*>(page_ + layout.free);
  placed_.resize(rows_);
  header_[9] = static_cast<double>(::getpid());
}

void DecisionChannel::account(const PolicyCall& call) {
  const QueueView& jobs = *call.jobs;
  if (in_system_.size() != jobs.job_count()) in_system_.assign(jobs.job_count(), 0);
  const auto join = [&](JobIndex job) {
    if (in_system_[job]) return;
    in_system_[job] = 1;
    ++in_system_count_;
    const double expected = jobs.oracle_duration(job);
    if (!usable(expected)) return;
    rate_ += 1 / expected;
    offset_ += jobs.runtime(job).submitted / expected;
  };
  const auto end = [&](JobIndex job) {
    if (!in_system_[job]) return;
    in_system_[job] = 0;
    --in_system_count_;
    ++ended_;
    const double expected = jobs.oracle_duration(job);
    if (!usable(expected)) return;
    const JobRuntime& runtime = jobs.runtime(job);
    rate_ -= 1 / expected;
    offset_ -= runtime.submitted / expected;
    ended_slowdown_ += (runtime.end - runtime.submitted) / expected;
  };
  const WaitingChanges::Delta delta = changes_.since_last_call(jobs);
  for (JobIndex job : delta.joined) join(job);
  // A job that failed while waiting (a dependency failed) ends there.
  for (JobIndex job : delta.left)
    if (jobs.runtime(job).state == JobState::kFailed) end(job);
  const std::vector<RunEvent>& log = jobs.run_log();
  for (; runs_read_ < log.size(); ++runs_read_) {
    const RunEvent& event = log[runs_read_];
    const JobState state = jobs.runtime(event.job).state;
    if (!event.started && (state == JobState::kFinished || state == JobState::kFailed)) end(event.job);
  }
  // With nobody left the sums are 0, not what rounding left of them.
  if (in_system_count_ == 0) rate_ = offset_ = 0;
}

std::size_t DecisionChannel::observe(PolicyCall& call) {
  const QueueView& jobs = *call.jobs;
  const std::vector<JobIndex>& waiting = jobs.waiting();
  const std::vector<bool> none_taken;
  std::size_t rows = 0, can_start = 0;
  for (JobIndex job : waiting) {
    if (rows == rows_) break;
    if (std::find(started_.begin(), started_.end(), job) != started_.end()) continue;
    const JobSpec& spec = jobs.spec(job);
    const JobRuntime& runtime = jobs.runtime(job);
    // A job asking more GPUs than are free (or partly free, for a share)
    // cannot start: the placement is not asked.
    const std::size_t usable =
        call.cluster->free_gpu_count() + (spec.gpu_share < 1 ? call.cluster->partly_free_gpu_count() : 0);
    std::optional<std::vector<GpuId>> gpus;
    if (spec.gpus <= usable) gpus = call.placement->place(spec, *call.cluster, none_taken);
    double* row = jobs_ + rows * kJobFeatures;
    row[0] = spec.gpus;
    row[1] = spec.gpu_share;
    row[2] = call.now - runtime.submitted;
    row[3] = jobs.oracle_duration(job);
    row[4] = spec.runtime_estimate;
    row[5] = gpus ? 1 : 0;
    indices_[rows] = job;
    mask_[rows] = gpus ? 1 : 0;
    if (gpus) {
      placed_[rows] = std::move(*gpus);
      ++can_start;
    }
    ++rows;
  }
  std::fill(jobs_ + rows * kJobFeatures, jobs_ + rows_ * kJobFeatures, 0.0);
  std::fill(indices_ + rows, indices_ + rows_, -1);
  std::fill(mask_ + rows, mask_ + rows_, 0);
  // Waiting is allowed while something is still to happen: a job running
  // (its end) or one yet to join the queue. Otherwise nothing would ever
  // call the policy again, and the jobs would never start.
  const std::size_t running = jobs.running().size() + started_.size();
  const std::size_t to_come = jobs.job_count() - in_system_count_ - static_cast<std::size_t>(ended_);
  mask_[rows_] = running > 0 || to_come > 0 ? 1 : 0;
  const std::vector<std::size_t>& free = call.cluster->free_gpus_per_node();
  if (PageLayout(rows_, free.size()).end > page_size_)
    throw std::runtime_error("the shared page is too small for the cluster's " + std::to_string(free.size()) +
                             " nodes");
  for (std::size_t node = 0; node < free.size(); ++node) free_[node] = static_cast<std::int32_t>(free[node]);
  header_[0] = call.now;
  header_[1] = static_cast<double>(rows);
  header_[2] = static_cast<double>(waiting.size() - started_.size());
  header_[3] = static_cast<double>(running);
  header_[4] = static_cast<double>(call.cluster->free_gpu_count());
  header_[5] = ended_;
  header_[6] = rate_;
  header_[7] = offset_;
  header_[8] = ended_slowdown_;
  header_[10] = static_cast<double>(free.size());
  header_[11] = decisions_;
  header_[12] = calls_;
  header_[13] = static_cast<double>(to_come);
  return can_start;
}

void DecisionChannel::serve(PolicyCall& call) {
  account(call);
  ++calls_;
  started_.clear();
  for (;;) {
    if (observe(call) == 0) return;
    ++decisions_;
    header_[11] = decisions_;
    const char decision = 'd';
    while (::write(decision_fd_, &decision, 1) != 1)
      if (errno != EINTR) throw std::runtime_error(std::string("the environment went away: ") + std::strerror(errno));
    std::int32_t action = 0;
    std::size_t got = 0;
    while (got < sizeof action) {
      const ssize_t n = ::read(action_fd_, reinterpret_cast<char*>(&action) + got, sizeof action - got);
      if (n == 0) throw std::runtime_error("the environment was closed during the episode");
      if (n < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(std::string("the environment went away: ") + std::strerror(errno));
      }
      got += static_cast<std::size_t>(n);
    }
    if (action == static_cast<std::int32_t>(rows_)) return;  // wait
    if (action < 0 || action > static_cast<std::int32_t>(rows_) || !mask_[action])
      throw std::runtime_error("action " + std::to_string(action) + " is not allowed by the action mask");
    const JobIndex job = static_cast<JobIndex>(indices_[action]);
    std::vector<GpuId> gpus = std::move(placed_[action]);
    call.cluster->take(gpus, call.jobs->spec(job));
    call.plan->allocate(job, std::move(gpus));
    changes_.noted(job);
    started_.push_back(job);
  }
}

DecisionPolicy::DecisionPolicy(const DecisionEnds& ends, std::unique_ptr<PlacementPolicy> placement)
    : placement_(std::move(placement)),
      channel_(ends.page, ends.page_size, ends.decision_fd, ends.action_fd, ends.rows) {
  if (!placement_) throw std::invalid_argument("an environment's policy needs a placement policy");
  for (int fd : ends.close_in_child) ::close(fd);
  call_.placement = placement_.get();
}

void DecisionPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  call_.begin(ctx, plan);
  try {
    channel_.serve(call_);
  } catch (...) {
    call_.end();
    throw;
  }
  call_.end();
}

}  // namespace gcsim::python
