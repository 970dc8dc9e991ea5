// Incremental: studies grow as GPUs free up and give trials back, youngest
// first and down to their minimum, to work of strictly higher priority; a
// job or study that cannot be served blocks none after it.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "policies/incremental/incremental_policy.hpp"
#include "policies/placement/pack_placement.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::crafted_cluster;
using testing::measured_job;
using testing::PolicyBench;
using Jobs = std::vector<JobIndex>;

JobSpec trial(const std::string& id, Time submit) {
  JobSpec job = measured_job(id, 1, submit);
  job.study = std::make_shared<const StudyMembership>(StudyMembership{"s", 1, 4});
  return job;
}

JobSpec job_of_priority(const std::string& id, std::uint32_t gpus, Time submit, std::int64_t priority) {
  JobSpec job = measured_job(id, gpus, submit);
  job.priority = priority;
  return job;
}

using Step = testing::PlanStep;
using testing::steps_of;
constexpr auto kPreempt = Decision::Kind::kPreempt;
constexpr auto kAllocate = Decision::Kind::kAllocate;

// One 4-GPU node. The study's three trials start at 0. At 10 `big` (3 GPUs,
// priority 1) takes back the two youngest trials (equal starts: the later
// in the workload first) and `small` (1 GPU, priority 0) finds no GPU and
// no victim: it waits. At 20 big ends: the trials come back, then small.
TEST(IncrementalPolicy, TakesTrialsBackForHigherPriorityAndServesTheRestAcrossCalls) {
  constexpr JobIndex t0 = 0, t1 = 1, t2 = 2, big = 3, small = 4;
  PolicyBench bench(crafted_cluster(1, 4), {trial("t0", 0), trial("t1", 0), trial("t2", 0),
                                            job_of_priority("big", 3, 10, 1), job_of_priority("small", 1, 10, 0)});
  IncrementalPolicy policy(std::make_unique<PackPlacement>());
  bench.submit(t0);
  bench.submit(t1);
  bench.submit(t2);
  EXPECT_EQ(bench.step(policy).started, (Jobs{t0, t1, t2}));

  bench.now = 10;
  bench.submit(big);
  bench.submit(small);
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, t2}, {kPreempt, t1}, {kAllocate, big}}));
  EXPECT_EQ(bench.apply(plan).started, (Jobs{big}));

  bench.now = 20;
  bench.finish(big);
  EXPECT_EQ(steps_of(bench.schedule(policy)),
            (std::vector<Step>{{kAllocate, t1}, {kAllocate, t2}, {kAllocate, small}}));
}

// Two GPUs, one held by a job of priority 5. A 2-GPU job of priority 9
// cannot start and finds no trial to take back; the 1-GPU job after it,
// of lower priority, starts in the GPU left.
TEST(IncrementalPolicy, AJobLargerThanTheFreeGpusBlocksNoOne) {
  PolicyBench bench(crafted_cluster(1, 2), {job_of_priority("running", 1, 0, 5), job_of_priority("wide", 2, 1, 9),
                                            job_of_priority("narrow", 1, 2, 0)});
  IncrementalPolicy policy(std::make_unique<PackPlacement>());
  bench.submit(0);
  EXPECT_EQ(bench.step(policy).started, (Jobs{0}));
  bench.now = 2;
  bench.submit(1);
  bench.submit(2);
  EXPECT_EQ(steps_of(bench.schedule(policy)), (std::vector<Step>{{kAllocate, 2}}));
}

}  // namespace
}  // namespace gcsim
