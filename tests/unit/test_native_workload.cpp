// Specification of gcsim's native workload format: what it reads, what it
// writes back, and the errors a user sees for each kind of mistake.
#include "workloads/native_workload.hpp"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"

namespace gcsim {
namespace {

const std::string kLabel = "workload.json";

std::string bundled(const std::string& name) { return std::string(GCSIM_SOURCE_DIR) + "/scenarios/workloads/" + name; }

// Two valid jobs, one of each kind; tests break one field at a time.
nlohmann::json two_jobs() {
  return nlohmann::json::parse(R"({"jobs": [
    {"id": "resnet50-a", "user": "alice", "queue": "research", "submit": 0, "gpus": 8, "gpu_memory": "12GB",
     "training": {"flops_per_iteration": 1.2e13, "gradient_bytes": "100MB", "iterations": 1000}},
    {"id": "trace-17", "submit": "2h", "gpus": 2, "duration": {"seconds": 3600, "gpu_type": "V100"}}]})");
}

// Parsing `doc` throws an InputError whose message names the file, every
// fragment given (the job, the field) and nothing is silently accepted.
void expect_rejected(const nlohmann::json& doc, const std::vector<std::string>& fragments) {
  try {
    parse_native_workload(doc, kLabel);
    ADD_FAILURE() << "accepted: " << doc.dump();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(kLabel), std::string::npos) << what;
    for (const std::string& fragment : fragments) EXPECT_NE(what.find(fragment), std::string::npos) << what;
  }
}

void expect_same_jobs(const std::vector<JobSpec>& a, const std::vector<JobSpec>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(a[i].id);
    EXPECT_EQ(a[i].id, b[i].id);
    EXPECT_EQ(a[i].user, b[i].user);
    EXPECT_EQ(a[i].queue, b[i].queue);
    EXPECT_EQ(a[i].submit, b[i].submit);
    EXPECT_EQ(a[i].gpus, b[i].gpus);
    EXPECT_EQ(a[i].gpu_memory_bytes, b[i].gpu_memory_bytes);
    EXPECT_EQ(a[i].gpu_share, b[i].gpu_share);
    EXPECT_EQ(a[i].cpu_cores, b[i].cpu_cores);
    EXPECT_EQ(a[i].memory_bytes, b[i].memory_bytes);
    EXPECT_EQ(a[i].priority, b[i].priority);
    EXPECT_EQ(a[i].qos, b[i].qos);
    EXPECT_EQ(a[i].runtime_estimate, b[i].runtime_estimate);
    EXPECT_EQ(a[i].checkpoint.interval, b[i].checkpoint.interval);
    EXPECT_EQ(a[i].checkpoint.save_cost, b[i].checkpoint.save_cost);
    EXPECT_EQ(a[i].checkpoint.restore_cost, b[i].checkpoint.restore_cost);
    EXPECT_EQ(a[i].checkpoint.at_preemption, b[i].checkpoint.at_preemption);
    EXPECT_EQ(a[i].gpu_types, b[i].gpu_types);
    EXPECT_EQ(a[i].mixed_gpu_types, b[i].mixed_gpu_types);
    ASSERT_EQ(a[i].work.index(), b[i].work.index());
    if (const auto* t = std::get_if<TrainingWork>(&a[i].work)) {
      const auto& u = std::get<TrainingWork>(b[i].work);
      EXPECT_EQ(t->flops_per_iteration, u.flops_per_iteration);
      EXPECT_EQ(t->gradient_bytes, u.gradient_bytes);
      EXPECT_EQ(t->iterations, u.iterations);
      EXPECT_EQ(t->parameter_servers, u.parameter_servers);
      EXPECT_EQ(t->fusion_bytes, u.fusion_bytes);
      EXPECT_EQ(t->hierarchical_allreduce, u.hierarchical_allreduce);
      EXPECT_EQ(t->flops_per_iteration_by_gpu_type, u.flops_per_iteration_by_gpu_type);
    } else if (const auto* m = std::get_if<MeasuredWork>(&a[i].work)) {
      const auto& n = std::get<MeasuredWork>(b[i].work);
      EXPECT_EQ(m->seconds, n.seconds);
      EXPECT_EQ(m->gpu_type, n.gpu_type);
    } else {
      const auto& d = std::get<DagWork>(a[i].work);
      const auto& e = std::get<DagWork>(b[i].work);
      EXPECT_EQ(d.task_overhead, e.task_overhead);
      EXPECT_EQ(d.wake_up, e.wake_up);
      ASSERT_EQ(d.pools.size(), e.pools.size());
      for (std::size_t p = 0; p < d.pools.size(); ++p) {
        EXPECT_EQ(d.pools[p].name, e.pools[p].name);
        EXPECT_EQ(d.pools[p].workers, e.pools[p].workers);
        EXPECT_EQ(d.pools[p].cpu, e.pools[p].cpu);
      }
      ASSERT_EQ(d.tasks.size(), e.tasks.size());
      for (std::size_t t = 0; t < d.tasks.size(); ++t) {
        EXPECT_EQ(d.tasks[t].id, e.tasks[t].id);
        EXPECT_EQ(d.tasks[t].pool, e.tasks[t].pool);
        EXPECT_EQ(d.tasks[t].seconds, e.tasks[t].seconds);
        EXPECT_EQ(d.tasks[t].flops, e.tasks[t].flops);
        ASSERT_EQ(d.tasks[t].after.size(), e.tasks[t].after.size());
        for (std::size_t k = 0; k < d.tasks[t].after.size(); ++k) {
          EXPECT_EQ(d.tasks[t].after[k].task, e.tasks[t].after[k].task);
          EXPECT_EQ(d.tasks[t].after[k].bytes, e.tasks[t].after[k].bytes);
        }
      }
    }
  }
}

