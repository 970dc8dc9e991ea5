// What a placement costs a job, on a crafted cluster where every figure is
// known by hand: node 0 holds GPUs 0 and 1 of type "fast" (10 TFLOP/s), node 1
// GPUs 2 and 3 of type "slow" (4 TFLOP/s); GPUs of one node are 1 us and
// 100 GB/s apart, GPUs of two nodes 5 us and 10 GB/s.
#include "sim/model/placement_costs.hpp"

#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

class TwoNodeLocality final : public Locality {
 public:
  std::size_t hops(GpuId a, GpuId b) const override { return a == b ? 0 : same_node(a, b) ? 2 : 4; }
  double bottleneck_bandwidth(GpuId a, GpuId b) const override {
    return a == b ? kNever : same_node(a, b) ? 100e9 : 10e9;
  }
  double path_latency(GpuId a, GpuId b) const override { return a == b ? 0 : same_node(a, b) ? 1e-6 : 5e-6; }

 private:
  static bool same_node(GpuId a, GpuId b) { return a / 2 == b / 2; }
};

ClusterLayout fast_and_slow_nodes(double latency_factor = 1, double bandwidth_factor = 1) {
  ClusterSpec spec;
  spec.name = "fast-and-slow";
  spec.gpu_types = {{"fast", 10e12, 32e9}, {"slow", 4e12, 16e9}};
  spec.node_groups = {testing::crafted_node_group("f", 1, 2, "fast"), testing::crafted_node_group("s", 1, 2, "slow")};
  spec.fabric.nodes_per_rack = 2;
  spec.network.latency_factor = latency_factor;
  spec.network.bandwidth_factor = bandwidth_factor;
  return ClusterLayout(spec);
}

// 1 TFLOP per iteration, but a "slow" GPU does an iteration's work in half of that.
JobSpec training_job(double share = 1) {
  JobSpec job;
  job.id = "train";
  job.gpu_share = share;
  TrainingWork work;
  work.flops_per_iteration = 1e12;
  work.flops_per_iteration_by_gpu_type = {{"slow", 0.5e12}};
  job.work = work;
  return job;
}

JobSpec measured_job(const std::string& type, bool rescale = true, double share = 1) {
  JobSpec job;
  job.id = "measured";
  job.gpu_share = share;
  job.work = MeasuredWork{100, type, rescale};
  return job;
}

const TwoNodeLocality kLocality;

TEST(RingLatency, IsTheSlowestEdgeTimesTheLatencyFactor) {
  EXPECT_DOUBLE_EQ(ring_latency({0, 1}, kLocality, 1), 1e-6);
  EXPECT_DOUBLE_EQ(ring_latency({0, 1}, kLocality, 2), 2e-6);
  EXPECT_DOUBLE_EQ(ring_latency({0, 1, 2}, kLocality, 1), 5e-6);  // edges 1->2 and 2->0 cross nodes
  EXPECT_EQ(ring_latency({3}, kLocality, 1), 0);                  // no edge
}

TEST(RingBandwidth, IsTheNarrowestEdgeTimesTheBandwidthFactor) {
  EXPECT_DOUBLE_EQ(ring_bandwidth({0, 1}, kLocality, 1), 100e9);
  EXPECT_DOUBLE_EQ(ring_bandwidth({0, 1}, kLocality, 0.5), 50e9);
  EXPECT_DOUBLE_EQ(ring_bandwidth({1, 0, 2, 3}, kLocality, 1), 10e9);
  EXPECT_EQ(ring_bandwidth({2}, kLocality, 1), kNever);  // a ring of one sends nothing
}

TEST(SlowestGpuFlops, IsTheSlowestTypeAmongTheGpus) {
  const ClusterLayout layout = fast_and_slow_nodes();
  EXPECT_EQ(slowest_gpu_flops(layout, {0, 1}), 10e12);
  EXPECT_EQ(slowest_gpu_flops(layout, {1, 2}), 4e12);
  EXPECT_EQ(slowest_gpu_flops(layout, {}), kNever);
}

TEST(ComputeScales, FollowTheThroughputTablePerGpuType) {
  const ClusterLayout layout = fast_and_slow_nodes();
  EXPECT_EQ(compute_scales(training_job(), layout, {0, 2, 3}), (std::vector<double>{1, 0.5, 0.5}));
  JobSpec no_table = training_job();
  std::get<TrainingWork>(no_table.work).flops_per_iteration_by_gpu_type.clear();
  EXPECT_EQ(compute_scales(no_table, layout, {0, 2}), (std::vector<double>{1, 1}));
  EXPECT_EQ(compute_scales(measured_job("fast"), layout, {0, 2}), (std::vector<double>{1, 1}));
}

