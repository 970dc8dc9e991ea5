// The questions asked of a job's form of work (sim/core/work_forms.hpp and
// job_spec.hpp's): each form's name, its input pipeline, its workers on
// cores, whether it is a serving replica or a notebook, whether it runs on
// cores and its compute scale, on crafted jobs.
#include "sim/core/work_forms.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

namespace gcsim {
namespace {

// One work of each form, in the order of JobWork's alternatives.
std::vector<JobWork> one_of_each_form() {
  return {TrainingWork{}, MeasuredWork{}, DagWork{}, NotebookWork{}, ServingWork{}, CpuWork{}, PhasedWork{}};
}

JobSpec job_of(JobWork work, std::uint32_t gpus) {
  JobSpec job;
  job.id = "j";
  job.gpus = gpus;
  job.work = std::move(work);
  return job;
}

TEST(FormName, NamesEachFormAsJobsCsvWritesIt) {
  EXPECT_EQ(form_name(TrainingWork{}), "training");
  EXPECT_EQ(form_name(MeasuredWork{}), "measured");
  EXPECT_EQ(form_name(DagWork{}), "dag");
  EXPECT_EQ(form_name(NotebookWork{}), "notebook");
  EXPECT_EQ(form_name(ServingWork{}), "serving");
  EXPECT_EQ(form_name(CpuWork{}), "cpu");
  EXPECT_EQ(form_name(PhasedWork{}), "llm_training");
}

TEST(FormName, ListsTheFormsInTheOrderOfTheVariant) {
  const std::vector<JobWork> forms = one_of_each_form();
  ASSERT_EQ(forms.size(), std::size(kFormNames));
  for (std::size_t i = 0; i < forms.size(); ++i) {
    EXPECT_EQ(forms[i].index(), i);
    EXPECT_EQ(form_name(forms[i]), kFormNames[i]);
  }
}

TEST(InputPipelineOf, IsATrainingJobsPipelineOnRealDataOnly) {
  TrainingWork real_data;
  real_data.input_pipeline = {256, 500};
  const JobWork work = real_data;
  const InputPipeline* pipeline = input_pipeline_of(work);
  ASSERT_NE(pipeline, nullptr);
  EXPECT_DOUBLE_EQ(pipeline->core_seconds(2), 2 * 256 / 500.0);
  EXPECT_EQ(input_pipeline_of(TrainingWork{}), nullptr);  // synthetic data: nothing to decode
  for (const JobWork& other : one_of_each_form())
    if (other.index() != 0) {
      EXPECT_EQ(input_pipeline_of(other), nullptr) << form_name(other);
    }
}

TEST(CpuWorkersOf, CountsADagsCpuPoolsWorkersAlone) {
  DagWork dag;
  dag.pools = {{"render", 2, false}, {"encode", 3, true}, {"upload", 1, true}};
  EXPECT_EQ(cpu_workers_of(dag), 4u);  // 3 + 1; the 2 GPU workers hold GPUs
  for (const JobWork& other : one_of_each_form()) EXPECT_EQ(cpu_workers_of(other), 0u) << form_name(other);
}

TEST(ReplicaOf, GivesAServingReplicasDeploymentAndSlot) {
  auto deployment = std::make_shared<const ServingSpec>();
  const JobWork work = ServingWork{deployment, 2};
  const ServingWork* replica = replica_of(work);
  ASSERT_NE(replica, nullptr);
  EXPECT_EQ(replica->deployment, deployment);
  EXPECT_EQ(replica->slot, 2u);
  for (const JobWork& other : one_of_each_form())
    if (other.index() != 4) {
      EXPECT_EQ(replica_of(other), nullptr) << form_name(other);
    }
}

TEST(NotebookOf, GivesANotebooksActivity) {
  const JobWork work = NotebookWork{{{60, 30}, {120, 10}}, 2};
  const NotebookWork* notebook = notebook_of(work);
  ASSERT_NE(notebook, nullptr);
  EXPECT_DOUBLE_EQ(notebook->seconds(), 220);
  EXPECT_EQ(notebook->hold, 2u);
  for (const JobWork& other : one_of_each_form())
    if (other.index() != 3) {
      EXPECT_EQ(notebook_of(other), nullptr) << form_name(other);
    }
}

TEST(IsCpuJob, IsTheCpuFormAlone) {
  for (const JobWork& work : one_of_each_form()) EXPECT_EQ(is_cpu_job(work), work.index() == 5) << form_name(work);
}

TEST(RunsOnCpu, IsAFormThatMayHoldNoGpuAskingForNone) {
  // DAGs, serving replicas and CPU jobs asking for no GPU run on cores.
  const bool on_cores[] = {false, false, true, false, true, true, false};
  static_assert(std::size(on_cores) == std::variant_size_v<JobWork>, "a value for every form");
  for (const JobWork& work : one_of_each_form()) {
    EXPECT_EQ(runs_on_cpu(job_of(work, 0)), on_cores[work.index()]) << form_name(work);
    EXPECT_FALSE(runs_on_cpu(job_of(work, 1))) << form_name(work);
  }
}

TEST(ComputeScaleOn, IsATrainingJobsFlopsOnTheTypeOverItsOwn) {
  TrainingWork training;
  training.flops_per_iteration = 4e12;
  training.set_flops_on("K80", 6e12);
  EXPECT_DOUBLE_EQ(compute_scale_on(job_of(training, 1), "K80"), 1.5);
  EXPECT_DOUBLE_EQ(compute_scale_on(job_of(training, 1), "V100"), 1);       // not listed: its own FLOPs
  EXPECT_DOUBLE_EQ(compute_scale_on(job_of(TrainingWork{}, 1), "K80"), 1);  // no FLOPs given
  for (const JobWork& other : one_of_each_form())
    EXPECT_DOUBLE_EQ(compute_scale_on(job_of(other, 1), "K80"), 1) << form_name(other);
}

}  // namespace
}  // namespace gcsim