TEST(NativeWorkload, ReadsBothKindsOfJobWithUnits) {
  const auto jobs = parse_native_workload(two_jobs(), kLabel);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].id, "resnet50-a");
  EXPECT_EQ(jobs[0].user, "alice");
  EXPECT_EQ(jobs[0].queue, "research");
  EXPECT_EQ(jobs[0].gpus, 8u);
  EXPECT_EQ(jobs[0].gpu_memory_bytes, 12e9);
  const auto& training = std::get<TrainingWork>(jobs[0].work);
  EXPECT_EQ(training.flops_per_iteration, 1.2e13);
  EXPECT_EQ(training.gradient_bytes, 100e6);
  EXPECT_EQ(training.iterations, 1000u);

  EXPECT_EQ(jobs[1].submit, 7200.0);
  const auto& measured = std::get<MeasuredWork>(jobs[1].work);
  EXPECT_EQ(measured.seconds, 3600.0);
  EXPECT_EQ(measured.gpu_type, "V100");
}

TEST(NativeWorkload, UserQueueAndMemoryHaveDefaults) {
  const auto jobs = parse_native_workload(two_jobs(), kLabel);
  EXPECT_EQ(jobs[1].user, "default");
  EXPECT_EQ(jobs[1].queue, "default");
  EXPECT_EQ(jobs[1].gpu_memory_bytes, 0.0);
}

TEST(NativeWorkload, KeepsFileOrderEvenWhenSubmitTimesAreNotSorted) {
  auto doc = two_jobs();
  doc["jobs"][0]["submit"] = "3h";
  const auto jobs = parse_native_workload(doc, kLabel);
  EXPECT_EQ(jobs[0].id, "resnet50-a");
  EXPECT_EQ(jobs[1].id, "trace-17");
}

