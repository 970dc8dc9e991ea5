// renderfarm: runs the render farm's frame chain (task_graph.hpp) for real
// with threads, under each schedule, and prints one CSV row per schedule
// beside the list schedule's makespan.
//
//   renderfarm --frames 10 --elements 3 --unit 0.05 --schedules serial,pipelined --repeat 3
//
// Columns: schedule,frames,elements,element_workers,work,unit_s,task_overhead_s,wake_up_s,
// repeats,makespan_median_s,makespan_min_s,makespan_max_s,list_schedule_s,list_schedule_units
// where task_overhead_s and wake_up_s are what the executor adds to each
// task and to each task a waiting worker takes (measured before the runs,
// dag_executor.hpp), list_schedule_s the list schedule with these, and
// list_schedule_units the list schedule of 1-unit tasks (the hand count).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "real/renderfarm/dag_executor.hpp"
#include "real/renderfarm/task_graph.hpp"
#include "real/sample_median.hpp"

namespace {

using namespace gcsim::real;

const char* const kUsage =
    "usage: renderfarm [options]\n"
    "  --frames F               frames (default 10)\n"
    "  --elements E             elements per frame (default 3)\n"
    "  --element-workers W      element workers of the parallel schedules (default E)\n"
    "  --unit SECONDS           duration of an element task (default 0.05)\n"
    "  --render-unit SECONDS    duration of a render task (default: --unit)\n"
    "  --schedules LIST         serial,parallel,pipelined (default: all three)\n"
    "  --work sleep|spin        what a task does (default sleep)\n"
    "  --repeat R               runs per schedule, and of each overhead chain; medians are used (default 3)\n"
    "  --overhead-tasks N       tasks in the chains that measure the executor overhead (default 20; 0: none)\n"
    "  --csv FILE               append rows to FILE, with a header when it is new (default: stdout)\n";

double parse_number(const std::string& flag, const std::string& text, double min) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= min))
    throw std::invalid_argument(flag + ": expected a number >= " + std::to_string(min) + ", got '" + text + "'");
  return v;
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  FrameChainSpec spec;
  bool workers_given = false, render_given = false;
  std::vector<FrameSchedule> schedules{FrameSchedule::kSerial, FrameSchedule::kParallel, FrameSchedule::kPipelined};
  TaskWork work = TaskWork::kSleep;
  int repeat = 3;
  int overhead_tasks = 20;
  std::string csv;
  spec.element_seconds = 0.05;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--help") {
        std::cout << kUsage;
        return 0;
      }
      if (i + 1 >= argc) throw std::invalid_argument(flag + ": missing value");
      const std::string value = argv[++i];
      if (flag == "--frames")
        spec.frames = static_cast<std::uint32_t>(parse_number(flag, value, 1));
      else if (flag == "--elements")
        spec.elements = static_cast<std::uint32_t>(parse_number(flag, value, 1));
      else if (flag == "--element-workers") {
        spec.element_workers = static_cast<std::uint32_t>(parse_number(flag, value, 1));
        workers_given = true;
      } else if (flag == "--unit")
        spec.element_seconds = parse_number(flag, value, 0);
      else if (flag == "--render-unit") {
        spec.render_seconds = parse_number(flag, value, 0);
        render_given = true;
      } else if (flag == "--schedules") {
        schedules.clear();
        std::stringstream list(value);
        for (std::string item; std::getline(list, item, ',');) {
          const auto s = parse_frame_schedule(item);
          if (!s)
            throw std::invalid_argument("--schedules: unknown schedule '" + item + "' (serial, parallel, pipelined)");
          schedules.push_back(*s);
        }
      } else if (flag == "--work") {
        if (value != "sleep" && value != "spin")
          throw std::invalid_argument("--work: expected sleep or spin, got '" + value + "'");
        work = value == "sleep" ? TaskWork::kSleep : TaskWork::kSpin;
      } else if (flag == "--repeat")
        repeat = static_cast<int>(parse_number(flag, value, 1));
      else if (flag == "--overhead-tasks") {
        overhead_tasks = static_cast<int>(parse_number(flag, value, 0));
        if (overhead_tasks == 1) throw std::invalid_argument("--overhead-tasks: 0 or at least 2");
      } else if (flag == "--csv")
        csv = value;
      else
        throw std::invalid_argument("unknown option '" + flag + "'");
    }
  } catch (const std::exception& e) {
    std::cerr << "renderfarm: " << e.what() << "\n\n" << kUsage;
    return 2;
  }
  if (!workers_given) spec.element_workers = spec.elements;
  if (!render_given) spec.render_seconds = spec.element_seconds;

  const SpinCalibration calibration = work == TaskWork::kSpin ? calibrate_spin(0.3) : SpinCalibration{};
  const ExecutorOverhead overhead =
      overhead_tasks > 0
          ? measure_executor_overhead(work, calibration, spec.element_seconds, static_cast<std::size_t>(overhead_tasks),
                                      static_cast<std::size_t>(repeat))
          : ExecutorOverhead{};
  std::cerr << "renderfarm: " << spec.frames << " frames x " << spec.elements << " elements, " << spec.element_seconds
            << " s tasks (" << (work == TaskWork::kSleep ? "sleep" : "spin") << "), executor overhead "
            << overhead.per_task * 1e6 << " us per task, " << overhead.wake_up * 1e6 << " us per wake-up\n";

  std::ostringstream text;
  bool header = true;
  if (!csv.empty()) {
    std::ifstream existing(csv);
    header = !existing || existing.peek() == std::ifstream::traits_type::eof();
  }
  if (header)
    text << "schedule,frames,elements,element_workers,work,unit_s,task_overhead_s,wake_up_s,repeats,"
            "makespan_median_s,makespan_min_s,makespan_max_s,list_schedule_s,list_schedule_units\n";
  for (FrameSchedule schedule : schedules) {
    FrameChainSpec s = spec;
    s.schedule = schedule;
    const TaskGraph graph = frame_chain(s);
    FrameChainSpec unit = s;
    unit.element_seconds = unit.render_seconds = 1;
    const double units = list_schedule(frame_chain(unit)).makespan;
    const double predicted = list_schedule(graph, overhead.per_task, overhead.wake_up).makespan;
    std::vector<double> makespans;
    for (int r = 0; r < repeat; ++r) makespans.push_back(run_task_graph(graph, work, calibration).makespan);
    std::sort(makespans.begin(), makespans.end());  // min and max are written too
    const std::size_t n = makespans.size();
    const double med = median(makespans);
    std::cerr << "  " << frame_schedule_name(schedule) << ": measured " << med << " s (median of " << n
              << "), list schedule " << predicted << " s, " << units << " units\n";
    text << frame_schedule_name(schedule) << ',' << s.frames << ',' << s.elements << ','
         << (schedule == FrameSchedule::kSerial ? 1 : s.element_workers) << ','
         << (work == TaskWork::kSleep ? "sleep" : "spin") << ',' << number(s.element_seconds) << ','
         << number(overhead.per_task) << ',' << number(overhead.wake_up) << ',' << n << ',' << number(med) << ','
         << number(makespans.front()) << ',' << number(makespans.back()) << ',' << number(predicted) << ','
         << number(units) << '\n';
  }
  if (csv.empty()) {
    std::cout << text.str();
  } else {
    std::ofstream out(csv, std::ios::app);
    out << text.str();
    if (!out) {
      std::cerr << "renderfarm: cannot write " << csv << '\n';
      return 1;
    }
  }
  return 0;
}