// A pipeline plan of two stages of two GPUs (stage 1 twice stage 0's work,
// m = 3) on four H100s, every stage limited to 700 W: at full speed, scale
// 1. A run started under 550 W caps every GPU in the 500 W state (speed
// 0.9), as a cluster cap of 550 W does: the whole pipeline 1 / 0.9 longer.
TEST(ComputeScales, ARunLimitCapsAPipelinePlanAsAClusterCapDoes) {
  ClusterSpec spec;
  spec.name = "h100s";
  spec.gpu_types = {{"H100", 1e15, 80e9}};
  spec.node_groups = {testing::crafted_node_group("n", 1, 4, "H100")};
  JobSpec job;
  job.id = "pipeline";
  PhasedWork work;
  StagePowerPlan plan;
  plan.stages = {2, 2};
  plan.micro_batches = 3;
  plan.forward_flops = {1, 2};
  plan.backward_flops = {2, 4};
  plan.limits_watts = {700, 700};
  work.power_plan = std::make_shared<const StagePowerPlan>(plan);
  job.work = work;
  const std::vector<GpuId> gpus{0, 1, 2, 3};
  EXPECT_EQ(compute_scales(job, ClusterLayout(spec), gpus), std::vector<double>(4, 1.0));
  const std::vector<double> under_run_limit = compute_scales(job, ClusterLayout(spec), gpus, 550);
  for (const double scale : under_run_limit) EXPECT_DOUBLE_EQ(scale, 1 / 0.9);
  spec.gpu_power_cap_watts = 550;
  EXPECT_EQ(compute_scales(job, ClusterLayout(spec), gpus), under_run_limit);
}

TEST(SlowestEffectiveFlops, CountsTheShareAndTheScale) {
  const ClusterLayout layout = fast_and_slow_nodes();
  const JobSpec half = training_job(0.5);
  // fast: 10e12 x 0.5 / 1 = 5e12; slow: 4e12 x 0.5 / 0.5 = 4e12.
  EXPECT_DOUBLE_EQ(slowest_effective_flops(half, layout, {0, 2}, {1, 0.5}), 4e12);
  // Without the table the slow GPU is the slower by its FLOP/s alone: 4e12 x 0.5.
  EXPECT_DOUBLE_EQ(slowest_effective_flops(half, layout, {0, 2}, {1, 1}), 2e12);
  // A table can make the slower type the faster in effect: 4e12 / 0.25 = 16e12 > 10e12.
  EXPECT_DOUBLE_EQ(slowest_effective_flops(training_job(), layout, {0, 2}, {1, 0.25}), 10e12);
}

TEST(MeasuredSpeed, IsTheMeasuredTypeAtTheJobsShare) {
  const ClusterLayout layout = fast_and_slow_nodes();
  const auto on = [&](const JobSpec& job, std::vector<GpuId> gpus) {
    return measured_speed(std::get<MeasuredWork>(job.work), job.gpu_share, layout, gpus);
  };
  const MeasuredSpeed same_type = on(measured_job("fast"), {0, 1});
  EXPECT_EQ(same_type.flops, 10e12);
  EXPECT_FALSE(same_type.rescaled);
  const MeasuredSpeed mixed = on(measured_job("fast"), {0, 2});
  EXPECT_EQ(mixed.flops, 10e12);
  EXPECT_TRUE(mixed.rescaled);  // GPU 2 is slow: the run takes longer than measured
  EXPECT_EQ(on(measured_job("fast", true, 0.25), {0}).flops, 2.5e12);
}

TEST(MeasuredSpeed, WithoutRescalingIsTheSlowestGpuItGot) {
  const ClusterLayout layout = fast_and_slow_nodes();
  const MeasuredWork recorded{100, "fast", false};
  const MeasuredSpeed speed = measured_speed(recorded, 0.5, layout, {0, 3});
  EXPECT_EQ(speed.flops, 2e12);  // slow at half: the run lasts the recorded 100 s there
  EXPECT_FALSE(speed.rescaled);
}

TEST(MeasuredSpeed, OfATypeTheClusterLacksIsZero) {
  const ClusterLayout layout = fast_and_slow_nodes();
  const MeasuredSpeed speed = measured_speed(MeasuredWork{100, "H100", true}, 1, layout, {0});
  EXPECT_EQ(speed.flops, 0);
  EXPECT_TRUE(speed.rescaled);
}

TEST(PlacementCosts, GathersEveryCostWithTheNetworkFactors) {
  const ClusterLayout layout = fast_and_slow_nodes(3, 0.5);
  const PlacementCosts training = placement_costs(training_job(), {0, 1, 2, 3}, layout, kLocality);
  EXPECT_DOUBLE_EQ(training.exchange_latency, 15e-6);
  EXPECT_DOUBLE_EQ(training.exchange_bandwidth, 5e9);
  EXPECT_EQ(training.compute_scale, (std::vector<double>{1, 1, 0.5, 0.5}));
  EXPECT_DOUBLE_EQ(training.slowest_gpu_flops, 8e12);  // slow: 4e12 / 0.5
  EXPECT_EQ(training.measured_type_flops, 0);
  EXPECT_FALSE(training.rescaled);

  const PlacementCosts measured = placement_costs(measured_job("slow"), {2, 0}, layout, kLocality);
  EXPECT_EQ(measured.measured_type_flops, 4e12);
  EXPECT_TRUE(measured.rescaled);
  EXPECT_DOUBLE_EQ(measured.slowest_gpu_flops, 4e12);
  EXPECT_DOUBLE_EQ(measured.exchange_latency, 15e-6);
}

}  // namespace
}  // namespace gcsim