TEST(NativeWorkload, ReadsTheBundledDefaultWorkload) {
  const auto jobs = read_native_workload(bundled("default.json"));
  EXPECT_GE(jobs.size(), 35u);
  EXPECT_LE(jobs.size(), 45u);
  std::set<std::uint32_t> gpu_counts;
  std::set<std::string> users, queues;
  std::size_t training = 0;
  for (const JobSpec& job : jobs) {
    gpu_counts.insert(job.gpus);
    users.insert(job.user);
    queues.insert(job.queue);
    if (std::holds_alternative<TrainingWork>(job.work)) {
      ++training;
      const auto& work = std::get<TrainingWork>(job.work);
      EXPECT_GE(work.iterations, 100u) << job.id;
      EXPECT_LE(work.iterations, 5000u) << job.id;
    } else {
      EXPECT_EQ(std::get<MeasuredWork>(job.work).gpu_type, "V100") << job.id;
    }
  }
  EXPECT_EQ(gpu_counts, (std::set<std::uint32_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(users, (std::set<std::string>{"alice", "bob", "carol"}));
  EXPECT_GE(queues.size(), 2u);
  EXPECT_GT(training, 0u);
  EXPECT_LT(training, jobs.size());
}

TEST(NativeWorkload, ReadsTheBundledHeadOfLineExample) {
  const auto jobs = read_native_workload(bundled("fifo-hol.json"));
  ASSERT_GE(jobs.size(), 3u);
  EXPECT_EQ(jobs[1].gpus, 8u);  // the head of the queue once jobs[0] runs
  for (std::size_t i = 2; i < jobs.size(); ++i) EXPECT_LT(jobs[i].gpus, 8u);
}

TEST(NativeWorkload, RoundTripGivesIdenticalJobs) {
  JobSpec awkward;
  awkward.id = "awkward";
  awkward.user = "bob";
  awkward.queue = "q";
  awkward.submit = 0.1 + 0.2;
  awkward.gpus = 3;
  awkward.gpu_memory_bytes = 1.0 / 3.0 * 1e10;
  TrainingWork awkward_work{1e13 / 7.0, 123456789.123456789, 18446744073709551615ull, {}};
  awkward_work.parameter_servers = 3;
  awkward_work.fusion_bytes = 1e7 / 3;
  awkward.work = awkward_work;
  awkward.cpu_cores = 12;
  awkward.memory_bytes = 64e9 / 3;
  awkward.priority = -4;
  awkward.qos = QosClass::kSpot;
  awkward.runtime_estimate = 7200.5;
  awkward.checkpoint = {600, 12.5, 30};
  JobSpec hierarchical;
  hierarchical.id = "hierarchical";
  hierarchical.gpus = 16;
  TrainingWork hierarchical_work{2e12, 1e8, 10, {}};
  hierarchical_work.hierarchical_allreduce = true;
  hierarchical.work = hierarchical_work;
  hierarchical.checkpoint.at_preemption = true;
  hierarchical.checkpoint.restore_cost = 1.0 / 3.0;
  hierarchical.mixed_gpu_types = true;
  hierarchical.gpu_types = {"V100"};
  JobSpec measured;
  measured.id = "measured";
  measured.submit = 1e-300;
  measured.work = MeasuredWork{2.0 / 3.0, "A100"};
  measured.gpu_share = 1.0 / 3.0;
  JobSpec dag;
  dag.id = "dag";
  dag.gpus = 2;
  dag.cpu_cores = 1;
  DagWork work;
  work.pools = {{"gpu", 2, false}, {"io", 1, true}};
  work.tasks = {
      {"load", 1, 0.1, 0, {}}, {"a", 0, 1.0 / 3.0, 1e12 / 7, {{0, 1e9 / 3}}}, {"b", 0, 0, 5e11, {{1, 0}, {0, 7}}}};
  work.task_overhead = 1e-4 / 3;
  work.wake_up = 2e-5;
  dag.work = work;

  std::vector<JobSpec> jobs = read_native_workload(bundled("default.json"));
  jobs.push_back(awkward);
  jobs.push_back(hierarchical);
  jobs.push_back(measured);
  jobs.push_back(dag);
  const nlohmann::json written = native_workload_json(jobs);
  // Through text, as a file would be.
  const auto reread = parse_native_workload(nlohmann::json::parse(written.dump()), kLabel);
  expect_same_jobs(jobs, reread);
}

TEST(NativeWorkload, GpuShareIsAFractionOfOneGpuAndOneByDefault) {
  auto doc = two_jobs();
  doc["jobs"][0]["gpu_share"] = 0.25;
  const auto jobs = parse_native_workload(doc, kLabel);
  EXPECT_DOUBLE_EQ(jobs[0].gpu_share, 0.25);
  EXPECT_DOUBLE_EQ(jobs[1].gpu_share, 1);
  EXPECT_FALSE(native_workload_json(jobs)["jobs"][1].contains("gpu_share"));
  for (const nlohmann::json& bad :
       {nlohmann::json(0), nlohmann::json(-0.5), nlohmann::json(1.01), nlohmann::json("half"), nlohmann::json(1e-7)}) {
    doc["jobs"][0]["gpu_share"] = bad;
    try {
      parse_native_workload(doc, kLabel);
      ADD_FAILURE() << "gpu_share " << bad.dump() << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("gpu_share"), std::string::npos) << e.what();
    }
  }
}

TEST(NativeWorkload, AShareBelowAMillionthIsReportedAsGivenNotAsZero) {
  auto doc = two_jobs();
  doc["jobs"][0]["gpu_share"] = 1e-9;
  expect_rejected(doc, {"jobs[0]", "field 'gpu_share'", "at least a millionth", "got 1e-09"});
}

TEST(NativeWorkload, CpuCoresBeyondACountAreRejectedNotWrappedToFewer) {
  auto doc = two_jobs();
  doc["jobs"][0]["cpu_cores"] = 4294967297ull;  // 2^32 + 1: one core, were it wrapped
  expect_rejected(doc, {"jobs[0]", "field 'cpu_cores'", "at most 4294967295", "got 4294967297"});
}

TEST(NativeWorkload, ReadsSchedulingHintsAndCheckpoints) {
  auto doc = two_jobs();
  doc["jobs"][0]["cpu_cores"] = 16;
  doc["jobs"][0]["memory"] = "64GB";
  doc["jobs"][0]["priority"] = -2;
  doc["jobs"][0]["runtime_estimate"] = "2h";
  doc["jobs"][0]["checkpoint"] = {{"interval", "30min"}, {"save_cost", 20}, {"restore_cost", "1min"}};
  const auto jobs = parse_native_workload(doc, kLabel);
  EXPECT_EQ(jobs[0].cpu_cores, 16u);
  EXPECT_DOUBLE_EQ(jobs[0].memory_bytes, 64e9);
  EXPECT_EQ(jobs[0].priority, -2);
  EXPECT_DOUBLE_EQ(jobs[0].runtime_estimate, 7200);
  EXPECT_DOUBLE_EQ(jobs[0].checkpoint.interval, 1800);
  EXPECT_DOUBLE_EQ(jobs[0].checkpoint.save_cost, 20);
  EXPECT_DOUBLE_EQ(jobs[0].checkpoint.restore_cost, 60);
  EXPECT_EQ(jobs[1].checkpoint.interval, 0);  // none given
}

TEST(NativeWorkload, QosIsGuaranteedUnlessSpot) {
  auto doc = two_jobs();
  doc["jobs"][0]["qos"] = "spot";
  doc["jobs"][1]["qos"] = "guaranteed";
  auto jobs = parse_native_workload(doc, kLabel);
  EXPECT_EQ(jobs[0].qos, QosClass::kSpot);
  EXPECT_EQ(jobs[1].qos, QosClass::kGuaranteed);
  jobs = parse_native_workload(two_jobs(), kLabel);
  EXPECT_EQ(jobs[0].qos, QosClass::kGuaranteed);  // none given
}

TEST(NativeWorkload, RejectsAQosOtherThanGuaranteedOrSpot) {
  auto doc = two_jobs();
  doc["jobs"][1]["qos"] = "BestEffort";
  expect_rejected(doc, {"jobs[1]", "'qos'", "guaranteed", "spot", "BestEffort"});
  doc["jobs"][1]["qos"] = 1;
  expect_rejected(doc, {"jobs[1]", "'qos'", "guaranteed", "spot"});
}

TEST(NativeWorkload, WriterGivesQosOnlyForSpotJobs) {
  auto doc = two_jobs();
  doc["jobs"][0]["qos"] = "spot";
  const nlohmann::json written = native_workload_json(parse_native_workload(doc, kLabel));
  EXPECT_EQ(written["jobs"][0]["qos"], "spot");
  EXPECT_FALSE(written["jobs"][1].contains("qos"));
}

TEST(NativeWorkload, RejectsCheckpointWithoutInterval) {
  auto doc = two_jobs();
  doc["jobs"][1]["checkpoint"] = {{"save_cost", 5}};
  expect_rejected(doc, {"jobs[1]", "checkpoint", "'interval'", "missing"});
  doc["jobs"][1]["checkpoint"] = {{"save_cost", 5}, {"at_preemption", false}};
  expect_rejected(doc, {"jobs[1]", "checkpoint", "'interval'", "missing"});
}

TEST(NativeWorkload, ACheckpointAtPreemptionNeedsNoInterval) {
  auto doc = two_jobs();
  doc["jobs"][0]["checkpoint"] = {{"at_preemption", true}, {"save_cost", "30s"}};
  doc["jobs"][1]["checkpoint"] = {{"at_preemption", true}, {"interval", "10min"}};
  const auto jobs = parse_native_workload(doc, kLabel);
  EXPECT_TRUE(jobs[0].checkpoint.at_preemption);
  EXPECT_EQ(jobs[0].checkpoint.interval, 0);
  EXPECT_DOUBLE_EQ(jobs[0].checkpoint.save_cost, 30);
  EXPECT_TRUE(jobs[1].checkpoint.at_preemption);
  EXPECT_DOUBLE_EQ(jobs[1].checkpoint.interval, 600);
  doc["jobs"][1]["checkpoint"] = {{"at_preemption", "yes"}};
  expect_rejected(doc, {"jobs[1]", "at_preemption"});
}

TEST(NativeWorkload, RejectsFractionalPriority) {
  auto doc = two_jobs();
  doc["jobs"][0]["priority"] = 1.5;
  expect_rejected(doc, {"jobs[0]", "'priority'", "integer"});
}

TEST(NativeWorkload, RejectsEmptyId) {
  auto doc = two_jobs();
  doc["jobs"][1]["id"] = "";
  expect_rejected(doc, {"jobs[1]", "'id'", "empty"});
}

TEST(NativeWorkload, RejectsMissingId) {
  auto doc = two_jobs();
  doc["jobs"][1].erase("id");
  expect_rejected(doc, {"jobs[1]", "'id'", "missing"});
}

TEST(NativeWorkload, RejectsDuplicateIds) {
  auto doc = two_jobs();
  doc["jobs"][1]["id"] = "resnet50-a";
  expect_rejected(doc, {"jobs[1] (id 'resnet50-a')", "'id'", "duplicate", "jobs[0]"});
}

TEST(NativeWorkload, RejectsNegativeSubmitTime) {
  auto doc = two_jobs();
  doc["jobs"][1]["submit"] = -5;
  expect_rejected(doc, {"(id 'trace-17')", "'submit'", ">= 0"});
}

TEST(NativeWorkload, RejectsNegativeSubmitTimeWithUnit) {
  auto doc = two_jobs();
  doc["jobs"][1]["submit"] = "-2h";
  expect_rejected(doc, {"(id 'trace-17')", "'submit'", ">= 0"});
}

TEST(NativeWorkload, RejectsMalformedSubmitTime) {
  auto doc = two_jobs();
  doc["jobs"][1]["submit"] = "soon";
  expect_rejected(doc, {"(id 'trace-17')", "'submit'", "time"});
}

TEST(NativeWorkload, RejectsZeroGpus) {
  auto doc = two_jobs();
  doc["jobs"][0]["gpus"] = 0;
  expect_rejected(doc, {"(id 'resnet50-a')", "'gpus'", ">= 1"});
}

TEST(NativeWorkload, RejectsFractionalGpus) {
  auto doc = two_jobs();
  doc["jobs"][0]["gpus"] = 1.5;
  expect_rejected(doc, {"(id 'resnet50-a')", "'gpus'", "integer"});
}

TEST(NativeWorkload, RejectsZeroIterations) {
  auto doc = two_jobs();
  doc["jobs"][0]["training"]["iterations"] = 0;
  expect_rejected(doc, {"(id 'resnet50-a')", "training", "'iterations'"});
}

TEST(NativeWorkload, ReadsParameterServersAndDefaultsToARing) {
  auto doc = two_jobs();
  EXPECT_EQ(std::get<TrainingWork>(parse_native_workload(doc, kLabel)[0].work).parameter_servers, 0u);
  doc["jobs"][0]["training"]["parameter_servers"] = 4;
  EXPECT_EQ(std::get<TrainingWork>(parse_native_workload(doc, kLabel)[0].work).parameter_servers, 4u);
}

TEST(NativeWorkload, RejectsZeroOrFractionalParameterServers) {
  for (const nlohmann::json& servers : {nlohmann::json(0), nlohmann::json(1.5), nlohmann::json(-2)}) {
    SCOPED_TRACE(servers.dump());
    auto doc = two_jobs();
    doc["jobs"][0]["training"]["parameter_servers"] = servers;
    expect_rejected(doc, {"(id 'resnet50-a')", "training", "'parameter_servers'"});
  }
}

TEST(NativeWorkload, ReadsTheAllreduceAndRejectsOthersOrOneBesideParameterServers) {
  auto doc = two_jobs();
  EXPECT_FALSE(std::get<TrainingWork>(parse_native_workload(doc, kLabel)[0].work).hierarchical_allreduce);
  doc["jobs"][0]["training"]["allreduce"] = "hierarchical";
  EXPECT_TRUE(std::get<TrainingWork>(parse_native_workload(doc, kLabel)[0].work).hierarchical_allreduce);
  doc["jobs"][0]["training"]["allreduce"] = "tree";
  expect_rejected(doc, {"(id 'resnet50-a')", "'allreduce'", "\"ring\" or \"hierarchical\", got \"tree\""});
  doc["jobs"][0]["training"]["allreduce"] = "hierarchical";
  doc["jobs"][0]["training"]["parameter_servers"] = 2;
  expect_rejected(doc, {"'allreduce'", "parameter_servers"});
}

TEST(NativeWorkload, ReadsATensorFusionBuffer) {
  auto doc = two_jobs();
  doc["jobs"][0]["training"]["fusion_buffer"] = "64MB";
  const std::vector<JobSpec> jobs = parse_native_workload(doc, kLabel);
  EXPECT_DOUBLE_EQ(std::get<TrainingWork>(jobs[0].work).fusion_bytes, 64e6);
}

TEST(NativeWorkload, RejectsAFusionBufferOfNothingOrOfTooManyBuffers) {
  auto doc = two_jobs();
  doc["jobs"][0]["training"]["fusion_buffer"] = 0;
  expect_rejected(doc, {"(id 'resnet50-a')", "training", "'fusion_buffer'"});
  doc["jobs"][0]["training"]["gradient_bytes"] = "1GB";
  doc["jobs"][0]["training"]["fusion_buffer"] = 100;  // ten million buffers per iteration
  expect_rejected(doc, {"'fusion_buffer'", "makes 10000000 buffers", "give a larger buffer"});
}

TEST(NativeWorkload, RejectsZeroFlops) {
  auto doc = two_jobs();
  doc["jobs"][0]["training"]["flops_per_iteration"] = 0;
  expect_rejected(doc, {"(id 'resnet50-a')", "'flops_per_iteration'", "greater than zero"});
}

TEST(NativeWorkload, RejectsNegativeFlops) {
  auto doc = two_jobs();
  doc["jobs"][0]["training"]["flops_per_iteration"] = -1e12;
  expect_rejected(doc, {"(id 'resnet50-a')", "'flops_per_iteration'", "negative"});
}

TEST(NativeWorkload, AcceptsZeroGradientBytes) {
  auto doc = two_jobs();
  doc["jobs"][0]["training"]["gradient_bytes"] = 0;
  EXPECT_EQ(std::get<TrainingWork>(parse_native_workload(doc, kLabel)[0].work).gradient_bytes, 0.0);
}

TEST(NativeWorkload, RejectsNegativeGradientBytes) {
  auto doc = two_jobs();
  doc["jobs"][0]["training"]["gradient_bytes"] = -1;
  expect_rejected(doc, {"(id 'resnet50-a')", "'gradient_bytes'", "negative"});
}

TEST(NativeWorkload, RejectsZeroDuration) {
  auto doc = two_jobs();
  doc["jobs"][1]["duration"]["seconds"] = 0;
  expect_rejected(doc, {"(id 'trace-17')", "duration", "'seconds'", "greater than zero"});
}

TEST(NativeWorkload, RejectsMissingDurationGpuType) {
  auto doc = two_jobs();
  doc["jobs"][1]["duration"].erase("gpu_type");
  expect_rejected(doc, {"(id 'trace-17')", "'gpu_type'", "missing"});
}

TEST(NativeWorkload, RejectsMisspelledJobField) {
  auto doc = two_jobs();
  doc["jobs"][1]["gpu"] = 2;
  expect_rejected(doc, {"(id 'trace-17')", "'gpu'", "unknown field"});
}

TEST(NativeWorkload, RejectsMisspelledTrainingField) {
  auto doc = two_jobs();
  doc["jobs"][0]["training"]["iteration"] = 5;
  expect_rejected(doc, {"(id 'resnet50-a')", "'iteration'", "unknown field"});
}

TEST(NativeWorkload, RejectsMisspelledDurationField) {
  auto doc = two_jobs();
  doc["jobs"][1]["duration"]["second"] = 5;
  expect_rejected(doc, {"(id 'trace-17')", "'second'", "unknown field"});
}

TEST(NativeWorkload, RejectsJobWithBothTrainingAndDuration) {
  auto doc = two_jobs();
  doc["jobs"][1]["training"] = doc["jobs"][0]["training"];
  expect_rejected(doc, {"(id 'trace-17')", "'training'", "both"});
}

TEST(NativeWorkload, RejectsJobWithNeitherTrainingNorDuration) {
  auto doc = two_jobs();
  doc["jobs"][1].erase("duration");
  expect_rejected(doc, {"(id 'trace-17')", "'training'", "'duration'"});
}

nlohmann::json dag_job() {
  return nlohmann::json::parse(R"({"id": "farm", "submit": 0, "dag": {
    "pools": [{"name": "gpu", "workers": 2}, {"name": "io", "workers": 3, "kind": "cpu"}],
    "task_overhead": "150us",
    "tasks": [{"id": "load", "pool": "io", "seconds": "2s"},
              {"id": "a", "pool": "gpu", "flops": "1e12", "after": [{"task": "load", "bytes": "1GB"}]},
              {"id": "b", "pool": "gpu", "seconds": 1, "after": ["a", "load"]}]}})");
}

