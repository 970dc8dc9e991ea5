// What a preempted run keeps and loses, and what its checkpoints cost.
#include <gtest/gtest.h>

#include <ostream>

#include "sim/model/checkpoint_model.hpp"

namespace gcsim {
namespace {

struct PreemptionCase {
  const char* name;
  CheckpointSpec checkpoint;
  Time work_seconds, elapsed;
  Time kept, lost;
};

void PrintTo(const PreemptionCase& c, std::ostream* os) { *os << c.name; }

class PreemptionProgress : public ::testing::TestWithParam<PreemptionCase> {};

TEST_P(PreemptionProgress, KeepsWorkUpToTheLastCheckpoint) {
  const PreemptionCase& c = GetParam();
  const RunProgress p = progress_at_preemption(c.checkpoint, c.work_seconds, c.elapsed);
  EXPECT_NEAR(p.kept_work_seconds, c.kept, 1e-9);
  EXPECT_NEAR(p.lost_seconds, c.lost, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PreemptionProgress,
    ::testing::Values(
        // No checkpoints: everything since the start is lost.
        PreemptionCase{"no_checkpoints", {0, 0, 0}, 3600, 1000, 0, 1000},
        // Every 300 s of work, free: at 1000 s the last checkpoint was at 900 s.
        PreemptionCase{"free_checkpoints", {300, 0, 0}, 3600, 1000, 900, 100},
        // 30 s per checkpoint: work advances at 300/330 of wall time; 1000 s of
        // wall time is 909.09 s of work, three checkpoints (990 s of wall) kept.
        PreemptionCase{"costly_checkpoints", {300, 30, 0}, 3600, 1000, 900, 10},
        // Before the first checkpoint nothing is kept.
        PreemptionCase{"before_first_checkpoint", {300, 0, 0}, 3600, 299, 0, 299},
        // No checkpoint at the very end of the work: a 600 s run keeps 300 s at most.
        PreemptionCase{"at_the_end", {300, 0, 0}, 600, 600, 300, 300},
        // Saving at preemption, free: all 1000 s of work kept.
        PreemptionCase{"at_preemption_free", {0, 0, 0, true}, 3600, 1000, 1000, 0},
        // A 40 s save takes the last 40 s: the work up to 960 s is kept.
        PreemptionCase{"at_preemption_costly", {0, 40, 0, true}, 3600, 1000, 960, 40},
        // Stopped during its save's time: nothing kept, all lost.
        PreemptionCase{"at_preemption_too_soon", {0, 40, 0, true}, 3600, 30, 0, 30},
        // Both, work at 300/330 of wall time: at 1100 s the periodic checkpoints
        // kept 900 s of work, the save begun at 1070 s keeps 1070/1.1 s of it.
        PreemptionCase{"periodic_then_at_preemption", {300, 30, 0, true}, 3600, 1100, 1070 / 1.1, 30},
        // At 1000 s the save would begin at 970 s (881.8 s of work), before the
        // periodic checkpoint of 900 s ended (990 s): that one is kept.
        PreemptionCase{"periodic_beats_at_preemption", {300, 30, 0, true}, 3600, 1000, 900, 10},
        // Its work cannot exceed the run's.
        PreemptionCase{"at_preemption_past_the_end", {0, 0, 0, true}, 600, 700, 600, 100}),
    [](const ::testing::TestParamInfo<PreemptionCase>& info) { return std::string(info.param.name); });

TEST(CheckpointOverhead, OneSaveCostPerCheckpointBeforeTheEnd) {
  EXPECT_DOUBLE_EQ(checkpoint_count({300, 10, 0}, 1000), 3);  // at 300, 600, 900
  EXPECT_DOUBLE_EQ(checkpoint_count({300, 10, 0}, 900), 2);   // at 300, 600; 900 is the end
  EXPECT_DOUBLE_EQ(checkpoint_overhead({300, 10, 0}, 1000), 30);
  EXPECT_DOUBLE_EQ(checkpoint_overhead({0, 10, 0}, 1000), 0);
}

}  // namespace
}  // namespace gcsim
