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

// The good cluster with one field of its node group replaced.
std::string with_group_field(const std::string& field, nlohmann::json value) {
  nlohmann::json cluster = nlohmann::json::parse(good_cluster());
  cluster["node_groups"][0][field] = std::move(value);
  return cluster.dump(2);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadInput,
    ::testing::Values(
        BadInputCase{"unknown_policy",
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
        BadInputCase{
            "duration_beyond_the_horizon",
            good_cluster(),
            workload_json({measured_job("ok", 0, 1, 10), measured_job("forever", 1, 1, 1e300)}),
            "fifo",
            1,
            {"workload.json", "jobs[1] (id 'forever').duration", "field 'seconds'", "at most 1e9 s", "got 1e300 s"}},
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
        BadInputCase{"wrong_type_of_a_job_field",
                     good_cluster(),
                     workload_json({with(measured_job("typo", 0, 1, 10), "gpus", "eight")}),
                     "fifo",
                     1,
                     {"workload.json", "jobs[0] (id 'typo')", "field 'gpus'", "integer", "\"eight\""}},
        BadInputCase{"wrong_type_of_a_cluster_field",
                     with_group_field("gpus_per_node", "eight"),
                     good_workload(),
                     "fifo",
                     1,
                     {"cluster.json", "node_groups[0]", "field 'gpus_per_node'", "\"eight\""}},
        BadInputCase{"gpu_share_out_of_range",
                     good_cluster(),
                     workload_json({with(measured_job("greedy", 0, 1, 10), "gpu_share", 2)}),
                     "fifo",
                     1,
                     {"workload.json", "greedy", "field 'gpu_share'", "(0, 1]", "got 2"}},
        BadInputCase{"node_group_of_an_unknown_gpu_type",
                     with_group_field("gpu_type", "A100"),
                     good_workload(),
                     "fifo",
                     1,
                     {"cluster.json", "node_groups[0]", "field 'gpu_type'", "unknown GPU type 'A100'", "GPU"}},
        BadInputCase{"node_group_of_zero_nodes",
                     with_group_field("count", 0),
                     good_workload(),
                     "fifo",
                     1,
                     {"cluster.json", "node_groups[0]", "field 'count'", "got 0"}},
        BadInputCase{"dependency_on_an_unknown_job",
                     good_cluster(),
                     workload_json({measured_job("first", 0, 1, 10),
                                    with(measured_job("second", 0, 1, 10), "after", {"nosuch"})}),
                     "fifo",
                     1,
                     {"workload.json", "jobs[1] (id 'second')", "field 'after'", "'nosuch'"}},
        BadInputCase{"duplicate_job_id",
                     good_cluster(),
                     workload_json({measured_job("twin", 0, 1, 10), measured_job("other", 0, 1, 10),
                                    measured_job("twin", 5, 1, 10)}),
                     "fifo",
                     1,
                     {"workload.json", "jobs[2] (id 'twin')", "field 'id'", "duplicate job id 'twin'", "jobs[0]"}},
        BadInputCase{"empty_workload_file", good_cluster(), "", "fifo", 1, {"workload.json", "empty file"}},
        BadInputCase{"empty_cluster_file", "\n", good_workload(), "fifo", 1, {"cluster.json", "empty file"}},
        BadInputCase{
            "unknown_gpu_type_for_measured_job",
            good_cluster(),
            workload_json({with(measured_job("k80", 0, 1, 10), "duration", {{"seconds", 10}, {"gpu_type", "K80"}})}),
            "fifo",
            1,
            {"workload.json", "k80", "gpu_type", "K80"}}),
    [](const ::testing::TestParamInfo<BadInputCase>& info) { return std::string(info.param.name); });

TEST(BadInputQueue, AJobOfAQueueTheCapacityConfigDoesNotDefineIsNamed) {
  ScratchDir dir;
  const auto config = dir.write("yarn.json", R"({"yarn.scheduler.capacity.root.queues": "prod,research",
      "yarn.scheduler.capacity.root.prod.capacity": 60, "yarn.scheduler.capacity.root.research.capacity": 40})");
  const auto workload = dir.write("workload.json", workload_json({with(measured_job("a", 0, 2, 10), "queue", "prod"),
                                                                  with(measured_job("b", 1, 2, 10), "queue", "dev")}));
  const GcsimRun run = run_simulation(dir.write("cluster.json", good_cluster()), workload, dir / "out",
                                      {"--policy-opt", "config=" + config}, "capacity");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  for (const std::string part : {"yarn.json", "job 'b'", "field 'queue'", "no queue 'dev'", "root.prod"})
    EXPECT_NE(run.err.find(part), std::string::npos) << part << ": " << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

// A CSV trace read with the columns id, submit, gpus, duration.
GcsimRun run_csv_trace(const ScratchDir& dir, const std::string& csv, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> options{"--trace-opt", "map=id=id,submit=submit,gpus=gpus,duration=duration", "--trace-opt",
                                   "gpu_type=GPU"};
  options.insert(options.end(), extra.begin(), extra.end());
  return run_simulation(dir.write("cluster.json", good_cluster()), "csv:" + dir.write("trace.csv", csv), dir / "out",
                        options);
}

void expect_rejected(const ScratchDir& dir, const GcsimRun& run, const std::vector<std::string>& parts) {
  EXPECT_EQ(run.exit_code, 1) << run.err;
  for (const std::string& part : parts) EXPECT_NE(run.err.find(part), std::string::npos) << part << ": " << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

TEST(BadInputTrace, AnEmptyTraceIsNamed) {
  ScratchDir dir;
  expect_rejected(dir, run_csv_trace(dir, ""), {"trace.csv", "empty file", "header"});
}

TEST(BadInputTrace, AHeaderWithoutRowsIsAnErrorNamingTheFile) {
  ScratchDir dir;
  expect_rejected(dir, run_csv_trace(dir, "id,submit,gpus,duration\n"), {"trace.csv", "no replayable job"});
}

TEST(BadInputTrace, ADuplicateJobIdNamesBothLinesWhenStrict) {
  ScratchDir dir;
  const std::string csv = "id,submit,gpus,duration\nj1,0,2,10\nj1,5,4,20\n";
  expect_rejected(dir, run_csv_trace(dir, csv, {"--trace-opt", "strict=true"}),
                  {"trace.csv", "line 3", "field 'id'", "duplicate job id", "'j1'", "line 2"});
  // Not strict, the row is skipped and counted as malformed.
  const GcsimRun lenient = run_csv_trace(dir, csv);
  ASSERT_EQ(lenient.exit_code, 0) << lenient.err;
  EXPECT_NE(lenient.err.find("1 jobs from 2 rows; 1 rows skipped (1 malformed)"), std::string::npos) << lenient.err;
}

TEST(BadInputTrace, ASubmissionBeyondTheHorizonNamesTheLineWhenStrict) {
  ScratchDir dir;
  const std::string csv = "id,submit,gpus,duration\nj1,0,2,10\nj2,1e300,4,20\n";
  expect_rejected(dir, run_csv_trace(dir, csv, {"--trace-opt", "strict=true"}),
                  {"trace.csv", "line 3", "field 'submit'", "beyond the horizon", "got 1e300 s"});
  const GcsimRun lenient = run_csv_trace(dir, csv);
  ASSERT_EQ(lenient.exit_code, 0) << lenient.err;
  EXPECT_NE(lenient.err.find("1 rows skipped (1 malformed)"), std::string::npos) << lenient.err;
}

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
