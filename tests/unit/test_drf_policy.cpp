// DRF: the user with the lowest dominant share over GPUs, CPU cores and
// memory is served next, with its oldest job that fits; shares computed by
// hand on small crafted clusters.
#include <gtest/gtest.h>

#include "policies/drf/drf_policy.hpp"
#include "policies/placement/pack_placement.hpp"
#include "policies/register_builtin.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::crafted_cluster;
using testing::measured_job;
using testing::PolicyBench;
using Jobs = std::vector<JobIndex>;

DrfPolicy drf() { return DrfPolicy(std::make_unique<PackPlacement>()); }

JobSpec user_job(const std::string& id, const std::string& user, std::uint32_t gpus, Time submit,
                 double memory_bytes = 0, std::uint32_t cpu_cores = 0) {
  JobSpec job = measured_job(id, gpus, submit);
  job.user = user;
  job.memory_bytes = memory_bytes;
  job.cpu_cores = cpu_cores;
  return job;
}

// Jobs in the order the plan allocates them.
Jobs allocation_order(const Plan& plan) {
  Jobs jobs;
  for (const Decision& d : plan.decisions()) {
    EXPECT_EQ(d.kind, Decision::Kind::kAllocate);
    jobs.push_back(d.job);
  }
  return jobs;
}

// Gives `job` these GPUs by hand: it runs from then on.
void run_by_hand(PolicyBench& bench, JobIndex job, std::vector<GpuId> gpus) {
  Plan plan;
  plan.allocate(job, std::move(gpus));
  bench.apply(plan);
}

TEST(DrfResources, DominantShareIsTheLargestShareOfADescribedResource) {
  const DrfResources total{8, 0, 100e9};  // no CPU cores described
  EXPECT_DOUBLE_EQ((DrfResources{2, 64, 10e9}.dominant_share(total)), 0.25);
  EXPECT_DOUBLE_EQ((DrfResources{1, 0, 50e9}.dominant_share(total)), 0.5);
  EXPECT_DOUBLE_EQ((DrfResources{}.dominant_share(total)), 0);
}

TEST(DrfPolicy, AJobSharingGpusDemandsItsShareAndQueuesBehindFairerUsers) {
  // 3 GPUs. User a: eight quarter-GPU jobs; user b: two whole-GPU jobs.
  // Shares over 3 GPUs: a1 (a 1/12), b1 (b 1/3), a2, a3, a4 (a 1/3), a5
  // (a 5/12, on the free GPU: the first is full, b1 holds the second); b2
  // then finds no free GPU, and a's last three fill the third GPU. Counting
  // a quarter job as a whole GPU would give b2 that GPU instead.
  std::vector<JobSpec> jobs;
  for (int i = 1; i <= 8; ++i) {
    jobs.push_back(user_job("a" + std::to_string(i), "a", 1, 0));
    jobs.back().gpu_share = 0.25;
  }
  jobs.push_back(user_job("b1", "b", 1, 0));
  jobs.push_back(user_job("b2", "b", 1, 0));
  EXPECT_DOUBLE_EQ(DrfResources::demand_of(jobs[0]).gpus, 0.25);
  PolicyBench bench(crafted_cluster(1, 3), jobs);
  bench.submit_all();
  DrfPolicy policy = drf();
  EXPECT_TRUE(policy.shares_gpus());
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(allocation_order(plan), (Jobs{0, 8, 1, 2, 3, 4, 5, 6, 7}));
  const auto applied = bench.apply(plan);
  EXPECT_EQ(applied.started.size(), 9u);
  EXPECT_EQ(bench.state().holders(2).size(), 4u);  // a5..a8 share the third GPU
}

TEST(DrfResources, ClusterTotalsSumTheNodeGroups) {
  ClusterSpec spec = crafted_cluster(3, 4);  // 32 cores and 256 GB per node
  NodeGroup second = spec.node_groups[0];
  second.count = 2;
  second.gpus_per_node = 8;
  second.cpu_cores = 64;
  second.memory_bytes = 512e9;
  spec.node_groups.push_back(second);
  const DrfResources total = DrfResources::cluster_total(spec);
  EXPECT_DOUBLE_EQ(total.gpus, 3 * 4 + 2 * 8);
  EXPECT_DOUBLE_EQ(total.cpu_cores, 3 * 32 + 2 * 64);
  EXPECT_DOUBLE_EQ(total.memory_bytes, 3 * 256e9 + 2 * 512e9);
}

