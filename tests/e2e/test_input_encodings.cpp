// Files as other tools write them: a UTF-8 byte order mark at the start, or
// CRLF line endings, in a JSON cluster or workload or a CSV trace, are read
// as the plain file is, and the run writes the same outputs.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

const std::string kByteOrderMark = "\xEF\xBB\xBF";

std::string with_crlf(const std::string& text) {
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return crlf;
}

std::string workload_text() {
  return workload_json({measured_job("a", 0, 4, 30), measured_job("b", 5, 8, 20), measured_job("c", 6, 2, 10)});
}

// The run's summary.json and jobs.csv, from `cluster` and `workload` texts written as given.
std::string outputs_of(const ScratchDir& dir, const std::string& name, const std::string& cluster,
                       const std::string& workload) {
  const GcsimRun run = run_simulation(dir.write(name + "-cluster.json", cluster),
                                      dir.write(name + "-jobs.json", workload), dir / name, {"--no-wall-time"});
  EXPECT_EQ(run.exit_code, 0) << name << ": " << run.err;
  return read_text(dir / (name + "/summary.json")) + read_text(dir / (name + "/jobs.csv"));
}

TEST(InputEncodings, JsonWithAByteOrderMarkReadsAsWithout) {
  ScratchDir dir;
  const std::string cluster = CraftedCluster{}.to_json();
  const std::string plain = outputs_of(dir, "plain", cluster, workload_text());
  ASSERT_NE(plain.find("\"finished\": 3"), std::string::npos) << plain;
  EXPECT_EQ(outputs_of(dir, "workload-bom", cluster, kByteOrderMark + workload_text()), plain);
  EXPECT_EQ(outputs_of(dir, "cluster-bom", kByteOrderMark + cluster, workload_text()), plain);
}

TEST(InputEncodings, JsonWithCrlfLineEndingsReadsAsWithLf) {
  ScratchDir dir;
  const std::string cluster = CraftedCluster{}.to_json();
  const std::string plain = outputs_of(dir, "plain", cluster, workload_text());
  ASSERT_NE(with_crlf(workload_text()), workload_text());
  EXPECT_EQ(outputs_of(dir, "crlf", with_crlf(cluster), with_crlf(workload_text())), plain);
}

// The run of a CSV trace (id, submit, gpus, duration) given as `csv`, always
// at the same path (summary.json names the trace's file).
std::string trace_outputs_of(const ScratchDir& dir, const std::string& name, const std::string& csv) {
  const GcsimRun run = run_simulation(dir.write(name + "-cluster.json", CraftedCluster{}.to_json()),
                                      "csv:" + dir.write("trace.csv", csv), dir / name,
                                      {"--trace-opt", "map=id=id,submit=submit,gpus=gpus,duration=duration",
                                       "--trace-opt", "gpu_type=GPU", "--no-wall-time"});
  EXPECT_EQ(run.exit_code, 0) << name << ": " << run.err;
  return read_text(dir / (name + "/summary.json")) + read_text(dir / (name + "/jobs.csv"));
}

TEST(InputEncodings, CsvTraceWithAByteOrderMarkOrCrlfReadsAsThePlainOne) {
  ScratchDir dir;
  const std::string csv = "id,submit,gpus,duration\nj1,0,4,30\nj2,5,8,20\nj3,6,2,10\n";
  const std::string plain = trace_outputs_of(dir, "plain", csv);
  ASSERT_NE(plain.find("\"finished\": 3"), std::string::npos) << plain;
  EXPECT_EQ(trace_outputs_of(dir, "bom", kByteOrderMark + csv), plain);
  EXPECT_EQ(trace_outputs_of(dir, "crlf", with_crlf(csv)), plain);
  EXPECT_EQ(trace_outputs_of(dir, "both", kByteOrderMark + with_crlf(csv)), plain);
}

}  // namespace
}  // namespace gcsim::testing
