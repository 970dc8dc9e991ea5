#include "sim/engine/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <queue>
#include <variant>

#include <simgrid/s4u.hpp>

#include "sim/core/scheduler_state.hpp"
#include "sim/engine/platform_builder.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;
namespace {

struct RunningJob {
  JobActivityPlan plan;
  std::vector<sg4::Host*> hosts;  // ring order
  std::uint64_t step = 0;
  std::uint32_t pending = 0;      // activities of the current step not yet complete
};

struct InFlight {
  JobIndex job;
  std::uint32_t epoch;  // the job's epoch when started; a preemption bumps it
  bool is_exec;
};

struct Timer {
  Time at;
  std::uint64_t sequence;  // FIFO among equal times, for determinism
  JobIndex job;            // kNoJob: a wake-up the policy asked for
  std::uint32_t epoch;
  bool operator>(const Timer& other) const {
    return at != other.at ? at > other.at : sequence > other.sequence;
  }
};

// The body of the single scheduler actor; see simulation.hpp.
class Scheduler {
 public:
  Scheduler(const SimulationInput& input, const SimGridPlatform& platform)
      : in_(input),
        platform_(platform),
        state_(input.layout, input.locality, input.jobs),
        running_(input.jobs.size()),
        epoch_(input.jobs.size(), 0) {
    record_.total_gpus = input.layout.gpu_count();
    record_.outcomes.resize(input.jobs.size());
    arrivals_.resize(input.jobs.size());
    for (JobIndex j = 0; j < arrivals_.size(); ++j) arrivals_[j] = j;
    std::stable_sort(arrivals_.begin(), arrivals_.end(),
                     [&](JobIndex a, JobIndex b) { return input.jobs[a].submit < input.jobs[b].submit; });
  }

  void run() {
    try {
      loop();
    } catch (...) {
      failure_ = std::current_exception();
    }
    for (auto& activity : inflight_) activity->cancel();
    inflight_.clear();
    owners_.clear();
  }

  RunRecord finish_record() {
    if (failure_) std::rethrow_exception(failure_);
    for (JobIndex j = 0; j < in_.jobs.size(); ++j) {
      JobOutcome& o = record_.outcomes[j];
      o.state = state_.runtime(j).state;
      o.preemptions = state_.runtime(j).preemptions;
      if (!state_.runtime(j).gpus.empty()) o.gpus = state_.runtime(j).gpus;
    }
    record_.simulated_time = now_;
    return std::move(record_);
  }

 private:
  void loop() {
    bool changed = false;
    while (true) {
      now_ = std::max(now_, sg4::Engine::get_clock());
      if (now_ >= in_.options.until) return;
      while (next_arrival_ < arrivals_.size() && in_.jobs[arrivals_[next_arrival_]].submit <= now_) {
        state_.submit(arrivals_[next_arrival_++]);
        ++record_.events;
        changed = true;
      }
      while (!timers_.empty() && timers_.top().at <= now_) {
        const Timer timer = timers_.top();
        timers_.pop();
        ++record_.events;
        if (timer.job == kNoJob) {
          changed = true;
        } else if (timer.epoch == epoch_[timer.job]) {
          changed |= step_completed(timer.job);
        }
      }
      if (changed) {
        // Everything else completing at this instant reaches the policy in the same call.
        while (!inflight_.empty()) {
          const ssize_t index = sg4::Activity::wait_any_for(inflight_, 0);
          if (index < 0) break;
          changed |= activity_completed(static_cast<std::size_t>(index));
        }
        call_policy();
        changed = false;
      }

      Time next = in_.options.until;
      if (next_arrival_ < arrivals_.size()) next = std::min(next, in_.jobs[arrivals_[next_arrival_]].submit);
      if (!timers_.empty()) next = std::min(next, timers_.top().at);
      if (inflight_.empty()) {
        if (next == kNever) return;  // nothing can happen any more
        sg4::this_actor::sleep_until(next);
        now_ = std::max(sg4::Engine::get_clock(), next);
        continue;
      }
      const double timeout = next == kNever ? -1.0 : std::max(0.0, next - now_);
      const ssize_t index = sg4::Activity::wait_any_for(inflight_, timeout);
      if (index >= 0) {
        changed = activity_completed(static_cast<std::size_t>(index));
      } else {
        // Timed out: `next` is due, whatever rounding the clock went through.
        now_ = std::max(sg4::Engine::get_clock(), next);
      }
    }
  }

