// Specification of the workload-versus-cluster check, on small clusters
// written out in code where the answer is known by hand.
#include "workloads/workload_validation.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/crafted_specs.hpp"
#include "sim/core/input_error.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "workloads/native_workload.hpp"

namespace gcsim {
namespace {

using testing::crafted_node_group;

const std::string kLabel = "jobs.json";

// 4 nodes x 8 V100 (32 GB): 32 GPUs.
ClusterSpec rack_of_v100() {
  ClusterSpec spec;
  spec.name = "rack";
  spec.gpu_types = {{"V100", 15.7e12, 32e9}};
  spec.node_groups = {crafted_node_group("dgx", 4, 8, "V100")};
  spec.fabric.nodes_per_rack = 4;
  return spec;
}

// 1 node x 8 V100 (32 GB) and 2 nodes x 4 K80 (12 GB); A100 defined but absent.
ClusterSpec mixed() {
  ClusterSpec spec;
  spec.name = "mixed";
  spec.gpu_types = {{"V100", 15.7e12, 32e9}, {"K80", 4.37e12, 12e9}, {"A100", 19.5e12, 80e9}};
  spec.node_groups = {crafted_node_group("dgx", 1, 8, "V100"), crafted_node_group("old", 2, 4, "K80")};
  return spec;
}

JobSpec training_job(const std::string& id, std::uint32_t gpus, double memory = 0) {
  JobSpec job;
  job.id = id;
  job.gpus = gpus;
  job.gpu_memory_bytes = memory;
  job.work = TrainingWork{1e12, 1e8, 100, {}};
  return job;
}

JobSpec measured_job(const std::string& id, std::uint32_t gpus, const std::string& gpu_type) {
  JobSpec job;
  job.id = id;
  job.gpus = gpus;
  job.work = MeasuredWork{600, gpu_type};
  return job;
}

// The check throws an InputError whose message holds every fragment.
void expect_rejected(const std::vector<JobSpec>& jobs, const ClusterSpec& cluster,
                     const std::vector<std::string>& fragments) {
  const ClusterLayout layout(cluster);
  try {
    validate_workload_against_cluster(jobs, layout, kLabel);
    ADD_FAILURE() << "workload accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(kLabel), std::string::npos) << what;
    for (const std::string& fragment : fragments) EXPECT_NE(what.find(fragment), std::string::npos) << what;
  }
}

TEST(WorkloadValidation, AcceptsJobsThatFit) {
  const ClusterLayout layout(rack_of_v100());
  const std::vector<JobSpec> jobs = {training_job("a", 32, 32e9), training_job("b", 1), measured_job("c", 16, "V100")};
  EXPECT_NO_THROW(validate_workload_against_cluster(jobs, layout, kLabel));
}

TEST(WorkloadValidation, RejectsJobNeedingMoreGpusThanTheCluster) {
  expect_rejected({training_job("ok", 8), training_job("huge", 64)}, rack_of_v100(),
                  {"jobs[1] (id 'huge')", "'gpus'", "needs 64 GPUs, cluster 'rack' has 32"});
}

TEST(WorkloadValidation, RejectsAShareOfAGpuBelowAMillionth) {
  JobSpec tiny = training_job("tiny", 1);
  tiny.gpu_share = 1e-7;
  expect_rejected({training_job("ok", 1), tiny}, rack_of_v100(), {"jobs[1] (id 'tiny')", "'gpu_share'", "millionth"});
  tiny.gpu_share = 1e-6;
  EXPECT_NO_THROW(validate_workload_against_cluster({tiny}, ClusterLayout(rack_of_v100()), kLabel));
}

TEST(WorkloadValidation, RejectsMemoryLargerThanEveryGpu) {
  expect_rejected({training_job("big-model", 2, 40e9)}, mixed(),
                  {"jobs[0] (id 'big-model')", "'gpu_memory'", "largest GPU memory", "32 GB", "V100"});
}

TEST(WorkloadValidation, IgnoresGpuTypesNoNodeCarries) {
  // A100 (80 GB) is defined by the cluster but no node has one.
  expect_rejected({training_job("big-model", 1, 40e9)}, mixed(), {"'gpu_memory'", "V100"});
}

TEST(WorkloadValidation, RejectsMoreGpusWithEnoughMemoryThanExist) {
  // 16 GPUs in all, but only the 8 V100 have 20 GB.
  expect_rejected({training_job("wide", 12, 20e9)}, mixed(),
                  {"jobs[0] (id 'wide')", "'gpu_memory'", "12 GPUs", "only 8"});
}

TEST(WorkloadValidation, AcceptsAsManyGpusWithEnoughMemoryAsExist) {
  const ClusterLayout layout(mixed());
  EXPECT_NO_THROW(validate_workload_against_cluster({training_job("fits", 8, 20e9)}, layout, kLabel));
  // All 16 GPUs, of both types: a job allowing them to mix.
  JobSpec small = training_job("small", 16, 12e9);
  small.mixed_gpu_types = true;
  EXPECT_NO_THROW(validate_workload_against_cluster({small}, layout, kLabel));
}

// 1 node x 8 T4 and 1 node x 8 A10: 16 GPUs, 8 of each type.
ClusterSpec t4_and_a10() {
  ClusterSpec spec;
  spec.name = "t4-a10";
  spec.gpu_types = {{"T4", 65e12, 16e9}, {"A10", 125e12, 24e9}};
  spec.node_groups = {crafted_node_group("t4", 1, 8, "T4"), crafted_node_group("a10", 1, 8, "A10")};
  return spec;
}

TEST(WorkloadValidation, RejectsAJobNoSingleGpuTypeHolds) {
  // 16 GPUs exist, but a job runs on one type unless it allows several: 8 at most.
  expect_rejected({training_job("ok", 8), training_job("wide", 16)}, t4_and_a10(),
                  {"jobs[1] (id 'wide')", "'gpus'", "needs 16 GPUs of one GPU type",
                   "the most cluster 't4-a10' has of one type is 8 (T4)", "gpu_types", "mixed_gpu_types"});
}

TEST(WorkloadValidation, ASingleTypeIsCountedWithTheJobsMemory) {
  // 10 GPUs of 20 GB: only the A10s have that much, and they are 8.
  expect_rejected({training_job("wide", 8, 20e9), training_job("wider", 10, 20e9)}, t4_and_a10(),
                  {"jobs[1] (id 'wider')", "'gpu_memory'", "10 GPUs", "only 8"});
}

TEST(WorkloadValidation, AcceptsAJobAllowingSeveralGpuTypesAcrossThem) {
  const ClusterLayout layout(t4_and_a10());
  JobSpec listing = training_job("listing", 16);
  listing.gpu_types = {"T4", "A10"};
  JobSpec mixing = training_job("mixing", 16);
  mixing.mixed_gpu_types = true;
  EXPECT_NO_THROW(validate_workload_against_cluster({listing, mixing}, layout, kLabel));
}

TEST(WorkloadValidation, RejectsMeasuredWorkOnUnknownGpuType) {
  expect_rejected({measured_job("trace-1", 1, "V100"), measured_job("trace-2", 1, "P100")}, mixed(),
                  {"jobs[1] (id 'trace-2')", "duration.gpu_type", "'P100'", "V100, K80, A100"});
}

TEST(WorkloadValidation, MeasuredWorkMayNameADefinedTypeNoNodeCarries) {
  // The run time is scaled by the type's FLOP/s, which the cluster defines.
  const ClusterLayout layout(mixed());
  EXPECT_NO_THROW(validate_workload_against_cluster({measured_job("t", 1, "A100")}, layout, kLabel));
}

TEST(WorkloadValidation, BundledWorkloadsFitTheirBundledClusters) {
  const std::string root = GCSIM_SOURCE_DIR;
  const ClusterLayout rack(read_cluster_file(root + "/scenarios/clusters/rack-32gpu.json"));
  EXPECT_NO_THROW(validate_workload_against_cluster(read_native_workload(root + "/scenarios/workloads/default.json"),
                                                    rack, "default.json"));
  const ClusterLayout node(read_cluster_file(root + "/scenarios/clusters/node-8gpu-nvlink.json"));
  EXPECT_NO_THROW(validate_workload_against_cluster(read_native_workload(root + "/scenarios/workloads/fifo-hol.json"),
                                                    node, "fifo-hol.json"));
}

}  // namespace
}  // namespace gcsim
