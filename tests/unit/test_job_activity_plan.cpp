// Specification of JobActivityPlan: the steps a running job executes at each
// fidelity, and the promise that, uncontended, both fidelities take the same
// time.
//
// The training job used throughout, on N = 4 GPUs:
//   3 iterations of 2 TFLOP per GPU, then a ring allreduce of 8 MB gradients
//   (2(N-1) = 6 ring steps of S/N = 2 MB each).
#include "sim/model/job_activity_plan.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/model/ring_allreduce_cost.hpp"

namespace gcsim {
namespace {

constexpr double kFlopsPerIteration = 2e12;
constexpr double kGradientBytes = 8e6;
constexpr std::uint64_t kIterations = 3;
constexpr double kRingLatency = 5e-6;

JobSpec training_job(std::uint32_t gpus, std::uint64_t iterations = kIterations) {
  JobSpec job;
  job.id = "train";
  job.gpus = gpus;
  job.work = TrainingWork{kFlopsPerIteration, kGradientBytes, iterations, {}};
  return job;
}

JobSpec measured_job(std::uint32_t gpus, double seconds) {
  JobSpec job;
  job.id = "trace";
  job.gpus = gpus;
  job.work = MeasuredWork{seconds, "V100"};
  return job;
}

std::vector<JobStep> steps_of(const JobActivityPlan& plan) {
  std::vector<JobStep> steps;
  for (std::uint64_t k = 0; k < plan.step_count(); ++k) steps.push_back(plan.step(k));
  return steps;
}

// Uncontended duration of the steps, by the step model: a computation takes
// amount / flops; a transfer step (ring step, push, pull, hierarchical) pays the message
// latency then amount / B; a delay (or a notebook's burst) takes its amount.
double uncontended_seconds(const JobActivityPlan& plan, double gpu_flops, double latency, double bandwidth) {
  double seconds = 0;
  for (const JobStep& step : steps_of(plan)) {
    switch (step.kind) {
      case JobStep::Kind::kCompute:
        seconds += step.amount / gpu_flops;
        break;
      case JobStep::Kind::kRingStep:
      case JobStep::Kind::kPush:
      case JobStep::Kind::kPull:
      case JobStep::Kind::kIntraNode:
      case JobStep::Kind::kInterNode:
        seconds += latency + step.amount / bandwidth;
        break;
      case JobStep::Kind::kDelay:
      case JobStep::Kind::kBusy:  // a notebook's burst: its length, as a delay
        seconds += step.amount;
        break;
      case JobStep::Kind::kPhase:
        ADD_FAILURE() << "the step model here has no phases: tests/engine/test_phased_run.cpp runs them";
        break;
    }
  }
  return seconds;
}

// ---- iteration fidelity ---------------------------------------------------------------

TEST(IterationFidelity, HasOneComputeAndTwoNMinusOneRingStepsPerIteration) {
  const JobActivityPlan plan(training_job(4), Fidelity::kIteration, 0, kRingLatency);
  EXPECT_EQ(plan.step_count(), 3u * (1u + 6u));
}

TEST(IterationFidelity, EachIterationIsComputeThenRingSteps) {
  const JobActivityPlan plan(training_job(4), Fidelity::kIteration, 0, kRingLatency);
  const auto steps = steps_of(plan);
  ASSERT_EQ(steps.size(), 21u);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    if (k % 7 == 0) {
      EXPECT_EQ(steps[k].kind, JobStep::Kind::kCompute) << "step " << k;
      EXPECT_DOUBLE_EQ(steps[k].amount, kFlopsPerIteration) << "step " << k;
    } else {
      EXPECT_EQ(steps[k].kind, JobStep::Kind::kRingStep) << "step " << k;
      EXPECT_DOUBLE_EQ(steps[k].amount, kGradientBytes / 4) << "step " << k;
    }
  }
}

TEST(IterationFidelity, HasNoDelayStep) {
  const JobActivityPlan plan(training_job(4), Fidelity::kIteration, 0, kRingLatency);
  for (const JobStep& step : steps_of(plan)) EXPECT_NE(step.kind, JobStep::Kind::kDelay);
}

TEST(IterationFidelity, StepsOfAHugeRunAreComputedOnDemand) {
  const JobActivityPlan plan(training_job(8, 1'000'000'000), Fidelity::kIteration, 0, kRingLatency);
  EXPECT_EQ(plan.step_count(), 1'000'000'000ull * 15);
  const std::uint64_t last = plan.step_count() - 1;
  EXPECT_EQ(plan.step(last).kind, JobStep::Kind::kRingStep);
  EXPECT_EQ(plan.step(last - 14).kind, JobStep::Kind::kCompute);
}

TEST(IterationFidelity, SingleGpuJobHasOnlyComputeSteps) {
  const JobActivityPlan plan(training_job(1), Fidelity::kIteration, 0, kRingLatency);
  ASSERT_EQ(plan.step_count(), kIterations);
  for (const JobStep& step : steps_of(plan)) {
    EXPECT_EQ(step.kind, JobStep::Kind::kCompute);
    EXPECT_DOUBLE_EQ(step.amount, kFlopsPerIteration);
  }
}

// ---- job fidelity ---------------------------------------------------------------------

TEST(JobFidelity, IsComputeThenRingThenDelay) {
  const JobActivityPlan plan(training_job(4), Fidelity::kJob, 0, kRingLatency);
  const auto steps = steps_of(plan);
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].kind, JobStep::Kind::kCompute);
  EXPECT_EQ(steps[1].kind, JobStep::Kind::kRingStep);
  EXPECT_EQ(steps[2].kind, JobStep::Kind::kDelay);
}

TEST(JobFidelity, ComputeCarriesEveryIterationsFlops) {
  const JobActivityPlan plan(training_job(4), Fidelity::kJob, 0, kRingLatency);
  EXPECT_DOUBLE_EQ(plan.step(0).amount, 3 * 2e12);
}

TEST(JobFidelity, RingCarriesEveryIterationsTrafficPerEdge) {
  const JobActivityPlan plan(training_job(4), Fidelity::kJob, 0, kRingLatency);
  // iterations * 2(N-1) * S/N = 3 * 6 * 2 MB
  EXPECT_DOUBLE_EQ(plan.step(1).amount, 36e6);
}

TEST(JobFidelity, DelayAddsTheLatenciesTheMergedFlowDoesNotPay) {
  const JobActivityPlan plan(training_job(4), Fidelity::kJob, 0, kRingLatency);
  // 3 * 6 = 18 messages; the merged flow pays one latency, the delay the other 17.
  EXPECT_DOUBLE_EQ(plan.step(2).amount, 17 * 5e-6);
}

TEST(JobFidelity, NoDelayStepWhenTheRingHasNoLatency) {
  const JobActivityPlan plan(training_job(4), Fidelity::kJob, 0, 0.0);
  const auto steps = steps_of(plan);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].kind, JobStep::Kind::kCompute);
  EXPECT_EQ(steps[1].kind, JobStep::Kind::kRingStep);
}

