#include "sim/engine/runner_pool.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>
#include <tuple>

#include <simgrid/Exception.hpp>

#include "sim/engine/job_runs.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;
namespace {

// Stack of a runner actor, KiB: it starts activities and waits on them,
// never runs a policy, so a small stack keeps thousands of running jobs cheap
// (SimGrid's default is 8 MiB per actor).
constexpr unsigned kRunnerStackKiB = 256;

}  // namespace

void RunnerPool::start(JobIndex job) {
  Runner* runner = nullptr;
  if (idle_.empty()) {
    if (killed_.empty()) {
      runner = runners_.emplace_back(std::make_unique<Runner>()).get();
      runner->inbox = sg4::Mailbox::by_name("runner-" + std::to_string(runners_.size()));
    } else {  // a killed runner's place, with a new actor
      runner = killed_.back();
      killed_.pop_back();
    }
    // On the scheduler's host, from which the doorbell rings.
    runner->actor = sg4::Actor::init("runner-" + std::to_string(++started_), engine_.platform.control_host());
    runner->actor->set_stacksize(kRunnerStackKiB);
    runner->actor->start(guarded(engine_.failure, [this, runner] { serve(*runner); }));
  } else {
    runner = idle_.back();
    idle_.pop_back();
  }
  runner->job = job;
  runs_.run(job)->runner = runner;
  runner->next_job->release();
}

void RunnerPool::interrupt(Runner& runner) {
  if (runner.waits_on == Runner::Wait::kTimer) {
    runner.inbox->put_init(&runner, 0)->detach();  // a payload marks the sender
  } else if (runner.waits_on == Runner::Wait::kNothing) {
    // Its receive, if one is posted, goes with it: the next actor posts its
    // own. The actor is not reused, and no ActorPtr is kept to it: SimGrid
    // frees an actor's stack only once none refers to it, and keeping one
    // per kill would keep a stack and its guard mappings each time.
    if (!runner.interruption.empty()) runner.interruption.front()->cancel();
    runner.interruption.clear();
    runner.actor->kill();
    runner.actor = nullptr;
    killed_.push_back(&runner);
  }
}

void RunnerPool::serve(Runner& runner) {
  while (true) {
    runner.next_job->acquire();
    if (engine_.stopped) break;
    run_job(runner);
    if (engine_.stopped) break;
    idle_.push_back(&runner);
  }
  if (!runner.interruption.empty()) runner.interruption.front()->cancel();
}

void RunnerPool::dismiss_idle() {
  for (Runner* runner : idle_) runner->next_job->release();
  idle_.clear();
}

void RunnerPool::run_job(Runner& runner) {
  const JobIndex job = runner.job;
  RunningJob& run = *runs_.run(job);
  for (; run.step < run.plan->step_count(); ++run.step)
    if (!run_step(runner, job)) return;
  run.runner = nullptr;
  runs_.steps_done(job);
}

bool RunnerPool::run_step(Runner& runner, JobIndex job) {
  RunningJob& run = *runs_.run(job);
  const JobStep step = run.plan->step(run.step);
  if (step.kind == JobStep::Kind::kDelay) return timer_step(runner, run);
  if (engine_.stopped) return false;  // a runner created just before the run stopped
  if (step.kind == JobStep::Kind::kCompute && run.computes_on_timers()) return timer_step(runner, run);
  start_step(job, step);
  engine_.events.step_started({job, engine_.now, run});
  for (std::size_t k = 0; k < run.activities.size(); ++k) {
    const sg4::ActivityPtr& activity = run.activities[k];
    // One activity at a time, not wait_any over the job's: O(1) per wait,
    // and unlike Activity::wait(), no timeout action on the host's CPU.
    // The job stopped (interrupt()) cancels the activity: an Exec answers
    // the wait with a CancelException, a Comm with a NetworkFailureException.
    // An activity that already ended (SimGrid gives it a finish time then,
    // and only when it completed: a cancelled one has none) is not waited
    // on: in SimGrid 3.32 each wait on a finished host-to-host transfer
    // walks the list of every transfer in flight twice more (the kernel's
    // test and finish), a cost that grows with the flows of all jobs.
    bool canceled = false;
    if (!(activity->get_finish_time() >= 0)) {
      runner.waits_on = Runner::Wait::kActivity;
      try {
        sg4::Activity::wait_any_for({activity}, -1);
      } catch (const simgrid::CancelException&) {
        canceled = true;
      } catch (const simgrid::NetworkFailureException&) {
        canceled = true;
      }
      runner.waits_on = Runner::Wait::kNothing;
    }
    if (canceled || !resumed()) return false;
    engine_.events.events_handled(run.activity_transfers.empty() ? 1 : run.activity_transfers[k]);
  }
  engine_.events.step_ended({job, engine_.now, run});
  run.activities.clear();
  run.activity_transfers.clear();
  // SimGrid's clock may reach a computation's end a rounding error before
  // the end told to the recorder: its GPUs are idle from now, so that the
  // next step's busy interval does not overlap this one's.
  for (const auto& [end, gpus] : run.busy_ends)
    engine_.events.busy_cut({end, engine_.now, gpus, engine_.in.jobs[job].gpu_share, job});
  run.busy_ends.clear();
  return true;
}

