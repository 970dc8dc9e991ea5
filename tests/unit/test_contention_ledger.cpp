// The contention ledger on steps whose flows, links and ends are given, the
// losses and their split counted by hand.
#include "sim/report/contention_ledger.hpp"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

namespace gcsim {
namespace {

using Row = std::tuple<JobIndex, JobIndex, std::uint32_t>;

std::map<Row, ContentionShare> rows_of(const ContentionReport& report) {
  std::map<Row, ContentionShare> rows;
  for (const ContentionShare& share : report.shares) rows[{share.job, share.other, share.link}] = share;
  return rows;
}

double lost_in_rows(const ContentionReport& report, JobIndex job) {
  double lost = 0;
  for (const ContentionShare& share : report.shares)
    if (share.job == job) lost += share.lost_seconds;
  return lost;
}

ContentionStep step(JobIndex job, Time start, std::vector<ContentionFlow> flows, bool complete = true) {
  return {job, start, complete, std::move(flows)};
}

// Two jobs' flows of 1 GB cross one link of 1 GB/s: each gets half of it
// and ends at 2 s, 1 s after it would alone, all of it lost on that link to
// the other job.
TEST(ContentionLedger, TwoFlowsSharingALinkEachLoseHalfTheirTimeToTheOther) {
  ContentionLedger ledger(2, 1.0, 1.0);
  const std::uint32_t shared = ledger.add_link("shared", 1e9);
  const std::uint32_t own_a = ledger.add_link("a", 1e9), own_b = ledger.add_link("b", 1e9);
  ledger.add_step(step(0, 0, {{{own_a, shared}, 0, 1e9, 2.0}}));
  ledger.add_step(step(1, 0, {{{own_b, shared}, 0, 1e9, 2.0}}));
  const ContentionReport report = ledger.finish();
  const auto rows = rows_of(report);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(rows.at({0, 1, shared}).lost_seconds, 1.0);
  EXPECT_DOUBLE_EQ(rows.at({0, 1, shared}).shared_seconds, 2.0);
  EXPECT_DOUBLE_EQ(rows.at({1, 0, shared}).lost_seconds, 1.0);
  EXPECT_DOUBLE_EQ(report.jobs[0].communication_seconds, 2.0);
  EXPECT_DOUBLE_EQ(report.jobs[0].alone_seconds, 1.0);
  EXPECT_DOUBLE_EQ(report.jobs[0].lost_seconds, 1.0);
  ASSERT_EQ(report.most_lost.size(), 1u);
  EXPECT_EQ(report.links[report.most_lost[0].link].name, "shared");
  EXPECT_DOUBLE_EQ(report.most_lost[0].lost_seconds, 2.0);
}

// A 4 s step of a job whose 1 GB flow would take 1 s alone, on a link where
// one flow of B and two of C run throughout: B's weight 1/4 x 4 s, C's
// 2/4 x 4 s, so of its 3 s lost, B takes 1 s and C 2 s.
TEST(ContentionLedger, ALossSplitsOverOtherJobsInProportionToTheirFlowsOnTheLink) {
  ContentionLedger ledger(3, 1.0, 1.0);
  const std::uint32_t link = ledger.add_link("l", 1e9);
  ledger.add_step(step(0, 0, {{{link}, 0, 1e9, 4.0}}));
  ledger.add_step(step(1, 0, {{{link}, 0, 1e9, 4.0}}));
  ledger.add_step(step(2, 0, {{{link}, 0, 1e9, 4.0}, {{link}, 0, 1e9, 4.0}}));
  const ContentionReport report = ledger.finish();
  const auto rows = rows_of(report);
  EXPECT_DOUBLE_EQ(report.jobs[0].lost_seconds, 3.0);
  EXPECT_DOUBLE_EQ(rows.at({0, 1, link}).lost_seconds, 1.0);
  EXPECT_DOUBLE_EQ(rows.at({0, 2, link}).lost_seconds, 2.0);
  EXPECT_DOUBLE_EQ(lost_in_rows(report, 0), report.jobs[0].lost_seconds);
  // C alone: its two flows of 1 GB on the link take 2 s; of the 2 s it lost,
  // A and B, one flow each (1/4 x 4 s), take 1 s each.
  EXPECT_DOUBLE_EQ(report.jobs[2].alone_seconds, 2.0);
  EXPECT_DOUBLE_EQ(rows.at({2, 0, link}).lost_seconds, 1.0);
  EXPECT_DOUBLE_EQ(rows.at({2, 1, link}).lost_seconds, 1.0);
}

// A's flow crosses its own 1 GB/s link and a 4 GB/s link it shares with B:
// half of the wide link, 2 GB/s, is more than the 1 GB/s A's flow carries
// alone, so the wide link does not hold A back. A step slower than alone
// for another reason has its loss in the row no link explains.
TEST(ContentionLedger, ASharedLinkThatDoesNotHoldTheJobBackTakesNoLoss) {
  ContentionLedger ledger(2, 1.0, 1.0);
  const std::uint32_t narrow = ledger.add_link("narrow", 1e9), wide = ledger.add_link("wide", 4e9);
  ledger.add_step(step(0, 0, {{{narrow, wide}, 0, 1e9, 1.5}}));
  ledger.add_step(step(1, 0, {{{wide}, 0, 1e9, 1.0}}));
  const ContentionReport report = ledger.finish();
  const auto rows = rows_of(report);
  EXPECT_DOUBLE_EQ(rows.at({0, 1, wide}).shared_seconds, 1.0);
  EXPECT_EQ(rows.at({0, 1, wide}).lost_seconds, 0.0);
  EXPECT_DOUBLE_EQ(rows.at({0, kNoJob, ContentionShare::kNoLink}).lost_seconds, 0.5);
  EXPECT_DOUBLE_EQ(lost_in_rows(report, 0), 0.5);
}

// Alone, a step lasts its closed form: latency x factor, then its busiest
// link's bytes. No row, nothing lost.
TEST(ContentionLedger, AStepAsLongAsItsClosedFormAloneLosesNothing) {
  ContentionLedger ledger(1, 0.5, 2.0);
  const std::uint32_t up = ledger.add_link("up", 2e9), down = ledger.add_link("down", 4e9);
  // Two flows of 1 GB cross `up` (2 GB/s x 0.5): 2 s; latency 1e-3 x 2.
  ledger.add_step(step(0, 0, {{{up, down}, 1e-3, 1e9, 2.002}, {{up}, 0.5e-3, 1e9, 2.002}}));
  const ContentionReport report = ledger.finish();
  EXPECT_TRUE(report.shares.empty());
  EXPECT_DOUBLE_EQ(report.jobs[0].alone_seconds, 2.002);
  EXPECT_EQ(report.jobs[0].lost_seconds, 0.0);
  EXPECT_TRUE(report.most_lost.empty());
}

// A step cut by a preemption loses nothing itself, but its flows still
// count for the job whose step it slowed.
TEST(ContentionLedger, ACutStepLosesNothingButCountsForTheOthers) {
  ContentionLedger ledger(2, 1.0, 1.0);
  const std::uint32_t link = ledger.add_link("l", 1e9);
  ledger.add_step(step(0, 0, {{{link}, 0, 1e9, 2.0}}));
  ledger.add_step(step(1, 0, {{{link}, 0, 1e9, 2.0}}, /*complete=*/false));
  const ContentionReport report = ledger.finish();
  const auto rows = rows_of(report);
  EXPECT_DOUBLE_EQ(rows.at({0, 1, link}).lost_seconds, 1.0);
  EXPECT_EQ(rows.at({1, 0, link}).lost_seconds, 0.0);
  EXPECT_DOUBLE_EQ(rows.at({1, 0, link}).shared_seconds, 2.0);
  EXPECT_EQ(report.jobs[1].steps, 0u);
}

// Steps taken as the run goes (advance()) give what they give all at once.
TEST(ContentionLedger, StepsTakenAsTheRunGoesGiveTheSameRows) {
  const auto run = [](bool advancing) {
    ContentionLedger ledger(2, 1.0, 1.0);
    const std::uint32_t link = ledger.add_link("l", 1e9);
    for (int k = 0; k < 3; ++k) {
      ledger.add_step(step(0, 3.0 * k, {{{link}, 0, 1e9, 3.0 * k + 2}}));
      ledger.add_step(step(1, 3.0 * k + 1, {{{link}, 0, 0.5e9, 3.0 * k + 2}}));
      if (advancing) ledger.advance(3.0 * k + 2);
    }
    return ledger.finish();
  };
  const ContentionReport taken = run(true), whole = run(false);
  ASSERT_EQ(taken.shares.size(), whole.shares.size());
  for (std::size_t i = 0; i < taken.shares.size(); ++i) {
    EXPECT_EQ(taken.shares[i].lost_seconds, whole.shares[i].lost_seconds);
    EXPECT_EQ(taken.shares[i].shared_seconds, whole.shares[i].shared_seconds);
  }
  // A alone 1 s, 2 s actual, 1 s shared with B: its loss 1 s a step, all B's.
  EXPECT_DOUBLE_EQ(rows_of(taken).at({0, 1, 0}).lost_seconds, 3.0);
  EXPECT_DOUBLE_EQ(rows_of(taken).at({0, 1, 0}).shared_seconds, 3.0);
}

// A 1 GB flow over 1 s on a 1 GB/s link uses all of it: the bins of the
// first second read 1, the next 0, and the bins hold its bytes.
TEST(ContentionLedger, ALinksUseIsItsFlowsBytesOverItsBandwidthPerBin) {
  ContentionLedger ledger(1, 1.0, 1.0);
  const std::uint32_t link = ledger.add_link("l", 1e9);
  ledger.add_step(step(0, 0, {{{link}, 0, 1e9, 1.0}}));
  const ContentionReport report = ledger.finish();
  // The narrowest power of two of seconds that holds 1 s in 256 bins, with room for its end.
  EXPECT_EQ(report.bin_width, 1.0 / 128);
  EXPECT_EQ(report.bins, 129u);
  ASSERT_EQ(report.busiest.size(), 1u);
  const LinkUse& use = report.busiest[0];
  EXPECT_DOUBLE_EQ(use.busy_seconds, 1.0);
  EXPECT_DOUBLE_EQ(use.used[0], 1.0);
  EXPECT_DOUBLE_EQ(use.used[127], 1.0);
  EXPECT_EQ(use.used[128], 0.0);
}

}  // namespace
}  // namespace gcsim
