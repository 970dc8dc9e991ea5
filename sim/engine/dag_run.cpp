#include "sim/engine/dag_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <mutex>

#include <simgrid/Exception.hpp>

#include "sim/core/dag_work.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;

struct DagRun::State {
  DagWork work;
  std::vector<std::vector<std::size_t>> next;
  std::vector<std::size_t> waiting;
  std::vector<std::deque<std::size_t>> ready;
  std::vector<sg4::ConditionVariablePtr> wake;  // one per pool
  sg4::ConditionVariablePtr all_done = sg4::ConditionVariable::create();
  sg4::MutexPtr mutex = sg4::Mutex::create();
  std::vector<sg4::Host*> task_host;             // where each task ran
  std::vector<std::vector<sg4::CommPtr>> comms;  // per worker: its task's incoming data
  std::vector<double> exec_start;                // per worker: start of its task in progress, or -1
  std::vector<bool> alive;                       // per actor (workers, then the coordinator)
  std::size_t finished = 0;
  BusyListener on_busy;
};

namespace {

// Runs `body(lock)` with `lock` on the DAG's mutex, taken. A preempted job's
// actors are killed: SimGrid unwinds each with a ForcefulKillException from
// the call it was blocked in. A killed actor must not release the mutex on
// its way out: it may make no more simcalls (with threads as contexts, that
// one would wait forever), and killed in a condition variable's wait it does
// not even hold it. The DAG's state, mutex included, dies with its actors.
template <typename Body>
void locked_until_killed(DagRun::State& s, Body&& body) {
  std::unique_lock<sg4::Mutex> lock(*s.mutex, std::defer_lock);
  try {
    lock.lock();
    body(lock);
  } catch (const simgrid::ForcefulKillException&) {
    lock.release();
    throw;
  }
}

void run_worker(const std::shared_ptr<DagRun::State>& s, std::uint32_t pool, std::size_t slot, sg4::Host* host,
                std::unique_lock<sg4::Mutex>& lock) {
  const std::size_t total = s->work.tasks.size();
  const bool cpu = s->work.pools[pool].cpu;
  for (;;) {
    bool waited = false;
    while (s->ready[pool].empty() && s->finished < total) {
      s->wake[pool]->wait(lock);
      waited = true;
    }
    if (s->ready[pool].empty()) return;
    const std::size_t t = s->ready[pool].front();
    s->ready[pool].pop_front();
    s->task_host[t] = host;
    lock.unlock();
    if (waited && s->work.wake_up > 0) sg4::this_actor::sleep_for(s->work.wake_up);

    // The predecessors' data, from the hosts they ran on, all at once.
    const DagTask& task = s->work.tasks[t];
    std::vector<sg4::CommPtr>& incoming = s->comms[slot];
    incoming.clear();
    for (const DagInput& input : task.after) {
      sg4::Host* from = s->task_host[input.task];
      if (input.bytes <= 0 || from == host) continue;
      // At least one byte: SimGrid 3.32 never completes a zero-byte host-to-host transfer.
      const auto bytes = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(input.bytes)));
      incoming.push_back(sg4::Comm::sendto_async(from, host, bytes));
    }
    if (!incoming.empty()) sg4::Comm::wait_all(incoming);
    incoming.clear();

    const double seconds = dag_task_fixed_seconds(s->work, t);
    if (cpu) {
      sg4::this_actor::sleep_for(seconds);
    } else {
      s->exec_start[slot] = sg4::Engine::get_clock();
      sg4::this_actor::execute(seconds * host->get_speed() + task.flops);
      if (s->on_busy) s->on_busy(s->exec_start[slot], sg4::Engine::get_clock());
      s->exec_start[slot] = -1;
    }

    lock.lock();
    ++s->finished;
    for (std::size_t successor : s->next[t])
      if (--s->waiting[successor] == 0) {
        const std::uint32_t p = s->work.tasks[successor].pool;
        s->ready[p].push_back(successor);
        s->wake[p]->notify_one();
      }
    if (s->finished == total) {
      for (auto& cv : s->wake) cv->notify_all();
      s->all_done->notify_all();
    }
  }
}

}  // namespace

DagRun::DagRun(const DagWork& work, const std::vector<sg4::Host*>& worker_hosts, sg4::Host* scheduler_host,
               const std::string& name, BusyListener on_busy, DoneListener on_done, ActorFailure& failure)
    : state_(std::make_shared<State>()) {
  State& s = *state_;
  s.work = work;
  s.next = dag_successors(work);
  s.ready.resize(work.pools.size());
  s.task_host.assign(work.tasks.size(), nullptr);
  s.on_busy = std::move(on_busy);
  for (std::size_t t = 0; t < work.tasks.size(); ++t) {
    s.waiting.push_back(work.tasks[t].after.size());
    if (s.waiting.back() == 0) s.ready[work.tasks[t].pool].push_back(t);
  }
  // Workers in pool order, each on its host.
  for (std::uint32_t p = 0; p < work.pools.size(); ++p) {
    s.wake.push_back(sg4::ConditionVariable::create());
    for (std::uint32_t w = 0; w < work.pools[p].workers; ++w) {
      const std::size_t slot = s.comms.size();
      sg4::Host* host = worker_hosts.at(slot);
      s.comms.emplace_back();
      s.exec_start.push_back(-1);
      s.alive.push_back(true);
      actors_.push_back(sg4::Actor::create(name + "-" + work.pools[p].name + "-" + std::to_string(w), host,
                                           guarded(failure, [st = state_, p, slot, host] {
                                             locked_until_killed(
                                                 *st, [&](auto& lock) { run_worker(st, p, slot, host, lock); });
                                             st->alive[slot] = false;
                                           })));
    }
  }
  s.alive.push_back(true);
  actors_.push_back(
      sg4::Actor::create(name + "-done", scheduler_host, guarded(failure, [st = state_, on_done = std::move(on_done)] {
                           locked_until_killed(*st, [&](auto& lock) {
                             while (st->finished < st->work.tasks.size()) st->all_done->wait(lock);
                           });
                           on_done();
                           st->alive.back() = false;
                         })));
}

DagRun::~DagRun() = default;

void DagRun::cancel() {
  const double now = sg4::Engine::get_clock();
  for (std::size_t slot = 0; slot < state_->comms.size(); ++slot) {
    for (const sg4::CommPtr& comm : state_->comms[slot])
      if (comm->get_state() != sg4::Activity::State::FINISHED) comm->cancel();
    state_->comms[slot].clear();
    if (state_->exec_start[slot] >= 0 && state_->on_busy) state_->on_busy(state_->exec_start[slot], now);
    state_->exec_start[slot] = -1;
  }
  for (std::size_t a = 0; a < actors_.size(); ++a)
    if (state_->alive[a]) actors_[a]->kill();
  actors_.clear();
}

}  // namespace gcsim