bool RunnerPool::timer_step(Runner& runner, RunningJob& run) {
  const Time end = timers_.start(run);
  if (end > engine_.now && !wait_on_timer(runner, end)) return false;
  engine_.now = std::max(engine_.now, end);
  timers_.end(run);
  return true;
}

bool RunnerPool::wait_on_timer(Runner& runner, Time end) {
  if (runner.interruption.empty()) runner.interruption.push_back(runner.inbox->get_async<void>(&runner.message));
  runner.waits_on = Runner::Wait::kTimer;
  const ssize_t index = sg4::Activity::wait_any_for(runner.interruption, std::max(0.0, end - sg4::Engine::get_clock()));
  runner.waits_on = Runner::Wait::kNothing;
  if (index >= 0) {  // interrupted; the receive is spent
    runner.interruption.clear();
    return false;
  }
  return resumed();
}

bool RunnerPool::resumed() {
  if (engine_.stopped) return false;
  ++engine_.wakes;
  engine_.advance_clock();
  // While the scheduler sleeps through a long job, its runner keeps the
  // progress line going, and a stop request wakes the scheduler now, not
  // at its next wake-up: it stops at the top of its loop.
  engine_.report_progress();
  if (engine_.stop_requested()) engine_.doorbell.ring();
  return true;
}

void RunnerPool::start_step(JobIndex job, const JobStep& step) {
  RunningJob& run = *runs_.run(job);
  const std::size_t n = run.hosts.size();
  const double share = engine_.in.jobs[job].gpu_share;
  run.busy_ends.clear();
  switch (step.kind) {
    case JobStep::Kind::kCompute:
      timers_.record_compute_busy(run, step, share);
      for (std::size_t i = 0; i < n; ++i) {
        sg4::Host* host = run.hosts[i];
        sg4::ExecPtr exec = sg4::Exec::init();
        exec->set_flops_amount(step.amount * run.compute_scale[i])->set_host(host);
        // A fractional job is held to its share of the GPU; the shares on a
        // GPU add up to at most 1, so each gets its bound.
        if (share < 1) exec->set_bound(share * run.host_speeds[i]);
        run.activities.push_back(exec);
        exec->start();
      }
      // Meanwhile each node's pipeline decodes the step's input on the
      // node's cores, shared with the other pipelines there by GPUs and
      // held to the cores the job asked for there, if it asked.
      for (const NodeDecoding& node : run.decoding) {
        sg4::ExecPtr exec = sg4::Exec::init();
        exec->set_flops_amount(step.iterations * node.core_seconds_per_iteration)
            ->set_host(engine_.platform.cpu_hosts[node.node]);
        if (node.cores_asked > 0) exec->set_bound(node.cores_asked);
        exec->set_priority(node.gpus);
        run.activities.push_back(exec);
        exec->start();
      }
      break;
    case JobStep::Kind::kRingStep:
      ring_step(job, run, step.amount);
      break;
    case JobStep::Kind::kPush:
    case JobStep::Kind::kPull:
      // Every worker and every server not on its host, all at once.
      for (const Transfer& t : run.pushes) {
        if (step.kind == JobStep::Kind::kPush) {
          send(run, run.hosts[t.from], run.hosts[t.to], step.amount);
        } else {
          send(run, run.hosts[t.to], run.hosts[t.from], step.amount);
        }
      }
      break;
    case JobStep::Kind::kIntraNode:
    case JobStep::Kind::kInterNode:
      for (const Transfer& t : step.kind == JobStep::Kind::kIntraNode ? run.intra_node_step : run.inter_node_step)
        send(run, run.hosts[t.from], run.hosts[t.to], step.amount);
      break;
    case JobStep::Kind::kPhase:
      phase_step(job, run, step);
      break;
    case JobStep::Kind::kDelay:
    case JobStep::Kind::kBusy:
      assert(false && "a delay or a notebook's burst is a timer: it starts no activity");
      break;
  }
}

