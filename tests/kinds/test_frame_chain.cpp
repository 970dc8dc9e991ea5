// The frame chain as DAG work, and the list schedule's makespans of it.
#include <gtest/gtest.h>

#include "sim/core/dag_work.hpp"
#include "sim/model/dag_schedule.hpp"
#include "workloads/kinds/dag/frame_chain.hpp"

namespace gcsim {
namespace {

FrameChain chain(FrameChainSchedule schedule) {
  FrameChain c;
  c.schedule = schedule;
  return c;  // 10 frames x 3 elements, 1 s tasks
}

TEST(FrameChainWork, HandCountsOfTheThreeSchedules) {
  // 10 x (3 + 1) = 40; 2 x 10 = 20; 10 + 1 = 11 (GPU speed is irrelevant: tasks are in seconds).
  EXPECT_DOUBLE_EQ(dag_list_schedule_seconds(frame_chain_work(chain(FrameChainSchedule::kSerial)), 1e12), 40);
  EXPECT_DOUBLE_EQ(dag_list_schedule_seconds(frame_chain_work(chain(FrameChainSchedule::kParallel)), 1e12), 20);
  EXPECT_DOUBLE_EQ(dag_list_schedule_seconds(frame_chain_work(chain(FrameChainSchedule::kPipelined)), 1e12), 11);
}

TEST(FrameChainWork, TasksAndPoolsAsTheRealRenderFarmListsThem) {
  const DagWork work = frame_chain_work(chain(FrameChainSchedule::kPipelined));
  EXPECT_FALSE(dag_error(work));
  ASSERT_EQ(work.tasks.size(), 40u);
  EXPECT_EQ(work.tasks[0].id, "f0.e0");
  EXPECT_EQ(work.tasks[3].id, "f0.render");
  EXPECT_EQ(work.tasks[39].id, "f9.render");
  ASSERT_EQ(work.pools.size(), 2u);
  EXPECT_EQ(work.pools[0].workers, 3u);
  EXPECT_EQ(work.pools[1].workers, 1u);
  // Element 0 of frame 1 needs the three elements of frame 0 only (pipelined).
  ASSERT_EQ(work.tasks[4].after.size(), 3u);
  // Render 1 needs frame 1's elements and render 0.
  ASSERT_EQ(work.tasks[7].after.size(), 4u);
  EXPECT_EQ(work.tasks[7].after.back().task, 3u);
  // Parallel: elements of frame 1 also wait for render 0.
  EXPECT_EQ(frame_chain_work(chain(FrameChainSchedule::kParallel)).tasks[4].after.size(), 4u);
  EXPECT_EQ(dag_gpu_workers(frame_chain_work(chain(FrameChainSchedule::kSerial))), 1u);
}

TEST(FrameChainWork, FewerElementWorkersThanElements) {
  // 2 workers for 3 elements: each frame's elements take 2 rounds. Pipelined,
  // elements of frame n start when frame n-1's are done: frames end at 2, 4,
  // ..., 20; render 9 then ends at 21.
  FrameChain c = chain(FrameChainSchedule::kPipelined);
  c.element_workers = 2;
  EXPECT_DOUBLE_EQ(dag_list_schedule_seconds(frame_chain_work(c), 1e12), 21);
}

TEST(DagSchedule, OverheadWakeUpAndFlops) {
  // Chain of 3 on one worker: 3 x (1 + 0.5 + 0.25) with 1e12 FLOPs at 2e12 FLOP/s and 0.25 s overhead.
  DagWork chain3;
  chain3.pools.push_back({"w", 1, false});
  chain3.task_overhead = 0.25;
  for (std::size_t i = 0; i < 3; ++i) {
    DagTask t{"t" + std::to_string(i), 0, 1.0, 1e12, {}};
    if (i > 0) t.after.push_back({i - 1, 0});
    chain3.tasks.push_back(t);
  }
  EXPECT_DOUBLE_EQ(dag_list_schedule_seconds(chain3, 2e12), 5.25);
  // The same chain alternating between two single-worker pools: every task but
  // the first finds its worker waiting, which wakes 0.1 s late.
  DagWork alternating = chain3;
  alternating.pools.push_back({"v", 1, false});
  alternating.tasks[1].pool = 1;
  alternating.wake_up = 0.1;
  EXPECT_DOUBLE_EQ(dag_list_schedule_seconds(alternating, 2e12), 5.25 + 0.2);
}

}  // namespace
}  // namespace gcsim