TEST(NativeWorkload, ReadsDagJobsAndSizesThemByTheirWorkers) {
  const auto jobs = parse_native_workload({{"jobs", {dag_job()}}}, kLabel);
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].gpus, 2u);       // the GPU workers
  EXPECT_EQ(jobs[0].cpu_cores, 3u);  // the CPU workers
  const auto& work = std::get<DagWork>(jobs[0].work);
  EXPECT_DOUBLE_EQ(work.task_overhead, 150e-6);
  ASSERT_EQ(work.tasks.size(), 3u);
  EXPECT_EQ(work.tasks[1].pool, 0u);
  EXPECT_DOUBLE_EQ(work.tasks[1].flops, 1e12);
  EXPECT_EQ(work.tasks[1].after[0].task, 0u);
  EXPECT_DOUBLE_EQ(work.tasks[1].after[0].bytes, 1e9);
  EXPECT_DOUBLE_EQ(work.tasks[2].after[1].bytes, 0);
  EXPECT_TRUE(work.pools[1].cpu);
}

TEST(NativeWorkload, FrameChainShorthandExpandsIntoTheDag) {
  const auto jobs = parse_native_workload(
      nlohmann::json::parse(R"({"jobs": [{"id": "f", "submit": 0, "frame_chain": {"frames": 4, "elements": 2,
         "element_seconds": "50ms", "schedule": "parallel", "element_workers": 2}}]})"),
      kLabel);
  const auto& work = std::get<DagWork>(jobs[0].work);
  EXPECT_EQ(work.tasks.size(), 12u);              // 4 frames x (2 elements + 1 render)
  EXPECT_EQ(jobs[0].gpus, 3u);                    // 2 element workers and a renderer
  EXPECT_DOUBLE_EQ(work.tasks[2].seconds, 0.05);  // renders last as long as elements unless told
}

