// Tests for the energy accounting (sim/report/energy_meter.hpp,
// power_model.hpp): each term on a crafted two-GPU cluster whose figures are
// counted by hand. The GPUs idle at 50 W, compute at 250 W and communicate
// at 100 W unless a test says otherwise; 3.6e6 J make a kWh.
#include "sim/report/energy_meter.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "sim/report/energy_outputs.hpp"
#include "sim/report/power_model.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

PowerModel two_gpus(double base_watts = 0, double pue = 1.0, double communicating = 100) {
  PowerModel power;
  power.gpus = {GpuPower{50, 250, communicating}, GpuPower{50, 250, communicating}};
  power.base_watts = base_watts;
  power.pue = pue;
  return power;
}

JobSpec job(const std::string& id, const std::string& user, const std::string& queue, double share = 1) {
  JobSpec spec;
  spec.id = id;
  spec.user = user;
  spec.queue = queue;
  spec.gpu_share = share;
  return spec;
}

// The integral of the power steps over [0, end], joules.
double integral(const EnergyReport& r) {
  double joules = 0;
  for (std::size_t i = 0; i < r.power.size(); ++i) {
    const Time until = i + 1 < r.power.size() ? r.power[i + 1].first : r.duration;
    joules += r.power[i].second * (until - r.power[i].first);
  }
  return joules;
}

TEST(EnergyMeter, IdleGpusAndNodeBaseDrawAllTheTimeWithoutJobs) {
  const std::vector<JobSpec> jobs;
  EnergyMeter meter(jobs, two_gpus(/*base_watts=*/100));
  const EnergyReport r = meter.finish(3600);
  EXPECT_DOUBLE_EQ(r.idle_gpu_joules, 2 * 50 * 3600.0);
  EXPECT_DOUBLE_EQ(r.base_joules, 100 * 3600.0);
  EXPECT_DOUBLE_EQ(r.jobs_joules, 0);
  EXPECT_DOUBLE_EQ(r.it_joules, 200 * 3600.0);
  EXPECT_DOUBLE_EQ(r.mean_watts, 200);
  EXPECT_DOUBLE_EQ(r.peak_watts, 200);
  ASSERT_EQ(r.power.size(), 1u);
  EXPECT_EQ(r.power[0], std::make_pair(0.0, 200.0));
}

TEST(EnergyMeter, AJobComputingOnBothGpusDrawsTheirBusyWatts) {
  const std::vector<JobSpec> jobs{job("a", "alice", "research")};
  EnergyMeter meter(jobs, two_gpus(/*base_watts=*/100));
  meter.run_started(0, 0, {0, 1});
  meter.busy(0, 0, 3600, 2, 1.0);
  meter.run_ended(0, 3600, 0.0);
  const EnergyReport r = meter.finish(3600);
  EXPECT_DOUBLE_EQ(r.job_joules[0], 2 * 250 * 3600.0);  // 0.5 kWh
  EXPECT_DOUBLE_EQ(r.job_gpu_seconds[0], 7200);
  EXPECT_DOUBLE_EQ(r.idle_gpu_joules, 0);
  EXPECT_DOUBLE_EQ(r.it_joules, (500 + 100) * 3600.0);
  EXPECT_DOUBLE_EQ(r.peak_watts, 600);
  EXPECT_EQ(jobs_csv_energy_fields(r, 0), ",0.5,0.25");  // 0.5 kWh over 2 GPU-hours
}

TEST(EnergyMeter, ARunStartedUnderAPowerLimitDrawsItsStateWattsTheLowerLimitHolding) {
  // States 250 W at full speed, 200 W at 0.8, 150 W at 0.5; no cluster cap.
  PowerModel power = two_gpus();
  power.type_states = {{{250, 1.0}, {200, 0.8}, {150, 0.5}}};
  power.gpu_type = {0, 0};
  power.gpu_caps = {kNever, kNever};
  std::vector<JobSpec> jobs{job("a", "alice", "research"), job("b", "bob", "research")};
  jobs[1].power_limit_watts = 150;
  EnergyMeter meter(jobs, power);
  meter.run_started(0, 0, {0}, 220);  // 200 W
  meter.busy(0, 0, 100, 1, 1.0);
  meter.run_ended(0, 100, 0.0);
  meter.run_started(1, 0, {1}, 220);  // its own 150 W is lower
  meter.busy(1, 0, 100, 1, 1.0);
  meter.run_ended(1, 100, 0.0);
  const EnergyReport r = meter.finish(100);
  EXPECT_DOUBLE_EQ(r.job_joules[0], 200 * 100.0);
  EXPECT_DOUBLE_EQ(r.job_joules[1], 150 * 100.0);
}

