// place_or_preempt (policies/kit/place_or_preempt.hpp): a waiting job starts
// on free GPUs, or on GPUs victims free in the policy's order, or waits; the
// walk of victims is asked for only when preempting is tried.
//
// The cluster of every case: two nodes of 4 GPUs (0-3, 4-7). Running: a on
// GPUs 0, 1, 2; b on 4, 5; c on 6. Free: GPUs 3 and 7, one on each node.
// The last case has a cluster of its own, where host cores decide.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "policies/kit/place_or_preempt.hpp"
#include "policies/placement/pack_placement.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::crafted_cluster;
using testing::measured_job;
using testing::PolicyBench;
using Gpus = std::vector<GpuId>;
using Jobs = std::vector<JobIndex>;

constexpr JobIndex a = 0, b = 1, c = 2;
constexpr std::size_t kFree = 2;        // GPUs 3 and 7
constexpr std::size_t kAllVictims = 6;  // a's 3, b's 2, c's 1
const std::vector<bool> kNoneTaken;

class PlaceOrPreempt : public ::testing::Test {
 protected:
  PlaceOrPreempt()
      : bench_(crafted_cluster(2, 4), {measured_job("a", 3, 0), measured_job("b", 2, 0), measured_job("c", 1, 0)}) {
    bench_.submit_all();
    Plan running;
    running.allocate(a, {0, 1, 2});
    running.allocate(b, {4, 5});
    running.allocate(c, {6});
    bench_.apply(running);
    cluster_.emplace(bench_.state());
  }

  // The walk of `order`; asked_ counts the calls for a walk.
  auto victims_in(Jobs order) {
    return [this, order]() -> NextCandidate {
      ++asked_;
      return [order, at = std::size_t{0}]() mutable -> std::optional<JobIndex> {
        if (at == order.size()) return std::nullopt;
        return order[at++];
      };
    };
  }

  static JobSpec waiting(std::uint32_t gpus, bool single_node = false) {
    JobSpec job = measured_job("w", gpus, 0);
    job.single_node = single_node;
    return job;
  }

  RoomForJob place(const JobSpec& job, std::size_t victim_gpus, Jobs order) {
    return place_or_preempt(job, kFree, victim_gpus, victims_in(std::move(order)), bench_.state(), *cluster_, pack_,
                            kNoneTaken);
  }

  PolicyBench bench_;
  std::optional<TentativeCluster> cluster_;  // over the running jobs above
  PackPlacement pack_;
  int asked_ = 0;
};

TEST_F(PlaceOrPreempt, AJobThatFitsOnFreeGpusTakesThemAndNoVictimIsAskedFor) {
  const RoomForJob room = place(waiting(2), kAllVictims, {c, b, a});
  EXPECT_EQ(room.gpus, (Gpus{3, 7}));
  EXPECT_TRUE(room.victims.empty());
  EXPECT_EQ(asked_, 0);
}

TEST_F(PlaceOrPreempt, AJobLargerThanTheFreeAndVictimGpusWaitsAndNoVictimIsAskedFor) {
  const RoomForJob room = place(waiting(4), 1, {c});  // 2 free + 1 = 3 < 4
  EXPECT_FALSE(room.gpus.has_value());
  EXPECT_TRUE(room.victims.empty());
  EXPECT_EQ(asked_, 0);
  EXPECT_FALSE(cluster_->is_free(6));
}

TEST_F(PlaceOrPreempt, VictimsAreFreedInThePolicysOrderUntilTheJobFits) {
  // c freed: 3 GPUs; b freed: 5, and node 1 is whole. a is never drawn.
  const RoomForJob room = place(waiting(4), kAllVictims, {c, b, a});
  EXPECT_EQ(room.gpus, (Gpus{4, 5, 6, 7}));
  EXPECT_EQ(room.victims, (Jobs{c, b}));
  EXPECT_EQ(asked_, 1);
  EXPECT_TRUE(cluster_->is_free(4) && cluster_->is_free(6));  // freed, for the policy to take
  EXPECT_FALSE(cluster_->is_free(0));
}

TEST_F(PlaceOrPreempt, AnotherOrderFreesAnotherVictim) {
  // a freed first: 5 GPUs, and node 0 is whole.
  const RoomForJob room = place(waiting(4), kAllVictims, {a, c, b});
  EXPECT_EQ(room.gpus, (Gpus{0, 1, 2, 3}));
  EXPECT_EQ(room.victims, (Jobs{a}));
  EXPECT_FALSE(cluster_->is_free(6));
}

TEST_F(PlaceOrPreempt, EnoughFreeGpusThatDoNotPlaceTheJobLeadToVictims) {
  // Two free GPUs, one per node, for a 2-GPU job on one node: c freed leaves 6 and 7.
  const RoomForJob room = place(waiting(2, /*single_node=*/true), kAllVictims, {c, b, a});
  EXPECT_EQ(room.gpus, (Gpus{6, 7}));
  EXPECT_EQ(room.victims, (Jobs{c}));
  EXPECT_EQ(asked_, 1);
}

TEST_F(PlaceOrPreempt, AVictimWhoseGpusTheJobDoesNotUseIsGivenBack) {
  // c freed: 3 GPUs, too few; a freed: node 0 is whole. c's GPU is not used.
  const RoomForJob room = place(waiting(4, /*single_node=*/true), kAllVictims, {c, a});
  EXPECT_EQ(room.gpus, (Gpus{0, 1, 2, 3}));
  EXPECT_EQ(room.victims, (Jobs{a}));
  EXPECT_FALSE(cluster_->is_free(6));
}

TEST_F(PlaceOrPreempt, AJobNoVictimsMakeRoomForWaitsAndTheClusterIsAsItWas) {
  // Five GPUs on one node: no node has them, whoever is freed.
  const RoomForJob room = place(waiting(5, /*single_node=*/true), kAllVictims, {a, b, c});
  EXPECT_FALSE(room.gpus.has_value());
  EXPECT_TRUE(room.victims.empty());
  EXPECT_EQ(asked_, 1);
  for (const GpuId held : {0, 1, 2, 4, 5, 6}) EXPECT_FALSE(cluster_->is_free(held)) << held;
}

// One node of 4 GPUs and 32 cores; b runs on GPU 3 with all 32 cores.
TEST(PlaceOrPreemptForCores, AVictimWhoseGpusTheJobDoesNotUseGoesWhenTheJobNeedsItsCores) {
  JobSpec b = measured_job("b", 1, 0);
  b.cpu_cores = 32;
  PolicyBench bench(crafted_cluster(1, 4), {b});
  bench.submit_all();
  Plan running;
  running.allocate(0, {3});
  bench.apply(running);
  TentativeCluster cluster(bench.state());
  PackPlacement pack;
  // 2 GPUs and 8 cores: GPUs 0-2 are free, but no core is until b goes. The
  // job runs on GPUs 0 and 1, not on b's; b still goes, for its cores.
  JobSpec w = measured_job("w", 2, 0);
  w.cpu_cores = 8;
  const auto only_b = [] {
    return [drawn = false]() mutable -> std::optional<JobIndex> {
      if (drawn) return std::nullopt;
      drawn = true;
      return JobIndex{0};
    };
  };
  const RoomForJob room = place_or_preempt(w, 3, 1, only_b, bench.state(), cluster, pack, kNoneTaken);
  EXPECT_EQ(room.gpus, (Gpus{0, 1}));
  EXPECT_EQ(room.victims, (Jobs{0}));
  EXPECT_EQ(cluster.free_host(0).millicores, 32000);  // b's cores given back, for the policy to take
}

}  // namespace
}  // namespace gcsim