TEST(JobFidelity, SingleGpuJobIsOneComputeStep) {
  const JobActivityPlan plan(training_job(1), Fidelity::kJob, 0, kRingLatency);
  ASSERT_EQ(plan.step_count(), 1u);
  EXPECT_EQ(plan.step(0).kind, JobStep::Kind::kCompute);
  EXPECT_DOUBLE_EQ(plan.step(0).amount, 3 * 2e12);
}

TEST(JobFidelity, StepCountDoesNotGrowWithIterations) {
  const JobActivityPlan plan(training_job(8, 1'000'000'000), Fidelity::kJob, 0, kRingLatency);
  EXPECT_EQ(plan.step_count(), 3u);
}

// ---- both fidelities agree ----------------------------------------------------------------

struct AgreementCase {
  std::string name;
  std::uint32_t gpus;
  std::uint64_t iterations;
  double latency;
  double seconds;  // by hand
};

std::ostream& operator<<(std::ostream& out, const AgreementCase& c) { return out << c.name; }

// GPUs of 100 TFLOP/s, ring edges of 10 GB/s. Per iteration: 2 TFLOP take
// 20 ms; each of the 2(N-1) ring steps takes latency + (8 MB / N) / 10 GB/s.
const AgreementCase kAgreement[] = {
    // 3 * (20 ms + 6 * (5 us + 0.2 ms)) = 3 * 21.23 ms
    {"FourGpus", 4, 3, 5e-6, 63.69e-3},
    // 1 * (20 ms + 2 * (5 us + 0.4 ms)) = 20.81 ms
    {"TwoGpusOneIteration", 2, 1, 5e-6, 20.81e-3},
    // 10 * (20 ms + 14 * (1 us + 0.1 ms)) = 10 * 21.414 ms
    {"EightGpus", 8, 10, 1e-6, 214.14e-3},
    // 3 * (20 ms + 6 * 0.2 ms)
    {"ZeroLatency", 4, 3, 0, 63.6e-3},
    // 3 * 20 ms
    {"SingleGpu", 1, 3, 5e-6, 60e-3},
};

class FidelityAgreement : public ::testing::TestWithParam<AgreementCase> {};

TEST_P(FidelityAgreement, IterationFidelityTakesTheHandWorkedTime) {
  const AgreementCase& c = GetParam();
  const JobActivityPlan plan(training_job(c.gpus, c.iterations), Fidelity::kIteration, 0, c.latency);
  EXPECT_NEAR(uncontended_seconds(plan, 100e12, c.latency, 10e9), c.seconds, 1e-12);
}

TEST_P(FidelityAgreement, JobFidelityTakesTheSameTime) {
  const AgreementCase& c = GetParam();
  const JobActivityPlan plan(training_job(c.gpus, c.iterations), Fidelity::kJob, 0, c.latency);
  EXPECT_NEAR(uncontended_seconds(plan, 100e12, c.latency, 10e9), c.seconds, 1e-12);
}

TEST_P(FidelityAgreement, MatchesTheClosedFormPerIteration) {
  const AgreementCase& c = GetParam();
  const double per_iteration =
      training_iteration_seconds(kFlopsPerIteration, 100e12, c.gpus, kGradientBytes, c.latency, 10e9);
  EXPECT_NEAR(static_cast<double>(c.iterations) * per_iteration, c.seconds, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(HandWorked, FidelityAgreement, ::testing::ValuesIn(kAgreement),
                         [](const ::testing::TestParamInfo<AgreementCase>& info) { return info.param.name; });

// ---- measured work ----------------------------------------------------------------------

TEST(MeasuredWork, IsOneComputeStepOfSecondsTimesTheMeasuredTypesFlops) {
  for (Fidelity fidelity : {Fidelity::kJob, Fidelity::kIteration}) {
    const JobActivityPlan plan(measured_job(4, 120.0), fidelity, 15e12, kRingLatency);
    ASSERT_EQ(plan.step_count(), 1u) << to_string(fidelity);
    EXPECT_EQ(plan.step(0).kind, JobStep::Kind::kCompute) << to_string(fidelity);
    EXPECT_DOUBLE_EQ(plan.step(0).amount, 120.0 * 15e12) << to_string(fidelity);
  }
}

TEST(MeasuredWork, RunsForItsMeasuredTimeOnItsOwnTypeAndScalesOnOthers) {
  const JobActivityPlan plan(measured_job(2, 100.0), Fidelity::kJob, 15e12, kRingLatency);
  EXPECT_DOUBLE_EQ(uncontended_seconds(plan, 15e12, kRingLatency, 10e9), 100.0);
  EXPECT_DOUBLE_EQ(uncontended_seconds(plan, 30e12, kRingLatency, 10e9), 50.0);
}

// ---- what the steps are, form by form ---------------------------------------------------

TEST(PlanOfAForm, TrainingIteratesAndComputes) {
  const JobActivityPlan plan(training_job(4), Fidelity::kJob, 0, kRingLatency);
  EXPECT_TRUE(plan.trains());
  EXPECT_TRUE(plan.computes());
}

TEST(PlanOfAForm, AMeasuredRunComputesWithoutIterating) {
  const JobActivityPlan plan(measured_job(2, 100.0), Fidelity::kJob, 15e12, kRingLatency);
  EXPECT_FALSE(plan.trains());
  EXPECT_TRUE(plan.computes());
}

TEST(PlanOfAForm, ANotebookNeitherIteratesNorComputes) {
  JobSpec notebook;
  notebook.id = "nb";
  notebook.work = NotebookWork{{{60, 30}}, 1};
  const JobActivityPlan plan(notebook, Fidelity::kJob, 0, 0);
  EXPECT_FALSE(plan.trains());
  EXPECT_FALSE(plan.computes());
  ASSERT_EQ(plan.step_count(), 2u);  // its idle minute, then its burst
  EXPECT_EQ(plan.step(1).kind, JobStep::Kind::kBusy);
}

TEST(PlanOfAForm, FormsThatRunNoStepsHaveNoPlan) {
  JobSpec job;
  job.id = "j";
  job.gpus = 0;
  for (JobWork work : {JobWork{DagWork{}}, JobWork{ServingWork{}}, JobWork{CpuWork{10}}}) {
    job.work = work;
    EXPECT_THROW(JobActivityPlan(job, Fidelity::kJob, 0, 0), std::logic_error) << work.index();
  }
}

TEST(FidelityNames, AreLowerCase) {
  EXPECT_EQ(to_string(Fidelity::kJob), "job");
  EXPECT_EQ(to_string(Fidelity::kIteration), "iteration");
}

TEST(JobFidelityRounds, SplitTheIterationsIntoRoundsOfComputeRingAndDelay) {
  // 10 iterations in 4 rounds: 3, 3, 2, 2 iterations; N = 4, so 6 messages per iteration.
  const JobSpec job = training_job(4, 10);
  const JobActivityPlan plan(job, Fidelity::kJob, 0, 1e-6, 1.0, 0, 4);
  ASSERT_EQ(plan.step_count(), 12u);
  const auto& work = std::get<TrainingWork>(job.work);
  const double chunk = work.gradient_bytes / 4;
  const std::vector<double> iterations{3, 3, 2, 2};
  for (std::size_t r = 0; r < 4; ++r) {
    SCOPED_TRACE(r);
    EXPECT_EQ(plan.step(3 * r).kind, JobStep::Kind::kCompute);
    EXPECT_DOUBLE_EQ(plan.step(3 * r).amount, work.flops_per_iteration * iterations[r]);
    EXPECT_EQ(plan.step(3 * r + 1).kind, JobStep::Kind::kRingStep);
    EXPECT_DOUBLE_EQ(plan.step(3 * r + 1).amount, chunk * 6 * iterations[r]);
    EXPECT_EQ(plan.step(3 * r + 2).kind, JobStep::Kind::kDelay);
    EXPECT_DOUBLE_EQ(plan.step(3 * r + 2).amount, (6 * iterations[r] - 1) * 1e-6);
  }
}

TEST(JobFidelityRounds, NeverMoreRoundsThanIterations) {
  const JobActivityPlan plan(training_job(2, 3), Fidelity::kJob, 0, 1e-6, 1.0, 0, 16);
  EXPECT_EQ(plan.step_count(), 9u);  // 3 rounds of one iteration
}

// ---- parameter servers -----------------------------------------------------------------

JobSpec parameter_server_job(std::uint32_t gpus, std::uint32_t servers, std::uint64_t iterations) {
  JobSpec job = training_job(gpus, iterations);
  std::get<TrainingWork>(job.work).parameter_servers = servers;
  return job;
}

TEST(ParameterServers, EachIterationIsComputeThenAPushAndAPullOfAShardPerServer) {
  // k = 2 servers: every flow carries S/2 = 4 MB.
  const JobActivityPlan plan(parameter_server_job(4, 2, 3), Fidelity::kIteration, 0, kRingLatency);
  ASSERT_EQ(plan.step_count(), 9u);
  EXPECT_EQ(plan.parameter_servers(), 2u);
  for (std::uint64_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(plan.step(3 * i).kind, JobStep::Kind::kCompute);
    EXPECT_DOUBLE_EQ(plan.step(3 * i).amount, kFlopsPerIteration);
    EXPECT_EQ(plan.step(3 * i + 1).kind, JobStep::Kind::kPush);
    EXPECT_DOUBLE_EQ(plan.step(3 * i + 1).amount, 4e6);
    EXPECT_EQ(plan.step(3 * i + 2).kind, JobStep::Kind::kPull);
    EXPECT_DOUBLE_EQ(plan.step(3 * i + 2).amount, 4e6);
  }
}

TEST(ParameterServers, JobFidelityMergesARoundsPushesAndPullsAndDelaysTheirOtherLatencies) {
  // 10 iterations in 4 rounds (3, 3, 2, 2): a push and a pull of it x S/4,
  // then the 2 it - 2 latencies the two merged flows do not pay.
  const JobActivityPlan plan(parameter_server_job(8, 4, 10), Fidelity::kJob, 0, 1e-6, 1.0, 0, 4);
  ASSERT_EQ(plan.step_count(), 16u);
  const std::vector<double> iterations{3, 3, 2, 2};
  for (std::size_t r = 0; r < 4; ++r) {
    SCOPED_TRACE(r);
    EXPECT_DOUBLE_EQ(plan.step(4 * r).amount, kFlopsPerIteration * iterations[r]);
    EXPECT_EQ(plan.step(4 * r + 1).kind, JobStep::Kind::kPush);
    EXPECT_DOUBLE_EQ(plan.step(4 * r + 1).amount, 2e6 * iterations[r]);
    EXPECT_EQ(plan.step(4 * r + 2).kind, JobStep::Kind::kPull);
    EXPECT_DOUBLE_EQ(plan.step(4 * r + 2).amount, 2e6 * iterations[r]);
    EXPECT_EQ(plan.step(4 * r + 3).kind, JobStep::Kind::kDelay);
    EXPECT_DOUBLE_EQ(plan.step(4 * r + 3).amount, (2 * iterations[r] - 2) * 1e-6);
  }
}

TEST(ParameterServers, BothFidelitiesTakeTwoPhasesPerIterationUncontended) {
  // A flow of S/k = 2 MB at 1 GB/s after 5 us: each phase 2.005 ms.
  const double flops = 1e12, bandwidth = 1e9;
  const double expected = 3 * (kFlopsPerIteration / flops + 2 * (kRingLatency + 2e6 / bandwidth));
  for (const Fidelity fidelity : {Fidelity::kIteration, Fidelity::kJob}) {
    const JobActivityPlan plan(parameter_server_job(4, 4, 3), fidelity, 0, kRingLatency, 1.0, 0, 2);
    EXPECT_NEAR(uncontended_seconds(plan, flops, kRingLatency, bandwidth), expected, expected * 1e-12);
    EXPECT_NEAR(plan.uncontended_work_seconds(flops, bandwidth), expected, expected * 1e-12);
  }
}

TEST(ParameterServers, OneGpuTransfersNothing) {
  const JobActivityPlan plan(parameter_server_job(1, 2, 3), Fidelity::kJob, 0, kRingLatency);
  EXPECT_TRUE(plan.without_transfers());
  EXPECT_EQ(plan.step_count(), 1u);
}

// ---- tensor fusion -----------------------------------------------------------------------

JobSpec fused_job(std::uint32_t gpus, double fusion_bytes, std::uint32_t servers = 0) {
  JobSpec job = training_job(gpus, kIterations);
  auto& work = std::get<TrainingWork>(job.work);
  work.fusion_bytes = fusion_bytes;
  work.parameter_servers = servers;
  return job;
}

TEST(TensorFusion, EachBufferIsAnAllreduceOfItsOwn) {
  // 8 MB in buffers of 3 MB: 3, 3 and 2 MB, each 2(N-1) = 6 ring steps of a quarter.
  const JobActivityPlan plan(fused_job(4, 3e6), Fidelity::kIteration, 0, kRingLatency);
  ASSERT_EQ(plan.step_count(), kIterations * (1 + 3 * 6));
  for (std::uint64_t k = 1; k <= 18; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(plan.step(k).kind, JobStep::Kind::kRingStep);
    EXPECT_DOUBLE_EQ(plan.step(k).amount, k <= 12 ? 0.75e6 : 0.5e6);
  }
  EXPECT_EQ(plan.step(19).kind, JobStep::Kind::kCompute);
}

TEST(TensorFusion, JobFidelityCarriesTheSameBytesAndDelaysEveryBuffersLatencies) {
  // One round of 3 iterations: 18 messages each, the merged ring step pays one latency.
  const JobActivityPlan plan(fused_job(4, 3e6), Fidelity::kJob, 0, 1e-6);
  ASSERT_EQ(plan.step_count(), 3u);
  EXPECT_DOUBLE_EQ(plan.step(1).amount, 3 * 6 * 8e6 / 4);
  EXPECT_DOUBLE_EQ(plan.step(2).amount, (3 * 18 - 1) * 1e-6);
}

TEST(TensorFusion, MultipliesTheLatencyTermsNotTheBytes) {
  // Per iteration: 2(N-1) (m alpha + S / (N B)) with m = 3 buffers.
  const double flops = 1e12, bandwidth = 1e9;
  const double expected = kIterations * (kFlopsPerIteration / flops + 6 * (3 * kRingLatency + 8e6 / (4 * bandwidth)));
  for (const Fidelity fidelity : {Fidelity::kIteration, Fidelity::kJob}) {
    const JobActivityPlan plan(fused_job(4, 3e6), fidelity, 0, kRingLatency);
    EXPECT_NEAR(uncontended_seconds(plan, flops, kRingLatency, bandwidth), expected, expected * 1e-12);
    EXPECT_NEAR(plan.uncontended_work_seconds(flops, bandwidth), expected, expected * 1e-12);
  }
}

TEST(TensorFusion, ParameterServersPushAndPullEachBuffer) {
  // 2 servers, buffers of 3, 3 and 2 MB: per buffer a push and a pull of half of it.
  const JobActivityPlan plan(fused_job(4, 3e6, 2), Fidelity::kIteration, 0, kRingLatency);
  ASSERT_EQ(plan.step_count(), kIterations * 7);
  const std::vector<JobStep::Kind> kinds{JobStep::Kind::kPush, JobStep::Kind::kPull};
  const std::vector<double> bytes{1.5e6, 1.5e6, 1.5e6, 1.5e6, 1e6, 1e6};
  for (std::uint64_t k = 1; k <= 6; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(plan.step(k).kind, kinds[(k - 1) % 2]);
    EXPECT_DOUBLE_EQ(plan.step(k).amount, bytes[k - 1]);
  }
}

TEST(TensorFusion, ABufferAsLargeAsTheGradientsChangesNothing) {
  const JobActivityPlan fused(fused_job(4, 8e6), Fidelity::kIteration, 0, kRingLatency);
  const JobActivityPlan plain(training_job(4), Fidelity::kIteration, 0, kRingLatency);
  ASSERT_EQ(fused.step_count(), plain.step_count());
  for (std::uint64_t k = 0; k < plain.step_count(); ++k) EXPECT_EQ(fused.step(k).amount, plain.step(k).amount);
}

// ---- hierarchical allreduce --------------------------------------------------------------

JobSpec hierarchical_job(std::uint32_t gpus, std::uint64_t iterations) {
  JobSpec job = training_job(gpus, iterations);
  std::get<TrainingWork>(job.work).hierarchical_allreduce = true;
  return job;
}

TEST(HierarchicalAllreduce, EachIterationReduceScattersInsideThenRingsAcrossThenGathersInside) {
  // 2 nodes of 4: 3 steps of S/4 inside, 2 of S/8 across, 3 of S/4 inside.
  const Hierarchy two_by_four{2, 4, 9e-6, 1e9};
  const JobActivityPlan plan(hierarchical_job(8, 2), Fidelity::kIteration, 0, 1e-6, 1.0, 0, 1, two_by_four);
  ASSERT_EQ(plan.step_count(), 2u * 9u);
  const std::vector<JobStep::Kind> kinds{
      JobStep::Kind::kCompute,   JobStep::Kind::kIntraNode, JobStep::Kind::kIntraNode,
      JobStep::Kind::kIntraNode, JobStep::Kind::kInterNode, JobStep::Kind::kInterNode,
      JobStep::Kind::kIntraNode, JobStep::Kind::kIntraNode, JobStep::Kind::kIntraNode};
  for (std::uint64_t k = 0; k < 9; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(plan.step(k).kind, kinds[k]);
    if (k > 0) {
      EXPECT_DOUBLE_EQ(plan.step(k).amount, kinds[k] == JobStep::Kind::kIntraNode ? 2e6 : 1e6);
    }
  }
}

TEST(HierarchicalAllreduce, JobFidelityMergesTheStepsInsideAndAcrossAndDelaysTheirOtherLatencies) {
  // 3 iterations in one round: inside 6 x S/4 x 3, across 2 x S/8 x 3; the
  // latencies: 3 x (6 x 1 us + 2 x 9 us) less the two the merged steps pay.
  const Hierarchy two_by_four{2, 4, 9e-6, 1e9};
  const JobActivityPlan plan(hierarchical_job(8, 3), Fidelity::kJob, 0, 1e-6, 1.0, 0, 1, two_by_four);
  ASSERT_EQ(plan.step_count(), 4u);
  EXPECT_EQ(plan.step(1).kind, JobStep::Kind::kIntraNode);
  EXPECT_DOUBLE_EQ(plan.step(1).amount, 6 * 2e6 * 3);
  EXPECT_EQ(plan.step(2).kind, JobStep::Kind::kInterNode);
  EXPECT_DOUBLE_EQ(plan.step(2).amount, 2 * 1e6 * 3);
  EXPECT_EQ(plan.step(3).kind, JobStep::Kind::kDelay);
  EXPECT_NEAR(plan.step(3).amount, 3 * (6 * 1e-6 + 2 * 9e-6) - 10e-6, 1e-18);
}

TEST(HierarchicalAllreduce, UncontendedWorkIsTheClosedForm) {
  // Per iteration: 2(L-1)(alpha + S/(L B)) + 2(M-1)(alpha' + S/(L M B')).
  const Hierarchy two_by_four{2, 4, 9e-6, 0.5e9};
  const JobActivityPlan plan(hierarchical_job(8, 3), Fidelity::kJob, 0, 1e-6, 1.0, 0, 1, two_by_four);
  const double expected = 3 * (kFlopsPerIteration / 1e12 + 6 * (1e-6 + 2e6 / 1e9) + 2 * (9e-6 + 1e6 / 0.5e9));
  EXPECT_NEAR(plan.uncontended_work_seconds(1e12, 1e9), expected, expected * 1e-12);
}

}  // namespace
}  // namespace gcsim