TEST(EnergyMeter, AJobThatComputesThenCommunicatesDrawsBusyThenCommunicatingWatts) {
  const std::vector<JobSpec> jobs{job("a", "alice", "research")};
  EnergyMeter meter(jobs, two_gpus(/*base_watts=*/100));
  meter.run_started(0, 0, {0, 1});
  meter.busy(0, 0, 1000, 2, 1.0);
  meter.run_ended(0, 3000, 0.0);  // communicating from 1000 to 3000
  const EnergyReport r = meter.finish(4000);
  EXPECT_DOUBLE_EQ(r.job_joules[0], 2 * 250 * 1000.0 + 2 * 100 * 2000.0);
  EXPECT_DOUBLE_EQ(r.idle_gpu_joules, 2 * 50 * 1000.0);  // from 3000 to 4000
  EXPECT_DOUBLE_EQ(r.base_joules, 100 * 4000.0);
  const std::vector<std::pair<Time, double>> steps{{0, 600}, {1000, 300}, {3000, 200}};
  EXPECT_EQ(r.power, steps);
  EXPECT_DOUBLE_EQ(r.peak_watts, 600);
  EXPECT_DOUBLE_EQ(r.mean_watts, r.it_joules / 4000);
  EXPECT_NEAR(integral(r), r.it_joules, 1e-6);
}

TEST(EnergyMeter, HoldingWithoutComputingDrawsIdleWattsWhenCommunicatingIsIdle) {
  const std::vector<JobSpec> jobs{job("a", "alice", "research")};
  EnergyMeter meter(jobs, two_gpus(0, 1.0, /*communicating=*/50));
  meter.run_started(0, 0, {0, 1});
  meter.run_ended(0, 1000, 0.0);
  const EnergyReport r = meter.finish(1000);
  EXPECT_DOUBLE_EQ(r.job_joules[0], 2 * 50 * 1000.0);
  EXPECT_DOUBLE_EQ(r.idle_gpu_joules, 0);
  EXPECT_DOUBLE_EQ(r.it_joules, 2 * 50 * 1000.0);
}

TEST(EnergyMeter, AJobOnHalfAGpuIsChargedHalfItsDrawAndTheOtherHalfIsIdle) {
  const std::vector<JobSpec> jobs{job("half", "alice", "research", 0.5)};
  EnergyMeter meter(jobs, two_gpus());
  meter.run_started(0, 0, {0});
  meter.busy(0, 0, 3600, 1, 0.5);
  meter.run_ended(0, 3600, 0.0);
  const EnergyReport r = meter.finish(3600);
  EXPECT_DOUBLE_EQ(r.job_joules[0], 0.5 * 250 * 3600);
  EXPECT_DOUBLE_EQ(r.job_gpu_seconds[0], 1800);
  EXPECT_DOUBLE_EQ(r.idle_gpu_joules, (50 + 25) * 3600.0);  // GPU 1, and GPU 0's other half
  EXPECT_DOUBLE_EQ(r.peak_watts, 125 + 75);
  EXPECT_NEAR(integral(r), r.it_joules, 1e-6);
}

TEST(EnergyMeter, TheFacilityDrawsTheItEnergyTimesThePue) {
  const std::vector<JobSpec> jobs{job("a", "alice", "research")};
  EnergyMeter meter(jobs, two_gpus(100, /*pue=*/1.5));
  meter.run_started(0, 0, {0, 1});
  meter.busy(0, 0, 3600, 2, 1.0);
  meter.run_ended(0, 3600, 0.0);
  const EnergyReport r = meter.finish(3600);
  EXPECT_DOUBLE_EQ(r.it_joules, 600 * 3600.0);
  EXPECT_DOUBLE_EQ(r.facility_joules, 1.5 * 600 * 3600.0);
  EXPECT_DOUBLE_EQ(energy_summary_json(r)["facility_kwh"].get<double>(), 0.9);
}

