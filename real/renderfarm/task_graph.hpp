// task_graph.hpp: a DAG of tasks run by pools of workers, the render farm's
// frame chain as such a DAG, and the list schedule that gives its makespan by
// hand-countable rules.
//
// Every task belongs to one worker pool. A task is ready once all its
// predecessors have finished; ready tasks wait in their pool's FIFO queue (in
// the order they became ready, ties by task index) and an idle worker takes
// the head. A worker that finishes a task goes on at once with the head of
// its queue; a worker that had to wait for work starts its task a wake-up
// latency after the task became ready (a thread blocked on a condition
// variable is not running). The threaded executor (dag_executor.hpp) and the
// SimGrid model (validation/renderfarm_sim.cpp) follow the same rules.
//
// The frame chain: F frames of E elements and one render each. Element e of
// frame n needs the state of frame n-1, that is every element of frame n-1;
// the render of frame n needs every element of frame n and the render of
// frame n-1 (frames are written in order). Three schedules:
//   serial     one worker runs everything:                  F (E + 1) units
//   parallel   E element workers and a renderer, but the elements of frame n
//              also wait for the render of frame n-1:      2F units
//   pipelined  E element workers and a renderer; rendering frame n-1
//              overlaps computing frame n:                 F + 1 units
// With 1-unit tasks, 10 frames x 3 elements: 40, 20 and 11 units.
//
//   TaskGraph g = frame_chain({10, 3, 1.0, 1.0, FrameSchedule::kPipelined, 3});
//   double units = list_schedule(g).makespan;  // 11
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gcsim::real {

struct WorkerPool {
  std::string name;
  std::uint32_t workers = 1;
};

struct Task {
  std::string name;
  std::uint32_t pool = 0;
  double seconds = 0;
  std::vector<std::size_t> predecessors;  // indices of tasks that must finish first
};

struct TaskGraph {
  std::vector<WorkerPool> pools;
  std::vector<Task> tasks;
};

enum class FrameSchedule { kSerial, kParallel, kPipelined };

/// "serial", "parallel", "pipelined"; nullopt for anything else.
std::optional<FrameSchedule> parse_frame_schedule(const std::string& name);
const char* frame_schedule_name(FrameSchedule schedule);

struct FrameChainSpec {
  std::uint32_t frames = 10;
  std::uint32_t elements = 3;
  double element_seconds = 1;
  double render_seconds = 1;
  FrameSchedule schedule = FrameSchedule::kPipelined;
  std::uint32_t element_workers = 3;  // ignored by the serial schedule
};

/// The frame chain (file comment). Tasks are listed frame by frame, elements
/// before the render: "f3.e1", "f3.render".
TaskGraph frame_chain(const FrameChainSpec& spec);

/// `count` tasks of `seconds` each, one after the other, on one worker.
TaskGraph task_chain(std::size_t count, double seconds);

/// The same chain on two single-worker pools taking turns: every task but
/// the first waits for a worker to wake up.
TaskGraph alternating_chain(std::size_t count, double seconds);

/// A message naming the first problem (a pool with no worker, an unknown pool
/// or predecessor, a cycle with the names of its tasks), or nullopt when the
/// graph can run.
std::optional<std::string> task_graph_error(const TaskGraph& graph);

/// Successor lists, the reverse of the predecessor lists.
std::vector<std::vector<std::size_t>> successors(const TaskGraph& graph);

struct TaskTiming {
  double start = 0;
  double end = 0;
  std::uint32_t worker = 0;  // index inside the task's pool
};

struct ScheduleResult {
  double makespan = 0;
  std::vector<TaskTiming> tasks;  // by task index
};

/// The list schedule of the file comment, every task taking its `seconds`
/// plus `per_task_overhead`, and a worker that waited for work starting
/// `wake_up` late. The graph must be valid (task_graph_error).
ScheduleResult list_schedule(const TaskGraph& graph, double per_task_overhead = 0, double wake_up = 0);

}  // namespace gcsim::real