  // Returns true when the completion ended a job (the policy must run).
  bool activity_completed(std::size_t index) {
    const InFlight owner = owners_[index];
    inflight_[index] = std::move(inflight_.back());
    inflight_.pop_back();
    owners_[index] = owners_.back();
    owners_.pop_back();
    ++record_.events;
    now_ = std::max(now_, sg4::Engine::get_clock());
    if (owner.epoch != epoch_[owner.job]) return false;
    if (owner.is_exec) {
      --busy_;
      note_timeline();
    }
    if (--running_[owner.job]->pending > 0) return false;
    return step_completed(owner.job);
  }

  bool step_completed(JobIndex job) {
    RunningJob& run = *running_[job];
    if (++run.step < run.plan.step_count()) {
      start_step(job);
      return false;
    }
    state_.finish(job, now_);
    record_.outcomes[job].end = now_;
    allocated_ -= static_cast<std::uint32_t>(run.hosts.size());
    running_[job].reset();
    note_timeline();
    return true;
  }

  void start_step(JobIndex job) {
    RunningJob& run = *running_[job];
    const JobStep step = run.plan.step(run.step);
    const std::size_t n = run.hosts.size();
    switch (step.kind) {
      case JobStep::Kind::kCompute:
        for (sg4::Host* host : run.hosts) {
          sg4::ExecPtr exec = sg4::Exec::init();
          exec->set_flops_amount(step.amount)->set_host(host);
          exec->start();
          track(exec, job, true);
        }
        run.pending = static_cast<std::uint32_t>(n);
        busy_ += static_cast<std::uint32_t>(n);
        note_timeline();
        break;
      case JobStep::Kind::kRingStep: {
        const auto bytes = static_cast<std::uint64_t>(std::llround(step.amount));
        for (std::size_t i = 0; i < n; ++i)
          track(sg4::Comm::sendto_async(run.hosts[i], run.hosts[(i + 1) % n], bytes), job, false);
        run.pending = static_cast<std::uint32_t>(n);
        break;
      }
      case JobStep::Kind::kDelay:
        timers_.push({now_ + step.amount, timer_sequence_++, job, epoch_[job]});
        run.pending = 1;
        break;
    }
  }

  void track(sg4::ActivityPtr activity, JobIndex job, bool is_exec) {
    inflight_.push_back(std::move(activity));
    owners_.push_back({job, epoch_[job], is_exec});
  }

  void call_policy() {
    Plan plan;
    SchedulingContext context{now_, state_, state_};
    in_.policy.schedule(context, plan);
    const SchedulerState::Applied applied = state_.apply(plan, now_);
    for (JobIndex job : applied.preempted) stop(job);
    for (JobIndex job : applied.started) launch(job);
    if (plan.wake_time() > now_ && plan.wake_time() != kNever)
      timers_.push({plan.wake_time(), timer_sequence_++, kNoJob, 0});
    note_timeline();
  }