// The paper's example with GPUs for CPUs: A's jobs <1 GPU, 4 GB>, B's <3 GPUs, 1 GB>.
std::vector<JobSpec> papers_jobs() {
  return {user_job("a1", "A", 1, 0, 4e9), user_job("a2", "A", 1, 0, 4e9), user_job("a3", "A", 1, 0, 4e9),
          user_job("a4", "A", 1, 0, 4e9), user_job("b1", "B", 3, 0, 1e9), user_job("b2", "B", 3, 0, 1e9),
          user_job("b3", "B", 3, 0, 1e9)};
}

TEST(DrfPolicy, ReproducesThePapersExampleWithGpusForCpus) {
  // The paper's example: 9 CPUs and 18 GB; user A's tasks need <1 CPU, 4 GB>,
  // B's <3 CPUs, 1 GB>. Here: one node of 9 GPUs and 18 GB (one node, so
  // that its host memory is the cluster's, as the paper's resources are one
  // pool); A's jobs need <1 GPU, 4 GB>, B's <3 GPUs, 1 GB>.
  //   pick  A's shares (GPU, mem) dominant  B's shares (GPU, mem) dominant
  //   A     1/9, 4/18             2/9       0, 0                  0      (tie at 0: by name)
  //   B     1/9, 4/18             2/9       3/9, 1/18             1/3
  //   A     2/9, 8/18             4/9       3/9, 1/18             1/3
  //   B     2/9, 8/18             4/9       6/9, 2/18             2/3
  //   A     3/9, 12/18            2/3       6/9, 2/18             2/3
  // All 9 GPUs are then taken: A ends with <3 GPUs, 12 GB> and B with
  // <6 GPUs, 2 GB>, equal dominant shares of 2/3, the paper's allocation.
  ClusterSpec spec = crafted_cluster(1, 9);
  spec.node_groups[0].memory_bytes = 18e9;
  PolicyBench bench(spec, papers_jobs());
  bench.submit_all();
  DrfPolicy policy = drf();
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(allocation_order(plan), (Jobs{0, 4, 1, 5, 2}));
  EXPECT_EQ(plan.wake_time(), kNever);
  bench.apply(plan);
  EXPECT_EQ(bench.state().waiting(), (Jobs{3, 6}));
  EXPECT_EQ(bench.state().free_gpu_count(), 0u);
}

TEST(DrfPolicy, SharesAreOverTheClusterButEachJobFitsANode) {
  // The same jobs on 3 nodes of 3 GPUs and 6 GB each: the shares are the
  // same fractions of the cluster's 9 GPUs and 18 GB, but a job's memory must
  // fit on the nodes it runs on (split over its GPUs).
  //   A: a1 on node 0 (4 of its 6 GB).           A 2/9
  //   B: b1, 3 GPUs, on node 1 (the first full node that holds it).  B 1/3
  //   A: a2 needs 4 GB: node 0 has 2 GB left, so node 2.  A 4/9
  //   B: b2 on node 0's 2 GPUs and one of node 2's (1 GB split: 666,666,667
  //      and 333,333,334 bytes).  B 2/3
  //   A: a3 needs a GPU and 4 GB: node 2's last GPU has 2 GB - 333,333,334
  //      bytes beside it: nothing fits; B's b3 (3 GPUs) neither.
  ClusterSpec spec = crafted_cluster(3, 3);
  spec.node_groups[0].memory_bytes = 6e9;
  PolicyBench bench(spec, papers_jobs());
  bench.submit_all();
  DrfPolicy policy = drf();
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(allocation_order(plan), (Jobs{0, 4, 1, 5}));
  bench.apply(plan);
  EXPECT_EQ(bench.state().waiting(), (Jobs{2, 3, 6}));
  EXPECT_EQ(bench.state().free_gpu_count(), 1u);
  EXPECT_EQ(bench.state().free_host(2).memory_bytes, 6000000000 - 4000000000 - 333333334);
}

TEST(DrfPolicy, UsersWithEqualSharesAreServedByName) {
  // One GPU; bob submitted first, but both hold nothing: alice goes first.
  PolicyBench bench(crafted_cluster(1, 1), {user_job("b", "bob", 1, 0), user_job("a", "alice", 1, 5)});
  bench.submit_all();
  DrfPolicy policy = drf();
  EXPECT_EQ(bench.step(policy).started, (Jobs{1}));
}

