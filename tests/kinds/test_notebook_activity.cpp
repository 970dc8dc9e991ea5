// A notebook's activity drawn from its pattern, and the holds an idle
// timeout cuts it into, counted by hand.
#include "workloads/kinds/notebook/notebook_activity.hpp"

#include <gtest/gtest.h>

namespace gcsim {
namespace {

TEST(NotebookActivity, ADrawnSessionLastsItsLengthAndIsBusyAboutItsShare) {
  const NotebookPattern pattern{.length = 1e7, .busy_fraction = 0.2, .burst = 600, .seed = 3};
  const std::vector<NotebookPhase> activity = draw_activity(pattern);
  Time total = 0, busy = 0;
  for (const NotebookPhase& phase : activity) total += phase.idle + phase.busy, busy += phase.busy;
  EXPECT_NEAR(total, 1e7, 1e-3);
  // About 3,333 bursts: the busy share within a few per cent of 0.2.
  EXPECT_NEAR(busy / total, 0.2, 0.01);
  EXPECT_NEAR(static_cast<double>(activity.size()), 1e7 * 0.2 / 600, 200);
  // The same seed draws the same session; another seed another.
  const std::vector<NotebookPhase> again = draw_activity(pattern);
  ASSERT_EQ(again.size(), activity.size());
  EXPECT_EQ(again[7].busy, activity[7].busy);
  EXPECT_NE(draw_activity({.length = 1e7, .busy_fraction = 0.2, .burst = 600, .seed = 4})[0].busy, activity[0].busy);
}

TEST(NotebookActivity, AnIdleTimeoutEndsAHoldAfterEachLongerGap) {
  // Idle 600, busy 300; idle 1200 (> 900), busy 600; idle 300.
  const std::vector<NotebookPhase> activity = {{600, 300}, {1200, 600}, {300, 0}};
  const std::vector<NotebookHold> holds = split_at_idle_timeout(activity, 900);
  ASSERT_EQ(holds.size(), 2u);
  // The first keeps the GPUs 900 s after its burst, then releases them.
  ASSERT_EQ(holds[0].activity.size(), 2u);
  EXPECT_EQ(holds[0].activity[1].idle, 900);
  EXPECT_EQ(holds[0].activity[1].busy, 0);
  // The second is submitted 300 s later and starts with the burst.
  EXPECT_EQ(holds[1].after_previous, 300);
  EXPECT_EQ(holds[1].activity[0].idle, 0);
  EXPECT_EQ(holds[1].activity[0].busy, 600);
  EXPECT_EQ(holds[1].activity[1].idle, 300);
  // No gap longer than the timeout, or no timeout: one hold.
  EXPECT_EQ(split_at_idle_timeout(activity, 1200).size(), 1u);
  EXPECT_EQ(split_at_idle_timeout(activity, 0).size(), 1u);
}

}  // namespace
}  // namespace gcsim