  void launch(JobIndex job) {
    const JobSpec& spec = in_.jobs[job];
    const std::vector<GpuId>& gpus = state_.runtime(job).gpus;
    double measured_flops = 0;
    if (const auto* measured = std::get_if<MeasuredWork>(&spec.work)) {
      const int type = in_.layout.find_gpu_type(measured->gpu_type);
      measured_flops = type >= 0 ? in_.layout.spec().gpu_types[static_cast<std::size_t>(type)].flops : 0;
    }
    // A ring step lasts as long as its slowest edge; the latency part of that is the largest path latency.
    double ring_latency = 0;
    for (std::size_t i = 0; gpus.size() > 1 && i < gpus.size(); ++i)
      ring_latency = std::max(ring_latency, in_.locality.path_latency(gpus[i], gpus[(i + 1) % gpus.size()]));
    ring_latency *= in_.layout.spec().network.latency_factor;

    RunningJob run{JobActivityPlan(spec, in_.options.fidelity, measured_flops, ring_latency), {}, 0, 0};
    for (GpuId g : gpus) run.hosts.push_back(platform_.gpu_hosts[g]);
    JobOutcome& outcome = record_.outcomes[job];
    if (outcome.start == kNever) outcome.start = now_;
    outcome.gpus = gpus;
    allocated_ += static_cast<std::uint32_t>(gpus.size());
    running_[job].emplace(std::move(run));
    if (running_[job]->plan.step_count() == 0) {
      step_completed(job);
      return;
    }
    start_step(job);
  }

  void stop(JobIndex job) {
    ++epoch_[job];
    for (std::size_t i = inflight_.size(); i-- > 0;) {
      if (owners_[i].job != job) continue;
      if (owners_[i].is_exec) --busy_;
      inflight_[i]->cancel();
      inflight_[i] = std::move(inflight_.back());
      inflight_.pop_back();
      owners_[i] = owners_.back();
      owners_.pop_back();
    }
    allocated_ -= static_cast<std::uint32_t>(running_[job]->hosts.size());
    running_[job].reset();
  }

  void note_timeline() {
    auto& timeline = record_.timeline;
    if (!timeline.empty() && timeline.back().allocated == allocated_ && timeline.back().busy == busy_) return;
    if (!timeline.empty() && timeline.back().time == now_) {
      timeline.back().allocated = allocated_;
      timeline.back().busy = busy_;
      if (timeline.size() > 1 && timeline[timeline.size() - 2].allocated == allocated_ &&
          timeline[timeline.size() - 2].busy == busy_)
        timeline.pop_back();
      return;
    }
    timeline.push_back({now_, allocated_, busy_});
  }

  const SimulationInput& in_;
  const SimGridPlatform& platform_;
  SchedulerState state_;
  std::vector<std::optional<RunningJob>> running_;
  std::vector<std::uint32_t> epoch_;
  std::vector<JobIndex> arrivals_;
  std::size_t next_arrival_ = 0;
  std::vector<sg4::ActivityPtr> inflight_;
  std::vector<InFlight> owners_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::uint64_t timer_sequence_ = 0;
  std::uint32_t allocated_ = 0, busy_ = 0;
  Time now_ = 0;
  RunRecord record_;
  std::exception_ptr failure_;
};

}  // namespace

RunRecord simulate(const SimulationInput& input) {
  // SimGrid reads its own options from argv; keep its console quiet but for warnings.
  std::string program = "gcsim", log = "--log=root.thres:warning";
  char* argv[] = {program.data(), log.data(), nullptr};
  int argc = 2;
  sg4::Engine engine(&argc, argv);
  configure_network_model(input.layout.spec().network);
  const SimGridPlatform platform = build_platform(input.layout);

  Scheduler scheduler(input, platform);
  sg4::Actor::create("scheduler", platform.gpu_hosts.front(), [&scheduler] { scheduler.run(); });
  const auto started = std::chrono::steady_clock::now();
  engine.run();
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;

  RunRecord record = scheduler.finish_record();
  record.policy = std::string(input.policy.name());
  record.fidelity = std::string(to_string(input.options.fidelity));
  record.seed = input.options.seed;
  record.cluster_name = input.layout.spec().name;
  record.wall_seconds = wall.count();
  return record;
}

}  // namespace gcsim
