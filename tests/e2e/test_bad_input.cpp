// Bad input gets a clear message naming the file, the job or line, and the
// field; a non-zero exit; and no output files.
#include <gtest/gtest.h>

#include <ostream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

struct BadInputCase {
  const char* name;
  std::string cluster;   // cluster JSON text
  std::string workload;  // workload JSON text
  std::string policy;
  int exit_code;
  std::vector<std::string> message_parts;  // each must appear in stderr
};

std::string good_cluster() { return CraftedCluster{}.to_json(); }  // one node, 8 GPUs of 32 GB
std::string good_workload() { return workload_json({measured_job("ok", 0, 2, 10)}); }

void PrintTo(const BadInputCase& c, std::ostream* os) { *os << c.name; }

class BadInput : public ::testing::TestWithParam<BadInputCase> {};

TEST_P(BadInput, FailsClearlyAndWritesNothing) {
  const BadInputCase& c = GetParam();
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", c.cluster);
  const auto workload = dir.write("workload.json", c.workload);
  const GcsimRun run = run_simulation(cluster, workload, dir / "out", {}, c.policy);
  EXPECT_EQ(run.exit_code, c.exit_code) << run.err;
  for (const std::string& part : c.message_parts) EXPECT_NE(run.err.find(part), std::string::npos) << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

nlohmann::json with(nlohmann::json job, const std::string& field, nlohmann::json value) {
  job[field] = std::move(value);
  return job;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadInput,
    ::testing::Values(BadInputCase{"unknown_policy",
                                   good_cluster(),
                                   good_workload(),
                                   "shortest-first-please",
                                   2,
                                   {"unknown policy 'shortest-first-please'", "fifo"}},
                      BadInputCase{"job_larger_than_cluster",
                                   good_cluster(),
                                   workload_json({measured_job("ok", 0, 2, 10), measured_job("huge", 1, 16, 10)}),
                                   "fifo",
                                   1,
                                   {"workload.json", "huge", "gpus", "16"}},
                      BadInputCase{"job_needs_more_gpu_memory_than_any_gpu",
                                   good_cluster(),
                                   workload_json({with(measured_job("fat", 0, 1, 10), "gpu_memory", "80GB")}),
                                   "fifo",
                                   1,
                                   {"workload.json", "fat", "gpu_memory"}},
                      BadInputCase{"malformed_workload_json",
                                   good_cluster(),
                                   "{\n  \"jobs\": [\n    {\"id\": \"a\",, }\n  ]\n}\n",
                                   "fifo",
                                   1,
                                   {"workload.json", "line 3"}},
                      BadInputCase{"malformed_cluster_json",
                                   "{\"name\": \"x\"\n\"gpu_types\": []}",
                                   good_workload(),
                                   "fifo",
                                   1,
                                   {"cluster.json", "line 2"}},
                      BadInputCase{"missing_job_field",
                                   good_cluster(),
                                   R"({"jobs": [{"id": "nogpus", "submit": 0,
                     "duration": {"seconds": 5, "gpu_type": "GPU"}}]})",
                                   "fifo",
                                   1,
                                   {"workload.json", "nogpus", "gpus"}},
                      BadInputCase{"missing_cluster_field",
                                   R"({"name": "c", "gpu_types": [{"name": "GPU", "flops": 1e12, "memory": 3e10}],
                        "node_groups": [{"name": "n", "count": 1, "gpu_type": "GPU", "cpu_cores": 8, "memory": 1e11,
                        "intra_node": {"kind": "nvlink", "bandwidth": 1e11, "latency": 1e-6},
                        "nic": {"bandwidth": 1e10, "latency": 1e-6}}]})",
                                   good_workload(),
                                   "fifo",
                                   1,
                                   {"cluster.json", "node_groups[0]", "gpus_per_node"}},
                      BadInputCase{"negative_submit_time",
                                   good_cluster(),
                                   workload_json({measured_job("early", -5, 1, 10)}),
                                   "fifo",
                                   1,
                                   {"workload.json", "early", "submit", ">= 0"}},
                      BadInputCase{"negative_duration",
                                   good_cluster(),
                                   workload_json({measured_job("backwards", 0, 1, -3)}),
                                   "fifo",
                                   1,
                                   {"workload.json", "backwards", "seconds"}},
                      BadInputCase{"duration_beyond_the_horizon",
                                   good_cluster(),
                                   workload_json({measured_job("ok", 0, 1, 10), measured_job("forever", 1, 1, 1e300)}),
                                   "fifo",
                                   1,
                                   {"workload.json", "jobs[1] (id 'forever').duration", "field 'seconds'",
                                    "at most 1e9 s", "got 1e300 s"}},
                      BadInputCase{"submit_beyond_the_horizon",
                                   good_cluster(),
                                   workload_json({measured_job("late", 1e300, 1, 10)}),
                                   "fifo",
                                   1,
                                   {"workload.json", "late", "field 'submit'", "got 1e300 s"}},
                      BadInputCase{"gpu_share_below_a_millionth",
                                   good_cluster(),
                                   workload_json({with(measured_job("sliver", 0, 1, 10), "gpu_share", 1e-9)}),
                                   "fifo",
                                   1,
                                   {"workload.json", "sliver", "gpu_share", "got 1e-09"}},
                      BadInputCase{"unknown_gpu_type_for_measured_job",
                                   good_cluster(),
                                   workload_json({with(measured_job("k80", 0, 1, 10), "duration",
                                                       {{"seconds", 10}, {"gpu_type", "K80"}})}),
                                   "fifo",
                                   1,
                                   {"workload.json", "k80", "gpu_type", "K80"}}),
    [](const ::testing::TestParamInfo<BadInputCase>& info) { return std::string(info.param.name); });

TEST(BadCommandLine, UnknownOptionIsAUsageError) {
  const GcsimRun run = run_gcsim({"run", "--clutser", "x.json"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--clutser"), std::string::npos);
}

TEST(BadCommandLine, MissingRequiredOptionIsNamed) {
  ScratchDir dir;
  const GcsimRun run =
      run_gcsim({"run", "--cluster", dir.write("c.json", good_cluster()), "--policy", "fifo", "--out", dir / "out"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--workload"), std::string::npos);
  EXPECT_TRUE(files_in(dir / "out").empty());
}

TEST(BadCommandLine, MissingFileIsNamed) {
  ScratchDir dir;
  const GcsimRun run = run_simulation(dir / "absent.json", dir.write("w.json", good_workload()), dir / "out");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("absent.json"), std::string::npos);
}

TEST(BadCommandLine, UnknownFidelityIsRejected) {
  ScratchDir dir;
  const GcsimRun run = run_simulation(dir.write("c.json", good_cluster()), dir.write("w.json", good_workload()),
                                      dir / "out", {"--fidelity", "packet"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("packet"), std::string::npos);
}

}  // namespace
}  // namespace gcsim::testing
