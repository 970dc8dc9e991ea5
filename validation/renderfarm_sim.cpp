// renderfarm_sim: the render farm's frame chain simulated with SimGrid, the
// way the threaded executor (real/renderfarm/dag_executor.hpp) runs it: one
// simulated host per worker, worker actors that take the head of their
// pool's ready queue and execute the task, successors released when their
// last predecessor finishes. Every task lasts its duration plus the
// executor's per-task overhead; a worker that had to wait for work sleeps the
// executor's wake-up latency before starting. Every schedule runs on its own
// hosts in one simulation; one CSV row per schedule.
//
//   renderfarm_sim --frames 10 --elements 3 --unit 0.05 --overhead 0.00008 --wake-up 0.0002
//
// Columns: schedule,frames,elements,element_workers,unit_s,task_overhead_s,wake_up_s,simulated_s
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "real/renderfarm/task_graph.hpp"

namespace sg4 = simgrid::s4u;
using namespace gcsim::real;

namespace {

constexpr double kHostSpeed = 1e9;  // FLOP/s; a task of d seconds is d * kHostSpeed FLOPs

// One schedule's DAG being simulated; actors share it (they run one at a time).
struct SimulatedRun {
  TaskGraph graph;
  double overhead = 0;
  double wake_up = 0;
  std::vector<std::vector<std::size_t>> next;
  std::vector<std::size_t> waiting;
  std::vector<std::deque<std::size_t>> ready;
  std::vector<sg4::ConditionVariablePtr> wake;
  sg4::MutexPtr mutex = sg4::Mutex::create();
  std::size_t finished = 0;
  double makespan = 0;
};

void worker(std::shared_ptr<SimulatedRun> run, std::uint32_t pool) {
  const std::size_t total = run->graph.tasks.size();
  std::unique_lock<sg4::Mutex> lock(*run->mutex);
  for (;;) {
    bool waited = false;
    while (run->ready[pool].empty() && run->finished < total) {
      run->wake[pool]->wait(lock);
      waited = true;
    }
    if (run->ready[pool].empty()) return;
    const std::size_t t = run->ready[pool].front();
    run->ready[pool].pop_front();
    lock.unlock();
    if (waited && run->wake_up > 0) sg4::this_actor::sleep_for(run->wake_up);
    sg4::this_actor::execute((run->graph.tasks[t].seconds + run->overhead) * kHostSpeed);
    lock.lock();
    ++run->finished;
    run->makespan = std::max(run->makespan, sg4::Engine::get_clock());
    for (std::size_t s : run->next[t])
      if (--run->waiting[s] == 0) {
        run->ready[run->graph.tasks[s].pool].push_back(s);
        run->wake[run->graph.tasks[s].pool]->notify_one();
      }
    if (run->finished == total)
      for (auto& cv : run->wake) cv->notify_all();
  }
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

double parse_number(const std::string& flag, const std::string& text, double min) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= min))
    throw std::invalid_argument(flag + ": expected a number >= " + std::to_string(min) + ", got '" + text + "'");
  return v;
}

constexpr double kAnyNumber = -1e300;

}  // namespace