TEST(EnergyMeter, APreemptedRunLosesItsLostShareOfWhatItDrewAndACutComputationStops) {
  const std::vector<JobSpec> jobs{job("a", "alice", "research")};
  EnergyMeter meter(jobs, two_gpus());
  meter.run_started(0, 0, {0, 1});
  meter.busy(0, 0, 2000, 2, 1.0);         // told to compute until 2000
  meter.busy_cut(0, 2000, 1000, 2, 1.0);  // preempted at 1000
  meter.run_ended(0, 1000, 0.5);          // half its GPU time thrown away
  const EnergyReport r = meter.finish(2000);
  EXPECT_DOUBLE_EQ(r.job_joules[0], 2 * 250 * 1000.0);
  EXPECT_DOUBLE_EQ(r.lost_joules, 0.5 * 2 * 250 * 1000.0);
  EXPECT_DOUBLE_EQ(r.idle_gpu_joules, 2 * 50 * 1000.0);
  const std::vector<std::pair<Time, double>> steps{{0, 500}, {1000, 100}};
  EXPECT_EQ(r.power, steps);
}

// The engine tells a run's end first, then cuts the computation it stopped.
TEST(EnergyMeter, ACutToldRightAfterTheRunEndedStillStopsItsComputation) {
  const std::vector<JobSpec> jobs{job("a", "alice", "research")};
  EnergyMeter meter(jobs, two_gpus());
  meter.run_started(0, 0, {0, 1});
  meter.busy(0, 0, 2000, 2, 1.0);
  meter.run_ended(0, 1000, 1.0);  // failed: all it drew is lost
  meter.busy_cut(0, 2000, 1000, 2, 1.0);
  const EnergyReport r = meter.finish(2000);
  EXPECT_DOUBLE_EQ(r.job_joules[0], 2 * 250 * 1000.0);
  EXPECT_DOUBLE_EQ(r.lost_joules, 2 * 250 * 1000.0);
  const std::vector<std::pair<Time, double>> steps{{0, 500}, {1000, 100}};
  EXPECT_EQ(r.power, steps);
  EXPECT_DOUBLE_EQ(r.peak_watts, 500);
  EXPECT_NEAR(integral(r), r.it_joules, 1e-6);
}

TEST(EnergyMeter, EachUserAndQueueIsChargedItsJobsEnergyAndRunsGoingAtTheEndEndThere) {
  const std::vector<JobSpec> jobs{job("a", "alice", "research"), job("b", "bob", "research")};
  EnergyMeter meter(jobs, two_gpus(0, 1.0, /*communicating=*/50));
  meter.run_started(0, 0, {0});
  meter.busy(0, 0, 100, 1, 1.0);
  meter.run_ended(0, 100, 0.0);
  meter.run_started(1, 50, {1});  // still going at the end
  const EnergyReport r = meter.finish(150);
  EXPECT_DOUBLE_EQ(r.user_joules.at("alice"), 250 * 100.0);
  EXPECT_DOUBLE_EQ(r.user_joules.at("bob"), 50 * 100.0);
  EXPECT_DOUBLE_EQ(r.queue_joules.at("research"), 250 * 100.0 + 50 * 100.0);
  EXPECT_DOUBLE_EQ(r.jobs_joules, r.job_joules[0] + r.job_joules[1]);
  EXPECT_NEAR(integral(r), r.it_joules, 1e-6);
}

TEST(PowerModel, BundledTypesTakeTheirDefaultsAndNodeBaseWattsAddUp) {
  ClusterSpec spec;
  spec.name = "two";
  spec.gpu_types = {GpuType{"V100", 15.7e12, 32e9}, GpuType{"X", 1e12, 16e9, GpuPower{10, 20, 15}}};
  spec.node_groups = {testing::crafted_node_group("v", 2, 4, "V100"), testing::crafted_node_group("x", 1, 2, "X")};
  spec.node_groups[0].base_watts = 300;
  spec.pue = 1.2;
  const ClusterLayout layout(spec);
  const PowerModel power = power_model(layout, "two.json");
  ASSERT_EQ(power.gpus.size(), 10u);
  EXPECT_EQ(power.gpus[0].idle_watts, 50);
  EXPECT_EQ(power.gpus[0].busy_watts, 300);
  EXPECT_EQ(power.gpus[0].communicating_watts, 50);
  EXPECT_EQ(power.gpus[9].communicating_watts, 15);
  EXPECT_EQ(power.base_watts, 600);
  EXPECT_EQ(power.pue, 1.2);
}

TEST(PowerModel, ATypeWithoutPowerOrDefaultIsAnInputErrorNamingIt) {
  ClusterSpec spec;
  spec.name = "odd";
  spec.gpu_types = {GpuType{"Z9", 1e12, 16e9}};
  spec.node_groups = {testing::crafted_node_group("z", 1, 2, "Z9")};
  const ClusterLayout layout(spec);
  try {
    power_model(layout, "odd.json");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "odd.json");
    EXPECT_EQ(error.field(), "power");
    EXPECT_NE(error.problem().find("'Z9'"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace gcsim
