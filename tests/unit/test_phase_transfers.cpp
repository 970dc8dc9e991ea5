// What makes a PhasedWork wrong, and what a phase costs alone, counted by
// hand (sim/model/phase_transfers.hpp).
#include <gtest/gtest.h>

#include <vector>

#include "sim/model/phase_transfers.hpp"

namespace gcsim {
namespace {

TEST(PhasedWorkProblem, GroupsMustTileTheRanksAndAJobRunsAnIteration) {
  PhasedWork work;
  work.phases = {{0, {{Exchange::kRingStep, {4, 2}, 1e6, 1}}}};
  EXPECT_FALSE(phased_work_problem(work, 8));
  EXPECT_FALSE(phased_work_problem(work, 16));
  ASSERT_TRUE(phased_work_problem(work, 12));
  EXPECT_NE(phased_work_problem(work, 12)->find("do not tile 12 ranks"), std::string::npos);
  work.phases[0].exchanges[0].groups = {0, 1};
  EXPECT_TRUE(phased_work_problem(work, 8));
  work.phases[0].exchanges[0].groups = {4, 2};
  work.iterations = 0;
  EXPECT_TRUE(phased_work_problem(work, 8));
}

TEST(PhaseExchangeSeconds, TheBusiestLinkCarriesEveryMessageAfterTheLargestLatencies) {
  // 4 ranks on 2 nodes of 2 (ports 1e11 B/s, NICs 1e9 B/s): a ring step
  // among {0, 2} and {1, 3} sends 2 transfers up each NIC. 3 messages of
  // 1e8 bytes: each NIC carries 2 x 3e8 bytes, 0.6 s; 3 messages of 1e-3 s.
  const JobLinks links = packed_job_links(4, 2, 2, 1e11, 1e9, 1e9);
  WorkPhase phase;
  phase.exchanges = {{Exchange::kRingStep, {2, 2}, 1e8, 3}};
  const std::vector<std::vector<Transfer>> transfers = {exchange_transfers(phase.exchanges[0], 4)};
  EXPECT_NEAR(phase_exchange_seconds(phase, transfers, {1e-3}, links), 0.6 + 3e-3, 1e-12);
}

TEST(PhaseExchangeSeconds, ABroadcastsMessagesPayALatencyAHop) {
  // 4 ranks, one a node (NICs 1e9 B/s): a broadcast among the 4 sends 0->1,
  // 1->2, 2->3, each on NICs of its own. 2 messages of 1e8 bytes: 0.2 s on
  // each NIC, and each message 3 hops of 1e-3 s.
  const JobLinks links = packed_job_links(4, 1, 4, 1e11, 1e9, 1e9);
  WorkPhase phase;
  phase.exchanges = {{Exchange::kBroadcast, {4, 1}, 1e8, 2}};
  const std::vector<std::vector<Transfer>> transfers = {exchange_transfers(phase.exchanges[0], 4)};
  EXPECT_NEAR(phase_exchange_seconds(phase, transfers, {1e-3}, links), 0.2 + 2 * 3e-3, 1e-12);
}

}  // namespace
}  // namespace gcsim
