// The bundled llm-crux-order workload on the 1,024-GPU rail cluster: with
// the same (network) placement, crux and fifo start different jobs when 384
// GPUs free up, and their figures differ.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// Two holders take all 1,024 GPUs, the shorter (384) until 600 s. Meanwhile
// two 70B-like jobs of 192 GPUs (60 s, 120 s) and a 175B-like one of 384
// (180 s) queue. A 175B-like iteration does more FLOPs per byte on its
// busiest link (h = 12,288 against 8,192), so crux starts it at 600 s and
// the two 70B-like jobs when it ends; fifo starts the 70B-like ones first.
TEST(CruxOrderScenario, CruxStartsTheMostIntensiveJobFirstWhereFifoKeepsSubmissionOrder) {
  ScratchDir dir;
  std::map<std::string, std::map<std::string, JobRow>> runs;
  for (const char* policy : {"fifo", "crux"}) {
    const GcsimRun run = run_gcsim({"run", "--cluster", scenario("clusters/h100-rails-1024gpu.json"), "--workload",
                                    scenario("workloads/llm-crux-order.json"), "--policy", policy, "--placement",
                                    "network", "--out", dir / policy, "--quiet", "--no-wall-time"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    runs[policy] = read_jobs_csv(dir / policy);
  }
  const auto& fifo = runs["fifo"];
  const auto& crux = runs["crux"];
  EXPECT_DOUBLE_EQ(fifo.at("llama-70b-a").start, 600);
  EXPECT_DOUBLE_EQ(fifo.at("llama-70b-b").start, 600);
  EXPECT_DOUBLE_EQ(fifo.at("gpt3-175b-small-batch").start,
                   std::max(fifo.at("llama-70b-a").end, fifo.at("llama-70b-b").end));
  EXPECT_DOUBLE_EQ(crux.at("gpt3-175b-small-batch").start, 600);
  EXPECT_DOUBLE_EQ(crux.at("llama-70b-a").start, crux.at("gpt3-175b-small-batch").end);
  EXPECT_DOUBLE_EQ(crux.at("llama-70b-b").start, crux.at("gpt3-175b-small-batch").end);
  // Each job alone runs its uncontended time either way: only the order differs.
  for (const auto* jobs : {&fifo, &crux})
    for (const char* name : {"llama-70b-a", "llama-70b-b", "gpt3-175b-small-batch"})
      EXPECT_NEAR(jobs->at(name).end - jobs->at(name).start, jobs->at(name).uncontended,
                  1e-3 * jobs->at(name).uncontended)
          << name;
}

}  // namespace
}  // namespace gcsim::testing
