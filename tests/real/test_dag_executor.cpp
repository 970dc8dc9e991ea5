// Specification of the threaded DAG executor: it runs every task once,
// never before its predecessors have finished, never more tasks of a pool at
// once than the pool has workers, and overlaps what the schedule allows.
// Tasks sleep a few milliseconds, so the bounds below leave room for a
// loaded machine.
#include "real/renderfarm/dag_executor.hpp"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

namespace gcsim::real {
namespace {

constexpr double kUnit = 0.004;

TEST(DagExecutor, NoTaskStartsBeforeItsPredecessorsEnd) {
  const TaskGraph g = frame_chain({5, 3, kUnit, kUnit, FrameSchedule::kPipelined, 3});
  const ScheduleResult r = run_task_graph(g, TaskWork::kSleep, {});
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    EXPECT_GE(r.tasks[i].end - r.tasks[i].start, kUnit) << g.tasks[i].name;
    for (std::size_t p : g.tasks[i].predecessors)
      EXPECT_GE(r.tasks[i].start, r.tasks[p].end) << g.tasks[i].name << " after " << g.tasks[p].name;
  }
}

TEST(DagExecutor, APoolRunsAtMostItsWorkersAtOnce) {
  const TaskGraph g = frame_chain({4, 5, kUnit, kUnit, FrameSchedule::kPipelined, 2});
  const ScheduleResult r = run_task_graph(g, TaskWork::kSleep, {});
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    int overlapping = 0;
    for (std::size_t j = 0; j < g.tasks.size(); ++j)
      if (g.tasks[j].pool == g.tasks[i].pool && r.tasks[j].start <= r.tasks[i].start &&
          r.tasks[i].start < r.tasks[j].end)
        ++overlapping;
    EXPECT_LE(overlapping, static_cast<int>(g.pools[g.tasks[i].pool].workers)) << g.tasks[i].name;
  }
}

TEST(DagExecutor, PipelinedFrameChainBeatsSerialByTheScheduleRatio) {
  const auto serial =
      run_task_graph(frame_chain({10, 3, kUnit, kUnit, FrameSchedule::kSerial, 3}), TaskWork::kSleep, {});
  const auto pipelined =
      run_task_graph(frame_chain({10, 3, kUnit, kUnit, FrameSchedule::kPipelined, 3}), TaskWork::kSleep, {});
  EXPECT_GE(serial.makespan, 40 * kUnit);
  EXPECT_GE(pipelined.makespan, 11 * kUnit);
  EXPECT_LT(pipelined.makespan, 0.6 * serial.makespan) << "11/40 of the serial time plus overheads";
}

TEST(DagExecutor, SpinningTasksTakeAboutTheirCalibratedTime) {
  const SpinCalibration spin = calibrate_spin(0.05);
  ASSERT_GT(spin.iterations_per_second, 0);
  const ScheduleResult r = run_task_graph(task_chain(3, 0.02), TaskWork::kSpin, spin);
  EXPECT_GE(r.makespan, 0.03) << "well below 3 x 20 ms: the calibration is off";
}

TEST(DagExecutor, OverheadOfASleepingTaskIsSmallAndNotNegative) {
  const ExecutorOverhead overhead = measure_executor_overhead(TaskWork::kSleep, {}, kUnit, 10);
  EXPECT_GE(overhead.per_task, 0.0);
  EXPECT_LT(overhead.per_task, 0.01) << "sleeping 4 ms should not cost another 10";
  EXPECT_GE(overhead.wake_up, 0.0);
  EXPECT_LT(overhead.wake_up, 0.01);
}

}  // namespace
}  // namespace gcsim::real