// A phase of a PhasedWork: its computation on every GPU, and each of its
// exchanges' transfers carrying all the messages of the step's iterations,
// all started together; one flow for each group of solo transfers
// (solo_transfers.hpp), which end together, unless a listener follows the
// flows.
void RunnerPool::phase_step(JobIndex job, RunningJob& run, const JobStep& step) {
  if (step.amount > 0) {
    const double share = engine_.in.jobs[job].gpu_share;
    timers_.record_compute_busy(run, step, share);
    if (run.computes_on_timers()) {
      phase_computation(run, step);
    } else {
      for (std::size_t i = 0; i < run.hosts.size(); ++i) {
        sg4::ExecPtr exec = sg4::Exec::init();
        exec->set_flops_amount(step.amount * run.compute_scale[i])->set_host(run.hosts[i]);
        if (share < 1) exec->set_bound(share * run.host_speeds[i]);
        run.activities.push_back(exec);
        run.activity_transfers.push_back(1);
        exec->start();
      }
    }
  }
  // A listener following the steps' flows (--contention) counts each
  // transfer on its own links: then each is a flow, which ends when its
  // group's would have.
  const bool merge = !engine_.events.steps_followed();
  for (const ExchangeFlows& flows : run.phase_flows[step.phase]) {
    if (!(flows.bytes > 0)) continue;
    for (std::size_t k = 0; k < flows.transfers.size(); ++k) {
      if (merge && flows.stands_for[k] == 0) continue;
      const Transfer& t = flows.transfers[k];
      send(run, run.hosts[t.from], run.hosts[t.to], flows.bytes * step.iterations);
      run.activity_transfers.push_back(merge ? flows.stands_for[k] : 1);
    }
  }
}

// A phase's computation on GPUs held whole: nothing else computes on them,
// so a GPU's computation takes its FLOPs over its speed whatever the rest of
// the cluster does, and the GPUs with the same FLOPs and speed end together.
// One Exec stands for each such set, on one of its GPUs. SimGrid 3.32 keeps
// the Execs an actor started in one list and walks it whole at each end
// (ExecImpl::post()): an Exec per GPU of a job of thousands of GPUs cost a
// walk of thousands at each of thousands of ends, every phase.
void RunnerPool::phase_computation(RunningJob& run, const JobStep& step) {
  // The sets so far: FLOPs, speed, and the index of their activity.
  std::vector<std::tuple<double, double, std::size_t>> sets;
  for (std::size_t i = 0; i < run.hosts.size(); ++i) {
    const double flops = step.amount * run.compute_scale[i];
    const double speed = run.host_speeds[i];
    const auto same = std::find_if(sets.begin(), sets.end(), [&](const auto& set) {
      return std::get<0>(set) == flops && std::get<1>(set) == speed;
    });
    if (same != sets.end()) {
      ++run.activity_transfers[std::get<2>(*same)];
      continue;
    }
    sets.emplace_back(flops, speed, run.activities.size());
    sg4::ExecPtr exec = sg4::Exec::init();
    exec->set_flops_amount(flops)->set_host(run.hosts[i]);
    run.activities.push_back(exec);
    run.activity_transfers.push_back(1);
    exec->start();
  }
}

// A ring step: each GPU sends `bytes` to the next. A hop inside a node
// crosses the sender's port up and the receiver's port down, and in a ring
// each GPU sends once and receives once: held whole by this job, those
// ports carry no other flow (without cross-traffic, which sends
// acknowledgements back over the previous hop's ports, and without PXN,
// which relays other GPUs' transfers through a GPU's port). So the hops inside
// nodes whose ports have the same bandwidth and latency all take the same
// time, whatever else the network carries, and one transfer stands for
// them: the solver then has one variable where it had one per hop. Hops
// between nodes share NICs and uplinks with other jobs: each stays a
// transfer of its own.
void RunnerPool::ring_step(JobIndex job, RunningJob& run, double bytes) {
  const ClusterLayout& layout = engine_.in.layout;
  const std::size_t n = run.hosts.size();
  if (run.gpu_share < 1 || layout.spec().network.crosstraffic || layout.fabric().pxn()) {
    for (std::size_t i = 0; i < n; ++i) send(run, run.hosts[i], run.hosts[(i + 1) % n], bytes);
    return;
  }
  const std::vector<GpuId>& gpus = engine_.state.runtime(job).gpus;  // ring order, as run.hosts
  assert(gpus.size() == n && "a running job holds the GPUs its run began on");
  // The intra-node hops sent so far: their ports' bandwidth and latency, their activity.
  // Local: each send() lets other runners run, and they may be in a ring step too.
  std::vector<std::tuple<double, double, std::size_t>> inside;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t next = (i + 1) % n;
    const NodeId node = layout.node_of(gpus[i]);
    if (node == layout.node_of(gpus[next])) {
      const LinkSpec& ports = layout.group_of_node(node).intra;
      const auto same = std::find_if(inside.begin(), inside.end(), [&](const auto& hop) {
        return std::get<0>(hop) == ports.bandwidth && std::get<1>(hop) == ports.latency;
      });
      if (same != inside.end()) {
        ++run.activity_transfers[std::get<2>(*same)];
        continue;
      }
      inside.emplace_back(ports.bandwidth, ports.latency, run.activities.size());
    }
    send(run, run.hosts[i], run.hosts[next], bytes);
    run.activity_transfers.push_back(1);
  }
}

// A transfer of the current step. At least one byte: SimGrid 3.32 never
// completes a zero-byte host-to-host transfer.
void RunnerPool::send(RunningJob& run, sg4::Host* from, sg4::Host* to, double bytes) {
  const auto whole = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(bytes)));
  run.activities.push_back(sg4::Comm::sendto_async(from, to, whole));
}

}  // namespace gcsim
