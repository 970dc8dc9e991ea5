// Files as other tools write them: a UTF-8 byte order mark at the start, or
// CRLF line endings, in a JSON cluster or workload or a CSV trace, are read
// as the plain file is, and the run writes the same outputs; quoted CSV
// fields holding line breaks are one field; a trace in UTF-16 or Latin-1 is
// named as such, with the command that converts it, and exits with status 1.
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

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::vector<std::string> kJobsMap = {"--trace-opt", "map=id=id,submit=submit,gpus=gpus,duration=duration",
                                           "--trace-opt", "gpu_type=GPU", "--no-wall-time"};

TEST(InputEncodings, AQuotedCsvFieldHoldingALineBreakIsOneFieldOfOneJob) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const std::string trace = dir.write("named.csv",
                                      "id,name,submit,gpus,duration\n"
                                      "j1,\"train\nb\",0,4,30\n"             // lines 2-3
                                      "j2,\"eval, \"\"quick\"\"\",5,2,20\n"  // line 4
                                      "j3,\"two\r\nline\r\nname\",6,1,10\n"  // lines 5-7
                                      "j4,late,x,1,10\n");                   // line 8
  const GcsimRun run = run_simulation(cluster, "csv:" + trace, dir / "out", kJobsMap);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<std::string> ids;
  for (const auto& [id, row] : read_jobs_csv(dir / "out")) ids.push_back(id);
  EXPECT_EQ(ids, (std::vector<std::string>{"j1", "j2", "j3"}));
  EXPECT_TRUE(has(run.err, "1 rows skipped (1 malformed)")) << run.err;
  std::vector<std::string> strict = kJobsMap;
  strict.insert(strict.end(), {"--trace-opt", "strict=true"});
  const GcsimRun refused = run_simulation(cluster, "csv:" + trace, dir / "strict", strict);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_TRUE(has(refused.err, "named.csv: line 8: field 'submit': not a time")) << refused.err;
}

// `ascii` in UTF-16 little-endian, after a byte-order mark when `mark`.
std::string utf16le(const std::string& ascii, bool mark) {
  std::string out = mark ? "\xFF\xFE" : "";
  for (char c : ascii) out += std::string{c, '\0'};
  return out;
}

TEST(InputEncodings, ATraceInUtf16OrLatin1IsNamedWithTheCommandThatConvertsIt) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const std::string csv = "id,submit,gpus,duration\nj1,0,4,30\nj2,5,8,20\n";
  struct Case {
    std::string name, content, encoding, fix;
  };
  const Case cases[] = {
      {"marked.csv", utf16le(csv, true), "UTF-16 little-endian", "iconv -f UTF-16 -t UTF-8"},
      {"bare.csv", utf16le(csv, false), "UTF-16 little-endian", "iconv -f UTF-16LE -t UTF-8"},
      {"latin1.csv", "id,submit,gpus,duration,r\xE9sum\xE9\nj1,0,4,30,a\n",
       "not UTF-8 text (byte 26 of the line is 0xE9; it looks like Latin-1", "iconv -f LATIN1 -t UTF-8"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string trace = dir.write(c.name, c.content);
    const std::string fix = c.fix + " " + trace + " > " + trace + ".utf8";
    const GcsimRun stats = run_gcsim(
        {"trace", "stats", trace, "--format", "csv", "--map", "id=id,submit=submit,gpus=gpus,duration=duration"});
    EXPECT_EQ(stats.exit_code, 1);
    EXPECT_TRUE(has(stats.err, trace + ": ")) << stats.err;
    EXPECT_TRUE(has(stats.err, c.encoding)) << stats.err;
    EXPECT_TRUE(has(stats.err, fix)) << stats.err;
    EXPECT_FALSE(has(stats.err, "missing column")) << stats.err;
    const GcsimRun run = run_simulation(cluster, "csv:" + trace, dir / ("out-" + c.name), kJobsMap);
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_TRUE(has(run.err, c.encoding)) << run.err;
    EXPECT_TRUE(has(run.err, fix)) << run.err;
  }
  // Given as a native workload, the file is named by its encoding, not as JSON that does not parse.
  const GcsimRun native = run_simulation(cluster, dir / "marked.csv", dir / "native");
  EXPECT_EQ(native.exit_code, 1);
  EXPECT_TRUE(has(native.err, "UTF-16 little-endian")) << native.err;
}

}  // namespace
}  // namespace gcsim::testing
