// Jobs that wait for others ("after"): ids resolved in any order of the file,
// written back, and each mistake named.
#include "workloads/job_dependencies.hpp"

#include <gtest/gtest.h>

#include "sim/core/input_error.hpp"
#include "workloads/native_workload.hpp"

namespace gcsim {
namespace {

nlohmann::json job(const std::string& id, std::vector<std::string> after = {}) {
  nlohmann::json j = {{"id", id}, {"submit", 0}, {"gpus", 1}, {"duration", {{"seconds", 10}, {"gpu_type", "V100"}}}};
  if (!after.empty()) j["after"] = after;
  return j;
}

std::string rejection(const nlohmann::json& doc) {
  try {
    parse_native_workload(doc, "w.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(JobDependencies, NameJobsEarlierOrLaterInTheFile) {
  nlohmann::json train = job("train", {"prepare", "fetch"});
  train["after_delay"] = "2min";
  const std::vector<JobSpec> jobs =
      parse_native_workload({{"jobs", {job("fetch"), train, job("prepare"), job("deploy", {"train"})}}}, "w.json");
  EXPECT_EQ(jobs[1].after(), (std::vector<JobIndex>{2, 0}));
  EXPECT_DOUBLE_EQ(jobs[1].after_delay(), 120);
  EXPECT_EQ(jobs[3].after(), (std::vector<JobIndex>{1}));
  EXPECT_TRUE(jobs[0].after().empty());
  // Written back as ids, and read again the same.
  const std::vector<JobSpec> again = parse_native_workload(native_workload_json(jobs), "again.json");
  EXPECT_EQ(again[1].after(), jobs[1].after());
  EXPECT_DOUBLE_EQ(again[1].after_delay(), 120);
}

TEST(JobDependencies, AnUnknownIdIsNamedWithItsJob) {
  const std::string what = rejection({{"jobs", {job("a"), job("b", {"a", "nope"})}}});
  for (const char* part : {"w.json", "jobs[1] (id 'b')", "after", "'nope'"})
    EXPECT_NE(what.find(part), std::string::npos) << what;
}

TEST(JobDependencies, ACycleIsNamedInOrder) {
  const std::string what = rejection({{"jobs", {job("x"), job("a", {"c"}), job("b", {"a"}), job("c", {"b"})}}});
  EXPECT_NE(what.find("jobs[1] (id 'a')"), std::string::npos) << what;
  EXPECT_NE(what.find("a -> c -> b -> a"), std::string::npos) << what;
  EXPECT_NE(rejection({{"jobs", {job("self", {"self"})}}}).find("self -> self"), std::string::npos);
}

TEST(JobDependencies, RepeatsAndDelaysWithoutDependenciesAreRejected) {
  EXPECT_NE(rejection({{"jobs", {job("a"), job("b", {"a", "a"})}}}).find("names job 'a' twice"), std::string::npos);
  nlohmann::json alone = job("alone");
  alone["after_delay"] = 5;
  EXPECT_NE(rejection({{"jobs", {alone}}}).find("after_delay"), std::string::npos);
  nlohmann::json negative = job("b", {"a"});
  negative["after_delay"] = -1;
  EXPECT_NE(rejection({{"jobs", {job("a"), negative}}}).find("after_delay"), std::string::npos);
}

TEST(JobDependencies, ALongChainResolvesWithoutRecursion) {
  nlohmann::json list = nlohmann::json::array();
  for (int i = 0; i < 200000; ++i)
    list.push_back(i == 0 ? job("j0") : job("j" + std::to_string(i), {"j" + std::to_string(i - 1)}));
  const std::vector<JobSpec> jobs = parse_native_workload({{"jobs", list}}, "w.json");
  EXPECT_EQ(jobs.back().after(), (std::vector<JobIndex>{199998}));
}

}  // namespace
}  // namespace gcsim