int main(int argc, char** argv) {
  sg4::Engine engine(&argc, argv);  // takes SimGrid's own --cfg options out of argv
  FrameChainSpec spec;
  spec.element_seconds = 0.05;
  bool workers_given = false, render_given = false;
  double overhead = 0;
  double wake_up = 0;
  std::vector<FrameSchedule> schedules{FrameSchedule::kSerial, FrameSchedule::kParallel, FrameSchedule::kPipelined};
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (i + 1 >= argc) throw std::invalid_argument(flag + ": missing value");
      const std::string value = argv[++i];
      if (flag == "--frames") spec.frames = static_cast<std::uint32_t>(parse_number(flag, value, 1));
      else if (flag == "--elements") spec.elements = static_cast<std::uint32_t>(parse_number(flag, value, 1));
      else if (flag == "--element-workers") { spec.element_workers = static_cast<std::uint32_t>(parse_number(flag, value, 1)); workers_given = true; }
      else if (flag == "--unit") spec.element_seconds = parse_number(flag, value, 0);
      else if (flag == "--render-unit") { spec.render_seconds = parse_number(flag, value, 0); render_given = true; }
      // A measured overhead may be slightly negative: spinning tasks can run
      // faster than their calibration.
      else if (flag == "--overhead") overhead = parse_number(flag, value, kAnyNumber);
      else if (flag == "--wake-up") wake_up = parse_number(flag, value, 0.0);
      else if (flag == "--schedules") {
        schedules.clear();
        std::stringstream list(value);
        for (std::string item; std::getline(list, item, ',');) {
          const auto s = parse_frame_schedule(item);
          if (!s) throw std::invalid_argument("--schedules: unknown schedule '" + item + "'");
          schedules.push_back(*s);
        }
      } else throw std::invalid_argument("unknown option '" + flag + "'");
    }
  } catch (const std::exception& e) {
    std::cerr << "renderfarm_sim: " << e.what()
              << "\nusage: renderfarm_sim [--frames F] [--elements E] [--element-workers W] [--unit S] "
                 "[--render-unit S] [--overhead S] [--wake-up S] [--schedules LIST]\n";
    return 2;
  }
  if (!workers_given) spec.element_workers = spec.elements;
  if (!render_given) spec.render_seconds = spec.element_seconds;
  if (std::min(spec.element_seconds, spec.render_seconds) + overhead < 0) {
    std::cerr << "renderfarm_sim: --overhead " << overhead << " would make tasks last less than nothing\n";
    return 2;
  }

  auto* zone = sg4::create_full_zone("renderfarm");
  std::vector<std::shared_ptr<SimulatedRun>> runs;
  struct Worker {
    sg4::Host* host;
    std::shared_ptr<SimulatedRun> run;
    std::uint32_t pool;
  };
  std::vector<Worker> workers;
  for (FrameSchedule schedule : schedules) {
    FrameChainSpec s = spec;
    s.schedule = schedule;
    auto run = std::make_shared<SimulatedRun>();
    run->graph = frame_chain(s);
    if (auto err = task_graph_error(run->graph)) {
      std::cerr << "renderfarm_sim: " << *err << '\n';
      return 1;
    }
    run->overhead = overhead;
    run->wake_up = wake_up;
    run->next = successors(run->graph);
    run->ready.resize(run->graph.pools.size());
    for (std::size_t i = 0; i < run->graph.tasks.size(); ++i) {
      run->waiting.push_back(run->graph.tasks[i].predecessors.size());
      if (run->waiting.back() == 0) run->ready[run->graph.tasks[i].pool].push_back(i);
    }
    for (std::uint32_t p = 0; p < run->graph.pools.size(); ++p) {
      run->wake.push_back(sg4::ConditionVariable::create());
      for (std::uint32_t w = 0; w < run->graph.pools[p].workers; ++w) {
        const std::string name = std::string(frame_schedule_name(schedule)) + "-" + run->graph.pools[p].name + "-" +
                                 std::to_string(w);
        auto* host = zone->create_host(name, kHostSpeed);
        host->seal();
        workers.push_back({host, run, p});
      }
    }
    runs.push_back(run);
  }
  zone->seal();
  for (const auto& w : workers) sg4::Actor::create(w.host->get_name(), w.host, worker, w.run, w.pool);
  engine.run();

  std::cout << "schedule,frames,elements,element_workers,unit_s,task_overhead_s,wake_up_s,simulated_s\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& run = *runs[i];
    if (run.finished != run.graph.tasks.size()) {
      std::cerr << "renderfarm_sim: " << frame_schedule_name(schedules[i]) << ": only " << run.finished << " of "
                << run.graph.tasks.size() << " tasks ran\n";
      return 1;
    }
    std::cout << frame_schedule_name(schedules[i]) << ',' << spec.frames << ',' << spec.elements << ','
              << (schedules[i] == FrameSchedule::kSerial ? 1 : spec.element_workers) << ','
              << number(spec.element_seconds) << ',' << number(overhead) << ',' << number(wake_up) << ','
              << number(run.makespan) << '\n';
  }
  return 0;
}