TEST(DrfPolicy, RunningJobsCountInTheShares) {
  // Four GPUs, alice runs 2 (share 1/2). bob (0) is served, then again
  // (1/4 < 1/2); at 1/2 each the tie goes to alice, but no GPU is left.
  PolicyBench bench(crafted_cluster(1, 4), {user_job("a-run", "alice", 2, 0), user_job("a-wait", "alice", 1, 1),
                                            user_job("b1", "bob", 1, 2), user_job("b2", "bob", 1, 3)});
  bench.submit_all();
  run_by_hand(bench, 0, {0, 1});
  DrfPolicy policy = drf();
  EXPECT_EQ(allocation_order(bench.schedule(policy)), (Jobs{2, 3}));
}

TEST(DrfPolicy, AUserWhoseJobsDoNotFitIsSkipped) {
  // Two of four GPUs busy (carol). alice (share 0, first by name) only has a
  // 4-GPU job: skipped. bob's 2-GPU job starts.
  PolicyBench bench(crafted_cluster(1, 4),
                    {user_job("c", "carol", 2, 0), user_job("a-wide", "alice", 4, 1), user_job("b", "bob", 2, 2)});
  bench.submit_all();
  run_by_hand(bench, 0, {0, 1});
  DrfPolicy policy = drf();
  EXPECT_EQ(allocation_order(bench.schedule(policy)), (Jobs{2}));
}

TEST(DrfPolicy, KeepsEachUsersHoldingsRightAcrossCalls) {
  // Four GPUs. zed is seen first, amy second; users are still served by
  // share, then by name, and each running job counts for its own user.
  PolicyBench bench(crafted_cluster(1, 4),
                    {user_job("z1", "zed", 2, 0), user_job("a1", "amy", 1, 1), user_job("z2", "zed", 1, 1),
                     user_job("a2", "amy", 2, 2), user_job("z3", "zed", 2, 2)});
  DrfPolicy policy = drf();
  bench.submit(0);
  EXPECT_EQ(bench.step(policy).started, (Jobs{0}));
  bench.now = 1;  // zed holds 2/4, amy nothing: a1 first, then z2 in the GPU left
  bench.submit(1);
  bench.submit(2);
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(allocation_order(plan), (Jobs{1, 2}));
  bench.apply(plan);
  bench.now = 2;  // z1 ends: amy and zed hold 1/4 each; the tie goes to amy
  bench.finish(0);
  bench.submit(3);
  bench.submit(4);
  EXPECT_EQ(allocation_order(bench.schedule(policy)), (Jobs{3}));
}

// Four GPUs. At 0 amy's a1 (1 GPU) and zed's z1 (2 GPUs) start; at 1 z1 ends
// and a2 (amy) and z2 (zed), 1 GPU each, wait. zed holds nothing now, amy
// 1/4: z2 first, then the tie at 1/4 goes to amy. Were z1 still counted,
// zed's 2/4 would put a2 first.
void expect_ended_runs_leave_the_shares(std::vector<JobSpec> extra) {
  std::vector<JobSpec> jobs{user_job("a1", "amy", 1, 0), user_job("z1", "zed", 2, 0), user_job("a2", "amy", 1, 1),
                            user_job("z2", "zed", 1, 1)};
  jobs.insert(jobs.end(), extra.begin(), extra.end());
  PolicyBench bench(crafted_cluster(1, 4), jobs);
  DrfPolicy policy = drf();
  bench.submit(0);
  bench.submit(1);
  const Plan first = bench.schedule(policy);
  EXPECT_EQ(allocation_order(first), (Jobs{0, 1}));
  bench.apply(first);
  bench.now = 1;
  bench.finish(1);
  bench.submit(2);
  bench.submit(3);
  EXPECT_EQ(allocation_order(bench.schedule(policy)), (Jobs{3, 2}));
}

TEST(DrfPolicy, ARunThatEndedNoLongerCountsInItsUsersShare) { expect_ended_runs_leave_the_shares({}); }

TEST(DrfPolicy, ARunThatEndedNoLongerCountsWhenSharesAreSummedAfresh) {
  // A half-GPU job in the workload (never submitted here): demands are no
  // longer all whole, so holdings are summed again at every call.
  JobSpec half = user_job("h", "hal", 1, 100);
  half.gpu_share = 0.5;
  expect_ended_runs_leave_the_shares({half});
}