TEST(NativeWorkload, RejectsBadDags) {
  auto unknown_pool = dag_job();
  unknown_pool["dag"]["tasks"][1]["pool"] = "tpu";
  expect_rejected({{"jobs", {unknown_pool}}}, {"(id 'farm').dag.tasks[1]", "field 'pool'", "unknown pool 'tpu'"});
  auto unknown_task = dag_job();
  unknown_task["dag"]["tasks"][2]["after"][0] = "c";
  expect_rejected({{"jobs", {unknown_task}}}, {"dag.tasks[2]", "field 'after'", "unknown task 'c'"});
  auto twice = dag_job();
  twice["dag"]["tasks"][2]["id"] = "a";
  expect_rejected({{"jobs", {twice}}}, {"dag.tasks[2]", "task 'a' is defined twice"});
  auto cpu_flops = dag_job();
  cpu_flops["dag"]["tasks"][0]["flops"] = 1e9;
  expect_rejected({{"jobs", {cpu_flops}}}, {"field 'dag'", "FLOPs on CPU pool 'io'"});
  auto no_cost = dag_job();
  no_cost["dag"]["tasks"][0].erase("seconds");
  expect_rejected({{"jobs", {no_cost}}}, {"dag.tasks[0]", "field 'seconds'", "'seconds', 'flops' or both"});
  auto kind = dag_job();
  kind["dag"]["pools"][1]["kind"] = "fpga";
  expect_rejected({{"jobs", {kind}}}, {"dag.pools[1]", "field 'kind'", "'gpu' or 'cpu'"});
  auto checkpointed = dag_job();
  checkpointed["checkpoint"] = {{"interval", 60}};
  expect_rejected({{"jobs", {checkpointed}}}, {"field 'checkpoint'", "starts over"});
  checkpointed["checkpoint"] = {{"at_preemption", true}};
  expect_rejected({{"jobs", {checkpointed}}}, {"field 'checkpoint'", "starts over"});
  auto both = dag_job();
  both["duration"] = {{"seconds", 1}, {"gpu_type", "V100"}};
  expect_rejected({{"jobs", {both}}}, {"both 'duration' and 'dag'"});
  auto schedule = nlohmann::json::parse(R"({"id": "f", "submit": 0, "frame_chain": {"schedule": "wavefront"}})");
  expect_rejected({{"jobs", {schedule}}}, {"frame_chain", "field 'schedule'", "'wavefront'"});
}

