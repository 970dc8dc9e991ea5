// A study becomes its trial jobs; successive halving stops most trials early.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "sim/core/input_error.hpp"
#include "workloads/native_workload.hpp"
#include "workloads/kinds/study/study_expansion.hpp"

namespace gcsim {
namespace {

TEST(SuccessiveHalving, StoppingRungFollowsTheSurvivorCounts) {
  // 27 trials, eta 3, 3 rungs: 27 start, 9 reach rung 1, 3 reach rung 2.
  const SuccessiveHalving halving{3, 3};
  std::map<std::uint32_t, int> per_rung;
  for (std::uint32_t rank = 0; rank < 27; ++rank) ++per_rung[stopping_rung(rank, 27, halving)];
  EXPECT_EQ(per_rung[0], 18);
  EXPECT_EQ(per_rung[1], 6);
  EXPECT_EQ(per_rung[2], 3);
  EXPECT_EQ(stopping_rung(0, 27, {1, 3}), 0u);  // one rung: everyone runs fully
}

StudySpec training_study() {
  StudySpec study;
  study.id = "s";
  study.trials = 9;
  study.gpus_per_trial = 2;
  study.min_gpus = 2;
  study.max_gpus = 8;
  study.trial_work = TrainingWork{1e12, 1e8, 900, {}};
  study.halving = {3, 3};  // budgets 100, 300, 900 iterations
  study.seed = 11;
  return study;
}

TEST(StudyExpansion, TrialsCarryTheStudyAndItsBudgets) {
  const std::vector<JobSpec> trials = expand_study(training_study());
  ASSERT_EQ(trials.size(), 9u);
  std::map<std::uint64_t, int> by_iterations;
  for (const JobSpec& trial : trials) {
    ASSERT_TRUE(trial.study);
    EXPECT_EQ(trial.study->id, "s");
    EXPECT_EQ(trial.study->min_gpus, 2u);
    EXPECT_EQ(trial.study->max_gpus, 8u);
    EXPECT_EQ(trial.gpus, 2u);
    ++by_iterations[std::get<TrainingWork>(trial.work).iterations];
  }
  // 9 trials: 6 stop at 100 iterations, 2 at 300, 1 runs all 900.
  EXPECT_EQ(by_iterations, (std::map<std::uint64_t, int>{{100, 6}, {300, 2}, {900, 1}}));
  EXPECT_EQ(trials.front().id, "s/trial-1");
}

TEST(StudyExpansion, TheSeedDecidesWhichTrialsSurvive) {
  StudySpec other = training_study();
  other.seed = 12;
  auto iterations = [](const std::vector<JobSpec>& trials) {
    std::vector<std::uint64_t> out;
    for (const JobSpec& t : trials) out.push_back(std::get<TrainingWork>(t.work).iterations);
    return out;
  };
  EXPECT_EQ(iterations(expand_study(training_study())), iterations(expand_study(training_study())));
  EXPECT_NE(iterations(expand_study(training_study())), iterations(expand_study(other)));
}

TEST(StudyExpansion, NativeWorkloadReadsStudiesAndWritesTrialsBack) {
  const nlohmann::json doc = nlohmann::json::parse(R"({
    "jobs": [{"id": "solo", "submit": 0, "gpus": 1, "duration": {"seconds": 10, "gpu_type": "V100"}}],
    "studies": [{"id": "hpo", "submit": 5, "trials": 4, "gpus_per_trial": 1, "min_gpus": 1, "max_gpus": 3,
                 "priority": -1, "duration": {"seconds": 90, "gpu_type": "V100"},
                 "successive_halving": {"rungs": 2, "eta": 3}}]})");
  const std::vector<JobSpec> jobs = parse_native_workload(doc, "w.json");
  ASSERT_EQ(jobs.size(), 5u);
  EXPECT_EQ(jobs[0].id, "solo");
  EXPECT_FALSE(jobs[0].study);
  EXPECT_EQ(jobs[1].id, "hpo/trial-1");
  EXPECT_EQ(jobs[1].priority, -1);
  EXPECT_DOUBLE_EQ(jobs[1].submit, 5);
  // 4 trials, eta 3: ceil(4/3) = 2 reach the full 90 s, 2 stop at 30 s.
  int full = 0;
  for (std::size_t i = 1; i < jobs.size(); ++i) full += std::get<MeasuredWork>(jobs[i].work).seconds == 90;
  EXPECT_EQ(full, 2);

  const std::vector<JobSpec> again = parse_native_workload(native_workload_json(jobs), "again.json");
  ASSERT_EQ(again.size(), jobs.size());
  ASSERT_TRUE(again[1].study);
  EXPECT_EQ(again[1].study->max_gpus, 3u);
  EXPECT_EQ(std::get<MeasuredWork>(again[4].work).seconds, std::get<MeasuredWork>(jobs[4].work).seconds);
}

TEST(StudyExpansion, RejectsAMaximumBelowOneTrial) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"studies": [{"id": "narrow", "submit": 0, "trials": 2,
      "gpus_per_trial": 4, "min_gpus": 1, "max_gpus": 2, "duration": {"seconds": 9, "gpu_type": "V100"}}]})");
  try {
    parse_native_workload(doc, "w.json");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("studies[0] (id 'narrow')"), std::string::npos) << what;
    EXPECT_NE(what.find("max_gpus"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace gcsim