TEST(DrfPolicy, TheUsersOldestJobThatFitsStarts) {
  // alice's oldest job needs 4 GPUs with 2 free; her next one (1 GPU) starts
  // before bob, whose share is also 0 but whose name comes later.
  PolicyBench bench(crafted_cluster(1, 4), {user_job("c", "carol", 2, 0), user_job("a-wide", "alice", 4, 1),
                                            user_job("a-small", "alice", 1, 2), user_job("b", "bob", 1, 3)});
  bench.submit_all();
  run_by_hand(bench, 0, {0, 1});
  DrfPolicy policy = drf();
  EXPECT_EQ(allocation_order(bench.schedule(policy)), (Jobs{2, 3}));
}

TEST(DrfPolicy, CpuCoresAndMemoryAreDominantWhenScarcerAndLimitWhatFits) {
  // One node: 4 GPUs, 32 cores. alice runs <1 GPU, 24 cores>: dominant share
  // 24/32 = 3/4 (cores). bob runs <2 GPUs, 0 cores>: 2/4 = 1/2. bob is served
  // first although alice holds fewer GPUs; bob's <1 GPU, 16 cores> job does
  // not fit the 8 cores left, so alice's <1 GPU, 8 cores> job starts.
  PolicyBench bench(crafted_cluster(1, 4),
                    {user_job("a-run", "alice", 1, 0, 0, 24), user_job("b-run", "bob", 2, 0),
                     user_job("a-next", "alice", 1, 1, 0, 8), user_job("b-next", "bob", 1, 2, 0, 16)});
  bench.submit_all();
  run_by_hand(bench, 0, {0});
  run_by_hand(bench, 1, {1, 2});
  DrfPolicy policy = drf();
  EXPECT_EQ(allocation_order(bench.schedule(policy)), (Jobs{2}));
}

TEST(DrfPolicy, NeverPreemptsWhateverTheShares) {
  // alice holds the whole node; bob, at share 0, waits for a completion.
  PolicyBench bench(crafted_cluster(1, 4), {user_job("a", "alice", 4, 0), user_job("b", "bob", 1, 1)});
  bench.submit_all();
  run_by_hand(bench, 0, {0, 1, 2, 3});
  DrfPolicy policy = drf();
  EXPECT_TRUE(bench.schedule(policy).empty());
}

// One policy kept across calls on 4 GPUs, so that its per-user queues must
// follow the arrivals, starts and finishes between calls. GPUs alone count
// (the jobs ask no cores or memory): a user's share is its GPUs / 4.
TEST(DrfPolicy, KeepsEachUsersQueueRightAcrossCalls) {
  PolicyBench bench(crafted_cluster(1, 4),
                    {user_job("a1", "a", 2, 0), user_job("a2", "a", 2, 0), user_job("b1", "b", 2, 10),
                     user_job("b2", "b", 1, 20), user_job("a3", "a", 1, 20), user_job("b3", "b", 2, 30)});
  DrfPolicy policy = drf();
  bench.submit(0);
  bench.submit(1);
  EXPECT_EQ(allocation_order(bench.schedule(policy)), (Jobs{0, 1}));  // a alone: a1, then a2
  bench.step(policy);

  bench.now = 10;  // b1 arrives on a full cluster
  bench.submit(2);
  EXPECT_TRUE(bench.schedule(policy).decisions().empty());

  bench.now = 20;  // a1 and a2 end; b2 and a3 arrive
  bench.finish(0);
  bench.finish(1);
  bench.submit(3);
  bench.submit(4);
  // a and b both at 0, a first by name: a3 (a 1/4); b at 0: b1 (b 2/4);
  // a has nothing left; b: b2 on the last GPU.
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(allocation_order(plan), (Jobs{4, 2, 3}));
  bench.apply(plan);

  bench.now = 30;  // b1 ends, b3 arrives: the only waiting job, on the 2 GPUs b1 left
  bench.finish(2);
  bench.submit(5);
  EXPECT_EQ(allocation_order(bench.schedule(policy)), (Jobs{5}));
}

TEST(DrfPolicy, IsRegisteredUnderItsName) {
  PolicyRegistry registry;
  register_builtin(registry);
  EXPECT_EQ(registry.make_policy("drf", {})->name(), "drf");
}

}  // namespace
}  // namespace gcsim
