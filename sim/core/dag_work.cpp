#include "sim/core/dag_work.hpp"

#include <algorithm>
#include <functional>

namespace gcsim {

std::optional<std::string> dag_error(const DagWork& work) {
  if (work.pools.empty()) return "no worker pool";
  if (work.tasks.empty()) return "no task";
  for (const DagPool& pool : work.pools)
    if (pool.workers == 0) return "pool '" + pool.name + "' has no worker";
  if (work.task_overhead < 0) return "task_overhead is negative";
  if (work.wake_up < 0) return "wake_up is negative";
  for (std::size_t t = 0; t < work.tasks.size(); ++t) {
    const DagTask& task = work.tasks[t];
    if (task.pool >= work.pools.size()) return "task '" + task.id + "': unknown pool";
    if (task.seconds < 0 || task.flops < 0) return "task '" + task.id + "': negative cost";
    if (task.flops > 0 && work.pools[task.pool].cpu)
      return "task '" + task.id + "': FLOPs on CPU pool '" + work.pools[task.pool].name +
             "' (CPU tasks are given in seconds)";
    for (const DagInput& input : task.after) {
      if (input.task >= work.tasks.size()) return "task '" + task.id + "': unknown predecessor";
      if (input.task == t) return "task '" + task.id + "' waits for itself";
      if (input.bytes < 0) return "task '" + task.id + "': negative bytes from '" + work.tasks[input.task].id + "'";
    }
  }
  // Depth-first search for a back edge; the cycle is read off the path.
  enum class Mark { kNew, kOnPath, kDone };
  std::vector<Mark> mark(work.tasks.size(), Mark::kNew);
  std::vector<std::size_t> path;
  std::optional<std::string> cycle;
  std::function<bool(std::size_t)> visit = [&](std::size_t t) {
    mark[t] = Mark::kOnPath;
    path.push_back(t);
    for (const DagInput& input : work.tasks[t].after) {
      if (mark[input.task] == Mark::kOnPath) {
        // path holds ... input.task ... t, each waiting for the next one's predecessor: print in dependency order.
        const auto from = std::find(path.begin(), path.end(), input.task);
        std::string text = work.tasks[input.task].id;
        for (auto it = path.end(); it != from;) text += " -> " + work.tasks[*--it].id;
        cycle = "cycle: " + text;
        return true;
      }
      if (mark[input.task] == Mark::kNew && visit(input.task)) return true;
    }
    path.pop_back();
    mark[t] = Mark::kDone;
    return false;
  };
  for (std::size_t t = 0; t < work.tasks.size() && !cycle; ++t)
    if (mark[t] == Mark::kNew) visit(t);
  return cycle;
}

std::vector<std::vector<std::size_t>> dag_successors(const DagWork& work) {
  std::vector<std::vector<std::size_t>> next(work.tasks.size());
  for (std::size_t t = 0; t < work.tasks.size(); ++t)
    for (const DagInput& input : work.tasks[t].after) next[input.task].push_back(t);
  return next;
}

double dag_task_fixed_seconds(const DagWork& work, std::size_t task) {
  return work.tasks[task].seconds + work.task_overhead;
}

std::uint32_t dag_gpu_workers(const DagWork& work) {
  std::uint32_t n = 0;
  for (const DagPool& pool : work.pools) n += pool.cpu ? 0 : pool.workers;
  return n;
}

std::uint32_t dag_cpu_workers(const DagWork& work) {
  std::uint32_t n = 0;
  for (const DagPool& pool : work.pools) n += pool.cpu ? pool.workers : 0;
  return n;
}

}  // namespace gcsim
