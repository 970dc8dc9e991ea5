#include "real/renderfarm/dag_executor.hpp"

#include "real/sample_median.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace gcsim::real {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Shared state of one run, guarded by `mutex`.
struct Run {
  const TaskGraph& graph;
  std::vector<std::vector<std::size_t>> next;
  std::vector<std::size_t> waiting;
  std::vector<std::deque<std::size_t>> ready;  // per pool
  std::vector<std::condition_variable> wake;   // per pool
  std::size_t finished = 0;
  std::mutex mutex;
  ScheduleResult result;
  Clock::time_point origin;

  explicit Run(const TaskGraph& g)
      : graph(g), next(successors(g)), waiting(g.tasks.size()), ready(g.pools.size()), wake(g.pools.size()) {
    result.tasks.resize(g.tasks.size());
    for (std::size_t i = 0; i < g.tasks.size(); ++i) {
      waiting[i] = g.tasks[i].predecessors.size();
      if (waiting[i] == 0) ready[g.tasks[i].pool].push_back(i);
    }
  }
};

void work_on(const Task& task, TaskWork work, const SpinCalibration& calibration) {
  if (work == TaskWork::kSleep) {
    std::this_thread::sleep_for(std::chrono::duration<double>(task.seconds));
  } else {
    spin(task.seconds * calibration.iterations_per_second);
  }
}

void worker_loop(Run& run, std::uint32_t pool, std::uint32_t worker, TaskWork work,
                 const SpinCalibration& calibration) {
  const std::size_t total = run.graph.tasks.size();
  std::unique_lock<std::mutex> lock(run.mutex);
  for (;;) {
    run.wake[pool].wait(lock, [&] { return !run.ready[pool].empty() || run.finished == total; });
    if (run.ready[pool].empty()) return;  // everything finished
    const std::size_t t = run.ready[pool].front();
    run.ready[pool].pop_front();
    lock.unlock();
    const auto start = Clock::now();
    work_on(run.graph.tasks[t], work, calibration);
    const auto end = Clock::now();
    lock.lock();
    run.result.tasks[t] = TaskTiming{seconds_between(run.origin, start), seconds_between(run.origin, end), worker};
    ++run.finished;
    for (std::size_t s : run.next[t])
      if (--run.waiting[s] == 0) {
        run.ready[run.graph.tasks[s].pool].push_back(s);
        run.wake[run.graph.tasks[s].pool].notify_one();
      }
    if (run.finished == total)
      for (auto& cv : run.wake) cv.notify_all();
  }
}

}  // namespace

SpinCalibration calibrate_spin(double seconds) {
  double iterations = 1e5;
  for (;;) {
    const auto start = Clock::now();
    spin(iterations);
    const double took = seconds_between(start, Clock::now());
    if (took >= seconds) return SpinCalibration{iterations / took};
    iterations *= took > 0 ? std::min(10.0, 1.2 * seconds / took) : 10.0;
  }
}

void spin(double iterations) {
  // A dependent chain of integer operations the compiler cannot remove.
  volatile std::uint64_t sink = 0;
  std::uint64_t x = 88172645463325252ull;
  const auto n = static_cast<std::uint64_t>(iterations);
  for (std::uint64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  sink = x;
  (void)sink;
}

ScheduleResult run_task_graph(const TaskGraph& graph, TaskWork work, const SpinCalibration& calibration) {
  assert(!task_graph_error(graph) && "run_task_graph needs a valid task graph");
  Run run(graph);
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> hold(run.mutex);  // workers start together, at the origin
    for (std::uint32_t p = 0; p < graph.pools.size(); ++p)
      for (std::uint32_t w = 0; w < graph.pools[p].workers; ++w)
        threads.emplace_back(worker_loop, std::ref(run), p, w, work, std::cref(calibration));
    run.origin = Clock::now();
  }
  for (auto& t : threads) t.join();
  for (const auto& timing : run.result.tasks) run.result.makespan = std::max(run.result.makespan, timing.end);
  return run.result;
}

ExecutorOverhead measure_executor_overhead(TaskWork work, const SpinCalibration& calibration, double seconds,
                                           std::size_t count, std::size_t repeats) {
  assert(count >= 2 && "the wake-up latency needs at least one hand-over");
  assert(repeats >= 1 && "at least one run of each chain");
  const double n = static_cast<double>(count);
  // The median of several runs of each chain: one hiccup of the machine in a
  // single run would otherwise become every task's overhead in the model.
  std::vector<double> one_worker_runs, taking_turns_runs;
  for (std::size_t r = 0; r < repeats; ++r) {
    one_worker_runs.push_back(run_task_graph(task_chain(count, seconds), work, calibration).makespan);
    taking_turns_runs.push_back(run_task_graph(alternating_chain(count, seconds), work, calibration).makespan);
  }
  const double one_worker = median(one_worker_runs), taking_turns = median(taking_turns_runs);
  ExecutorOverhead overhead;
  overhead.per_task = (one_worker - n * seconds) / n;
  // A wake-up takes no less than nothing; a negative estimate is noise.
  overhead.wake_up = std::max(0.0, (taking_turns - one_worker) / (n - 1));
  return overhead;
}

}  // namespace gcsim::real