TEST(NativeWorkload, TimesAndWorkUpToTheHorizonAreRead) {
  auto doc = two_jobs();
  doc["jobs"][0]["submit"] = 1e9;  // the horizon itself: about 31.7 years
  doc["jobs"][0]["training"]["flops_per_iteration"] = 1e24;
  doc["jobs"][0]["training"]["gradient_bytes"] = 1e18;
  doc["jobs"][1]["duration"]["seconds"] = 1e9;
  const auto jobs = parse_native_workload(doc, kLabel);
  EXPECT_EQ(jobs[0].submit, 1e9);
  EXPECT_EQ(std::get<MeasuredWork>(jobs[1].work).seconds, 1e9);
}

TEST(NativeWorkload, RejectsTimesAndWorkBeyondTheHorizonNamingTheField) {
  auto submit = two_jobs();
  submit["jobs"][1]["submit"] = 1e300;
  expect_rejected(submit, {"jobs[1] (id 'trace-17')", "field 'submit'", "at most 1e9 s", "got 1e300 s"});
  auto in_years = two_jobs();
  in_years["jobs"][1]["submit"] = "1e10s";
  expect_rejected(in_years, {"jobs[1]", "field 'submit'", "got 1e10 s"});
  auto duration = two_jobs();
  duration["jobs"][1]["duration"]["seconds"] = 1e300;  // x 15.7e12 FLOP/s would overflow
  expect_rejected(duration, {"jobs[1] (id 'trace-17').duration", "field 'seconds'", "got 1e300 s"});
  auto estimate = two_jobs();
  estimate["jobs"][0]["runtime_estimate"] = 2e9;
  expect_rejected(estimate, {"jobs[0]", "field 'runtime_estimate'", "got 2e9 s"});
  auto checkpoint = two_jobs();
  checkpoint["jobs"][0]["checkpoint"] = {{"interval", 60}, {"restore_cost", 1e12}};
  expect_rejected(checkpoint, {"jobs[0] (id 'resnet50-a').checkpoint", "field 'restore_cost'"});
  auto flops = two_jobs();
  flops["jobs"][0]["training"]["flops_per_iteration"] = 1.5e24;
  expect_rejected(flops, {".training", "field 'flops_per_iteration'", "at most 1e24 FLOPs", "got 1.5e24 FLOPs"});
  auto by_type = two_jobs();
  by_type["jobs"][0]["training"]["flops_per_iteration_by_gpu_type"] = {{"V100", 1e25}};
  expect_rejected(by_type, {"flops_per_iteration_by_gpu_type", "field 'V100'", "got 1e25 FLOPs"});
  auto bytes = two_jobs();
  bytes["jobs"][0]["training"]["gradient_bytes"] = 2e18;
  expect_rejected(bytes, {"field 'gradient_bytes'", "at most 1e18 bytes", "got 2e18 bytes"});
  auto task = dag_job();
  task["dag"]["tasks"][1]["seconds"] = 1e300;
  expect_rejected({{"jobs", {task}}}, {"(id 'farm').dag.tasks[1]", "field 'seconds'", "got 1e300 s"});
  auto frames = nlohmann::json::parse(R"({"id": "f", "submit": 0, "frame_chain": {"render_flops": 1e30}})");
  expect_rejected({{"jobs", {frames}}}, {"frame_chain", "field 'render_flops'", "got 1e30 FLOPs"});
  auto study = nlohmann::json::parse(R"({"studies": [{"id": "s", "submit": 1e12, "trials": 2,
      "duration": {"seconds": 60, "gpu_type": "V100"}}]})");
  expect_rejected(study, {"studies[0] (id 's')", "field 'submit'", "got 1e12 s"});
}

