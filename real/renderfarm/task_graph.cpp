#include "real/renderfarm/task_graph.hpp"

#include <cassert>
#include <deque>
#include <functional>
#include <limits>
#include <queue>

namespace gcsim::real {

std::optional<FrameSchedule> parse_frame_schedule(const std::string& name) {
  if (name == "serial") return FrameSchedule::kSerial;
  if (name == "parallel") return FrameSchedule::kParallel;
  if (name == "pipelined") return FrameSchedule::kPipelined;
  return std::nullopt;
}

const char* frame_schedule_name(FrameSchedule schedule) {
  switch (schedule) {
    case FrameSchedule::kSerial:
      return "serial";
    case FrameSchedule::kParallel:
      return "parallel";
    case FrameSchedule::kPipelined:
      return "pipelined";
  }
  return "?";
}

TaskGraph frame_chain(const FrameChainSpec& spec) {
  TaskGraph g;
  const bool serial = spec.schedule == FrameSchedule::kSerial;
  std::uint32_t element_pool = 0, render_pool = 0;
  if (serial) {
    g.pools.push_back({"worker", 1});
  } else {
    g.pools.push_back({"elements", spec.element_workers});
    g.pools.push_back({"renderer", 1});
    render_pool = 1;
  }
  std::vector<std::size_t> previous_elements;
  std::optional<std::size_t> previous_render;
  for (std::uint32_t f = 0; f < spec.frames; ++f) {
    std::vector<std::size_t> elements;
    for (std::uint32_t e = 0; e < spec.elements; ++e) {
      Task t{"f" + std::to_string(f) + ".e" + std::to_string(e), element_pool, spec.element_seconds, previous_elements};
      if (spec.schedule == FrameSchedule::kParallel && previous_render) t.predecessors.push_back(*previous_render);
      elements.push_back(g.tasks.size());
      g.tasks.push_back(std::move(t));
    }
    Task render{"f" + std::to_string(f) + ".render", render_pool, spec.render_seconds, elements};
    if (previous_render) render.predecessors.push_back(*previous_render);
    previous_render = g.tasks.size();
    g.tasks.push_back(std::move(render));
    previous_elements = std::move(elements);
  }
  return g;
}

TaskGraph alternating_chain(std::size_t count, double seconds) {
  TaskGraph g;
  g.pools.push_back({"a", 1});
  g.pools.push_back({"b", 1});
  for (std::size_t i = 0; i < count; ++i) {
    Task t{"t" + std::to_string(i), static_cast<std::uint32_t>(i % 2), seconds, {}};
    if (i > 0) t.predecessors.push_back(i - 1);
    g.tasks.push_back(std::move(t));
  }
  return g;
}

TaskGraph task_chain(std::size_t count, double seconds) {
  TaskGraph g;
  g.pools.push_back({"worker", 1});
  for (std::size_t i = 0; i < count; ++i) {
    Task t{"t" + std::to_string(i), 0, seconds, {}};
    if (i > 0) t.predecessors.push_back(i - 1);
    g.tasks.push_back(std::move(t));
  }
  return g;
}

std::vector<std::vector<std::size_t>> successors(const TaskGraph& graph) {
  std::vector<std::vector<std::size_t>> next(graph.tasks.size());
  for (std::size_t i = 0; i < graph.tasks.size(); ++i)
    for (std::size_t p : graph.tasks[i].predecessors) next[p].push_back(i);
  return next;
}

std::optional<std::string> task_graph_error(const TaskGraph& graph) {
  for (const auto& pool : graph.pools)
    if (pool.workers == 0) return "pool '" + pool.name + "' has no worker";
  for (const auto& t : graph.tasks) {
    if (t.pool >= graph.pools.size())
      return "task '" + t.name + "' names pool " + std::to_string(t.pool) + ", which does not exist";
    if (!(t.seconds >= 0)) return "task '" + t.name + "' has a negative duration";
    for (std::size_t p : t.predecessors)
      if (p >= graph.tasks.size())
        return "task '" + t.name + "' depends on task " + std::to_string(p) + ", which does not exist";
  }
  // Depth-first search; a predecessor still on the stack closes a cycle.
  enum Mark { kNew, kOnStack, kDone };
  std::vector<Mark> mark(graph.tasks.size(), kNew);
  std::vector<std::size_t> stack;
  std::function<std::optional<std::string>(std::size_t)> visit = [&](std::size_t i) -> std::optional<std::string> {
    mark[i] = kOnStack;
    stack.push_back(i);
    for (std::size_t p : graph.tasks[i].predecessors) {
      if (mark[p] == kOnStack) {
        std::string cycle;
        for (auto it = stack.begin(); it != stack.end(); ++it)
          if (*it == p || !cycle.empty()) cycle += (cycle.empty() ? "" : " -> ") + graph.tasks[*it].name;
        return "the tasks form a cycle: " + cycle + " -> " + graph.tasks[p].name + " (each waits for the next)";
      }
      if (mark[p] == kNew)
        if (auto err = visit(p)) return err;
    }
    stack.pop_back();
    mark[i] = kDone;
    return std::nullopt;
  };
  for (std::size_t i = 0; i < graph.tasks.size(); ++i)
    if (mark[i] == kNew)
      if (auto err = visit(i)) return err;
  return std::nullopt;
}

ScheduleResult list_schedule(const TaskGraph& graph, double per_task_overhead, double wake_up) {
  assert(!task_graph_error(graph) && "list_schedule needs a valid task graph");
  const auto next = successors(graph);
  const std::size_t n = graph.tasks.size();
  std::vector<std::size_t> waiting(n);
  std::vector<std::deque<std::size_t>> ready(graph.pools.size());
  std::vector<std::vector<bool>> busy(graph.pools.size());
  for (std::size_t p = 0; p < graph.pools.size(); ++p) busy[p].assign(graph.pools[p].workers, false);
  for (std::size_t i = 0; i < n; ++i) {
    waiting[i] = graph.tasks[i].predecessors.size();
    if (waiting[i] == 0) ready[graph.tasks[i].pool].push_back(i);
  }
  ScheduleResult result;
  result.tasks.resize(n);
  // Running tasks by end time, ties by task index.
  using Running = std::pair<double, std::size_t>;
  std::priority_queue<Running, std::vector<Running>, std::greater<>> running;
  const auto start = [&](std::size_t t, std::uint32_t worker, double at) {
    busy[graph.tasks[t].pool][worker] = true;
    result.tasks[t] = TaskTiming{at, at + graph.tasks[t].seconds + per_task_overhead, worker};
    running.push({result.tasks[t].end, t});
  };
  // Idle workers take queued tasks; those that were waiting start `delay` later.
  const auto dispatch_idle = [&](double now, double delay) {
    for (std::size_t p = 0; p < ready.size(); ++p)
      for (std::uint32_t w = 0; w < busy[p].size() && !ready[p].empty(); ++w)
        if (!busy[p][w]) {
          const std::size_t t = ready[p].front();
          ready[p].pop_front();
          start(t, w, now + delay);
        }
  };
  dispatch_idle(0, 0);  // the workers start with the first tasks already queued
  double now = 0;
  for (std::size_t finished = 0; finished < n; ++finished) {
    assert(!running.empty() && "a valid graph always has a running task until all are done");
    const auto [end, t] = running.top();
    running.pop();
    now = end;
    const std::uint32_t pool = graph.tasks[t].pool;
    const std::uint32_t worker = result.tasks[t].worker;
    busy[pool][worker] = false;
    for (std::size_t s : next[t])
      if (--waiting[s] == 0) ready[graph.tasks[s].pool].push_back(s);
    if (!ready[pool].empty()) {  // the worker goes on without waiting
      const std::size_t follow = ready[pool].front();
      ready[pool].pop_front();
      start(follow, worker, now);
    }
    dispatch_idle(now, wake_up);
  }
  result.makespan = now;
  return result;
}

}  // namespace gcsim::real
