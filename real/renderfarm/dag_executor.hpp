// dag_executor.hpp: runs a TaskGraph for real, one thread per worker of every
// pool, following the rules of task_graph.hpp, and times every task.
//
// A task either sleeps for its duration or spins: it performs a fixed amount
// of arithmetic calibrated on this machine to take its duration on an idle
// core. Sleeping tasks stand for work done elsewhere (a GPU, a render node)
// and do not compete for this machine's cores; spinning tasks do, so with
// more workers than free cores they take longer, as CPU-bound work would.
//
//   SpinCalibration spin = calibrate_spin(0.2);
//   ScheduleResult r = run_task_graph(frame_chain(spec), TaskWork::kSleep, spin);
//   ExecutorOverhead o = measure_executor_overhead(TaskWork::kSleep, spin, 0.05, 20, 3);
//   double predicted = list_schedule(frame_chain(spec), o.per_task, o.wake_up).makespan;
#pragma once

#include <cstddef>

#include "real/renderfarm/task_graph.hpp"

namespace gcsim::real {

enum class TaskWork { kSleep, kSpin };

/// Spin-loop iterations per second of one thread on this machine.
struct SpinCalibration {
  double iterations_per_second = 0;
};

/// Times the spin loop for about `seconds` on the calling thread.
SpinCalibration calibrate_spin(double seconds);

/// Runs `iterations` of the spin loop (the work of one spinning task).
void spin(double iterations);

/// Runs the graph (it must be valid) and returns the measured start and end of
/// every task, in seconds since the run began, and the makespan.
ScheduleResult run_task_graph(const TaskGraph& graph, TaskWork work, const SpinCalibration& spin);

/// What the executor adds to the tasks' own durations, in the terms of
/// list_schedule: `per_task` on every task (a sleep's overshoot, the
/// bookkeeping), from a chain of `count` tasks on one worker:
/// (makespan - count * seconds) / count; `wake_up` for a worker that waited,
/// from the same chain on two workers taking turns, whose count - 1 hand-overs
/// each wake a worker up. Each chain runs `repeats` times; the medians count.
struct ExecutorOverhead {
  double per_task = 0;
  double wake_up = 0;
};
ExecutorOverhead measure_executor_overhead(TaskWork work, const SpinCalibration& spin, double seconds,
                                           std::size_t count, std::size_t repeats = 1);

}  // namespace gcsim::real
