// Specification of the render farm's frame chain and its list schedule:
// 10 frames x 3 elements of 1-unit tasks take 40 units on one worker, 20 with
// the elements in parallel, and 11 when the render of frame n-1 also
// overlaps the elements of frame n; invalid graphs are named.
#include "real/renderfarm/task_graph.hpp"

#include <gtest/gtest.h>

namespace gcsim::real {
namespace {

FrameChainSpec unit_chain(FrameSchedule schedule, std::uint32_t workers = 3) {
  return FrameChainSpec{10, 3, 1.0, 1.0, schedule, workers};
}

std::size_t index_of(const TaskGraph& g, const std::string& name) {
  for (std::size_t i = 0; i < g.tasks.size(); ++i)
    if (g.tasks[i].name == name) return i;
  ADD_FAILURE() << "no task " << name;
  return 0;
}

TEST(FrameChain, HasFramesTimesElementsPlusOneTasks) {
  const TaskGraph g = frame_chain(unit_chain(FrameSchedule::kPipelined));
  EXPECT_EQ(g.tasks.size(), 40u);
  EXPECT_FALSE(task_graph_error(g));
}

TEST(FrameChain, ElementsWaitForEveryElementOfThePreviousFrame) {
  const TaskGraph g = frame_chain(unit_chain(FrameSchedule::kPipelined));
  const Task& t = g.tasks[index_of(g, "f4.e1")];
  EXPECT_EQ(t.predecessors,
            (std::vector<std::size_t>{index_of(g, "f3.e0"), index_of(g, "f3.e1"), index_of(g, "f3.e2")}));
}

TEST(FrameChain, RenderWaitsForItsElementsAndThePreviousRender) {
  const TaskGraph g = frame_chain(unit_chain(FrameSchedule::kPipelined));
  const Task& t = g.tasks[index_of(g, "f4.render")];
  EXPECT_EQ(t.predecessors, (std::vector<std::size_t>{index_of(g, "f4.e0"), index_of(g, "f4.e1"), index_of(g, "f4.e2"),
                                                      index_of(g, "f3.render")}));
}

TEST(FrameChain, SerialRunsFortyUnits) {
  EXPECT_DOUBLE_EQ(list_schedule(frame_chain(unit_chain(FrameSchedule::kSerial))).makespan, 40.0);
}

TEST(FrameChain, ParallelElementsWithoutOverlapRunTwentyUnits) {
  EXPECT_DOUBLE_EQ(list_schedule(frame_chain(unit_chain(FrameSchedule::kParallel))).makespan, 20.0);
}

TEST(FrameChain, PipelinedRunsElevenUnits) {
  EXPECT_DOUBLE_EQ(list_schedule(frame_chain(unit_chain(FrameSchedule::kPipelined))).makespan, 11.0);
}

TEST(FrameChain, PipelinedRendersFrameNMinusOneWhileComputingFrameN) {
  const TaskGraph g = frame_chain(unit_chain(FrameSchedule::kPipelined));
  const ScheduleResult r = list_schedule(g);
  for (int f = 1; f < 10; ++f) {
    const auto render = r.tasks[index_of(g, "f" + std::to_string(f - 1) + ".render")];
    const auto element = r.tasks[index_of(g, "f" + std::to_string(f) + ".e0")];
    EXPECT_DOUBLE_EQ(render.start, f);
    EXPECT_DOUBLE_EQ(element.start, f);
  }
}

TEST(FrameChain, FewerElementWorkersStretchEachFrame) {
  // Three 1-unit elements on two workers take 2 units a frame: 10 x 2 + the last render.
  EXPECT_DOUBLE_EQ(list_schedule(frame_chain(unit_chain(FrameSchedule::kPipelined, 2))).makespan, 21.0);
  EXPECT_DOUBLE_EQ(list_schedule(frame_chain(unit_chain(FrameSchedule::kPipelined, 1))).makespan, 31.0);
}

TEST(FrameChain, SlowRenderBecomesTheBottleneck) {
  FrameChainSpec spec = unit_chain(FrameSchedule::kPipelined);
  spec.render_seconds = 2;
  // The renderer is busy from t=1 for 10 renders of 2 units.
  EXPECT_DOUBLE_EQ(list_schedule(frame_chain(spec)).makespan, 21.0);
}

TEST(ListSchedule, PerTaskOverheadLengthensEveryTask) {
  EXPECT_DOUBLE_EQ(list_schedule(frame_chain(unit_chain(FrameSchedule::kSerial)), 0.5).makespan, 60.0);
}

TEST(ListSchedule, AChainRunsItsTasksBackToBack) {
  EXPECT_DOUBLE_EQ(list_schedule(task_chain(20, 0.25)).makespan, 5.0);
}

TEST(ListSchedule, AWorkerThatGoesOnFromItsOwnTaskNeverWaitsToWakeUp) {
  EXPECT_DOUBLE_EQ(list_schedule(task_chain(20, 0.25), 0, 0.5).makespan, 5.0);
  EXPECT_DOUBLE_EQ(list_schedule(frame_chain(unit_chain(FrameSchedule::kSerial)), 0, 0.5).makespan, 40.0);
}

TEST(ListSchedule, EveryHandOverBetweenTwoWorkersWaitsForAWakeUp) {
  EXPECT_DOUBLE_EQ(list_schedule(alternating_chain(5, 1.0), 0, 0.5).makespan, 5 + 4 * 0.5);
}

TEST(ListSchedule, PipelinedFrameChainWaitsForTenWakeUps) {
  // Each frame after the first: two of its element workers and the renderer
  // were waiting; the critical path crosses one wake-up per frame, and the
  // last render one more.
  EXPECT_DOUBLE_EQ(list_schedule(frame_chain(unit_chain(FrameSchedule::kPipelined)), 0, 0.5).makespan, 11 + 10 * 0.5);
}

TEST(ListSchedule, ParallelFrameChainWaitsForTwoWakeUpsAFrame) {
  // Renderer and element workers hand over twice a frame; the first frame's elements start at once.
  EXPECT_DOUBLE_EQ(list_schedule(frame_chain(unit_chain(FrameSchedule::kParallel)), 0, 0.5).makespan, 20 + 19 * 0.5);
}

TEST(TaskGraphError, NamesTheTasksOfACycle) {
  TaskGraph g;
  g.pools.push_back({"w", 1});
  g.tasks = {{"a", 0, 1, {2}}, {"b", 0, 1, {0}}, {"c", 0, 1, {1}}};
  const auto err = task_graph_error(g);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("cycle"), std::string::npos) << *err;
  for (const char* name : {"a", "b", "c"}) EXPECT_NE(err->find(name), std::string::npos) << *err;
}

TEST(TaskGraphError, ATaskWaitingForItselfIsACycle) {
  TaskGraph g;
  g.pools.push_back({"w", 1});
  g.tasks = {{"self", 0, 1, {0}}};
  ASSERT_TRUE(task_graph_error(g));
}

TEST(TaskGraphError, NamesAnUnknownPredecessorOrPoolAndAnEmptyPool) {
  TaskGraph g;
  g.pools.push_back({"w", 1});
  g.tasks = {{"a", 0, 1, {7}}};
  EXPECT_NE(task_graph_error(g)->find("depends on task 7"), std::string::npos);
  g.tasks = {{"a", 3, 1, {}}};
  EXPECT_NE(task_graph_error(g)->find("pool 3"), std::string::npos);
  g.tasks = {{"a", 0, 1, {}}};
  g.pools[0].workers = 0;
  EXPECT_NE(task_graph_error(g)->find("no worker"), std::string::npos);
}

TEST(FrameSchedule, NamesRoundTrip) {
  for (auto s : {FrameSchedule::kSerial, FrameSchedule::kParallel, FrameSchedule::kPipelined})
    EXPECT_EQ(parse_frame_schedule(frame_schedule_name(s)), s);
  EXPECT_FALSE(parse_frame_schedule("overlapped"));
}

}  // namespace
}  // namespace gcsim::real