TEST(NativeWorkload, RejectsJobsThatIsNotAnArray) {
  expect_rejected(nlohmann::json::parse(R"({"jobs": {"id": "a"}})"), {"'jobs'", "array"});
}

TEST(NativeWorkload, RejectsMissingJobs) {
  expect_rejected(nlohmann::json::parse(R"({"job": []})"), {"'job'", "unknown field"});
  expect_rejected(nlohmann::json::object(), {"'jobs'", "missing"});
}

TEST(NativeWorkload, RejectsEmptyJobList) {
  expect_rejected(nlohmann::json::parse(R"({"jobs": []})"), {"'jobs'", "no jobs"});
}

TEST(NativeWorkload, RejectsJobThatIsNotAnObject) {
  expect_rejected(nlohmann::json::parse(R"({"jobs": [42]})"), {"jobs[0]", "object"});
}

TEST(NativeWorkload, MissingFileNamesThePath) {
  try {
    read_native_workload("/nonexistent/w.json");
    ADD_FAILURE() << "no error for a missing file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/w.json"), std::string::npos) << e.what();
  }
}

TEST(NativeWorkload, WriterOmitsZeroGpuMemory) {
  const auto jobs = parse_native_workload(two_jobs(), kLabel);
  const nlohmann::json doc = native_workload_json(jobs);
  EXPECT_TRUE(doc["jobs"][0].contains("gpu_memory"));
  EXPECT_FALSE(doc["jobs"][1].contains("gpu_memory"));
}

TEST(NativeWorkload, MixedGpuTypesIsReadAsTrueOrFalse) {
  nlohmann::json doc = two_jobs();
  doc["jobs"][0]["mixed_gpu_types"] = true;
  const auto jobs = parse_native_workload(doc, kLabel);
  EXPECT_TRUE(jobs[0].mixed_gpu_types);
  EXPECT_FALSE(jobs[1].mixed_gpu_types);
  doc["jobs"][1]["mixed_gpu_types"] = "yes";
  expect_rejected(doc, {"jobs[1]", "mixed_gpu_types"});
}

}  // namespace
}  // namespace gcsim
