#include "sim/model/dag_schedule.hpp"

#include <algorithm>
#include <cassert>
#include <deque>
#include <functional>
#include <tuple>
#include <queue>

namespace gcsim {

double dag_list_schedule_seconds(const DagWork& work, double gpu_flops) {
  assert(!dag_error(work) && "a valid DAG");
  const auto next = dag_successors(work);
  std::vector<std::size_t> waiting(work.tasks.size());
  std::vector<std::deque<std::size_t>> ready(work.pools.size());
  for (std::size_t t = 0; t < work.tasks.size(); ++t) {
    waiting[t] = work.tasks[t].after.size();
    if (waiting[t] == 0) ready[work.tasks[t].pool].push_back(t);
  }
  auto cost = [&](std::size_t t) {
    const double flops = work.tasks[t].flops;
    return dag_task_fixed_seconds(work, t) + (flops > 0 ? flops / gpu_flops : 0.0);
  };
  // Workers: idle ones per pool; busy ones as (finish time, sequence, task, pool) events.
  std::vector<std::uint32_t> idle(work.pools.size());
  for (std::size_t p = 0; p < work.pools.size(); ++p) idle[p] = work.pools[p].workers;
  using Event = std::tuple<double, std::uint64_t, std::size_t>;  // finish, sequence, task
  std::priority_queue<Event, std::vector<Event>, std::greater<>> busy;
  std::uint64_t sequence = 0;
  double now = 0, makespan = 0;
  // At the start every worker looks for work at once; later, workers left idle have waited.
  auto dispatch = [&](bool waited) {
    for (std::size_t p = 0; p < work.pools.size(); ++p)
      while (idle[p] > 0 && !ready[p].empty()) {
        const std::size_t t = ready[p].front();
        ready[p].pop_front();
        --idle[p];
        busy.emplace(now + (waited ? work.wake_up : 0.0) + cost(t), sequence++, t);
      }
  };
  dispatch(false);
  while (!busy.empty()) {
    const auto [end, seq, t] = busy.top();
    busy.pop();
    now = end;
    makespan = std::max(makespan, end);
    const std::uint32_t pool = work.tasks[t].pool;
    for (std::size_t s : next[t])
      if (--waiting[s] == 0) ready[work.tasks[s].pool].push_back(s);
    // The worker that finished goes on without waking up.
    if (!ready[pool].empty()) {
      const std::size_t mine = ready[pool].front();
      ready[pool].pop_front();
      busy.emplace(now + cost(mine), sequence++, mine);
    } else {
      ++idle[pool];
    }
    dispatch(true);
  }
  return makespan;
}

}  // namespace gcsim
