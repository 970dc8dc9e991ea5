// Reservations: GPUs booked for one user's jobs in one queue during a window,
// kept free for them and used by them; rejected when they exceed a queue's
// maximum capacity.
#include <gtest/gtest.h>

#include "policies/capacity/reservations.hpp"
#include "sim/core/input_error.hpp"
#include "tests/support/capacity_bench.hpp"

namespace gcsim {
namespace {

using testing::capacity_policy;
using testing::CapacityBench;
using testing::crafted_cluster;
using testing::queued_job;
using Ids = std::vector<std::string>;

// One queue; 4 GPUs booked for alice during [100, 200).
const char* kBooked = R"({"yarn.scheduler.capacity.root.queues": "default",
  "yarn.scheduler.capacity.root.default.capacity": 100,
  "reservations": [{"id": "demo", "queue": "default", "user": "alice", "gpus": 4, "start": 100, "end": 200}]})";

TEST(CapacityReservations, ReservedGpusAreKeptFreeAndUsedByTheReservation) {
  // 8 GPUs. bob-1 holds 2 before the window. In the window bob-2 (4 GPUs)
  // would fit in the 6 free GPUs but would leave fewer than the 4 booked, so
  // it waits; bob-3 (2 GPUs) leaves exactly 4 and starts; alice's job starts
  // on the booked GPUs.
  CapacityBench bench(
      crafted_cluster(1, 8),
      {queued_job("bob-1", 2, 0, "default", "bob"), queued_job("bob-2", 4, 120, "default", "bob"),
       queued_job("bob-3", 2, 130, "default", "bob"), queued_job("alice-1", 4, 150, "default", "alice")});
  CapacityPolicy policy = capacity_policy(kBooked);
  bench.advance(0);
  Plan plan = bench.schedule(policy);
  EXPECT_EQ(plan.wake_time(), 100);  // the window opens
  EXPECT_EQ(bench.ids(bench.apply(plan).started), (Ids{"bob-1"}));
  bench.advance(100);
  plan = bench.schedule(policy);
  EXPECT_EQ(plan.wake_time(), 200);  // the window closes
  bench.apply(plan);
  bench.advance(120);
  EXPECT_TRUE(bench.step(policy).started.empty());
  bench.advance(130);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"bob-3"}));
  bench.advance(150);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"alice-1"}));
}

TEST(CapacityReservations, TheKeptGpusAreReleasedWhenTheWindowCloses) {
  CapacityBench bench(crafted_cluster(1, 8),
                      {queued_job("bob-1", 2, 0, "default", "bob"), queued_job("bob-2", 4, 120, "default", "bob")});
  CapacityPolicy policy = capacity_policy(kBooked);
  for (Time t : {0.0, 100.0, 120.0}) {
    bench.advance(t);
    bench.step(policy);
  }
  EXPECT_EQ(bench.running(), (Ids{"bob-1"}));
  bench.advance(200);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"bob-2"}));
}

TEST(CapacityReservations, OnlyTheReservationsUserInItsQueueUsesIt) {
  // alice's job in another queue, and carol's in the reserved queue, are ordinary jobs.
  CapacityBench bench(crafted_cluster(1, 8), {queued_job("other-queue", 6, 100, "b", "alice"),
                                              queued_job("other-user", 6, 100, "a", "carol")});
  CapacityPolicy policy = capacity_policy(R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
    "yarn.scheduler.capacity.root.a.user-limit-factor": 2, "yarn.scheduler.capacity.root.b.user-limit-factor": 2,
    "reservations": [{"id": "r", "queue": "a", "user": "alice", "gpus": 4, "start": 100, "end": 200}]})");
  bench.advance(100);
  EXPECT_TRUE(bench.step(policy).started.empty());  // 6 GPUs would leave 2 of the 4 kept
}

struct Booking {
  const char* name;
  std::string reservations;  // JSON array
  std::string where, problem;
};

class ReservationAdmission : public ::testing::TestWithParam<Booking> {};

// a may use 50% of 8 GPUs (4); b 100% (8).
TEST_P(ReservationAdmission, RejectsBookingsOverAQueuesMaximum) {
  const Booking& c = GetParam();
  const CapacityConfig config = parse_capacity_config(R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
    "yarn.scheduler.capacity.root.a.maximum-capacity": 50, "reservations": )" +
                                                          c.reservations + "}",
                                                      "test.json");
  const QueueTree tree(config);
  if (c.where.empty()) {
    EXPECT_NO_THROW(ReservationBook::admit(config, tree, 8));
    return;
  }
  try {
    ReservationBook::admit(config, tree, 8);
    FAIL() << c.name;
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "test.json");
    EXPECT_EQ(e.where(), c.where);
    EXPECT_EQ(e.field(), "gpus");
    EXPECT_NE(e.problem().find(c.problem), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, ReservationAdmission,
    ::testing::Values(Booking{"OneAboveTheMaximum",
                              R"([{"id": "big", "queue": "a", "user": "u", "gpus": 5, "start": 0, "end": 10}])",
                              "reservations[0] (id 'big')",
                              "more than its maximum-capacity of 4 GPUs (50% of the cluster's 8)"},
                      Booking{"OverlappingAboveTheMaximum",
                              R"([{"id": "r1", "queue": "a", "user": "u", "gpus": 3, "start": 0, "end": 100},
                    {"id": "r2", "queue": "a", "user": "v", "gpus": 2, "start": 50, "end": 150}])",
                              "reservations[1] (id 'r2')", "would book 5 GPUs at t=50 s (with r1) under root.a"},
                      Booking{"OverlappingLaterStart",
                              R"([{"id": "r1", "queue": "a", "user": "u", "gpus": 3, "start": 50, "end": 100},
                    {"id": "r2", "queue": "a", "user": "v", "gpus": 2, "start": 0, "end": 60}])",
                              "reservations[1] (id 'r2')", "would book 5 GPUs at t=50 s (with r1)"},
                      Booking{"BackToBackFit",
                              R"([{"id": "r1", "queue": "a", "user": "u", "gpus": 4, "start": 0, "end": 100},
                    {"id": "r2", "queue": "a", "user": "v", "gpus": 4, "start": 100, "end": 200}])",
                              "", ""},
                      Booking{"TheWholeClusterAtMost",
                              R"([{"id": "r1", "queue": "a", "user": "u", "gpus": 4, "start": 0, "end": 100},
                    {"id": "r2", "queue": "b", "user": "v", "gpus": 5, "start": 0, "end": 100}])",
                              "reservations[1] (id 'r2')", "under root, more than its maximum-capacity of 8 GPUs"}),
    [](const ::testing::TestParamInfo<Booking>& info) { return std::string(info.param.name); });

TEST(CapacityReservations, ThePolicyChecksThemAgainstTheClusterAtItsFirstCall) {
  CapacityBench bench(crafted_cluster(1, 4), {queued_job("j", 1, 0, "default")});
  CapacityPolicy policy = capacity_policy(R"({"yarn.scheduler.capacity.root.queues": "default",
    "yarn.scheduler.capacity.root.default.capacity": 100,
    "reservations": [{"id": "huge", "queue": "default", "user": "u", "gpus": 6, "start": 0, "end": 10}]})");
  bench.advance(0);
  EXPECT_THROW(bench.schedule(policy), InputError);
}

}  // namespace
}  // namespace gcsim
