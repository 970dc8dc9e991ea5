// Specification of the streaming workload reader (read_native_workload on a
// stream): it reads the same jobs and reports the same errors, in the same
// order, as parse_native_workload on the whole document, and locates
// malformed JSON by line and column however far into the file it is.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "workloads/native_workload.hpp"

namespace gcsim {
namespace {

const std::string kLabel = "w.json";

std::vector<JobSpec> read_streamed(const std::string& text) {
  std::istringstream in(text);
  return read_native_workload(in, kLabel);
}

// The message of the error reading `text` throws; fails the test if it reads.
template <class Read>
std::string error_of(Read read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

std::string streamed_error(const std::string& text) {
  return error_of([&] { read_streamed(text); });
}

// What reading the whole document says: the reference the stream must match.
std::string whole_document_error(const std::string& text) {
  return error_of([&] { parse_native_workload(parse_json_text(text, kLabel), kLabel); });
}

std::string job(int i, const std::string& extra = "") {
  return R"({"id": "j)" + std::to_string(i) + R"(", "submit": )" + std::to_string(i) +
         R"(, "gpus": 1, "duration": {"seconds": 60, "gpu_type": "V100"})" + extra + "}";
}

// A workload of `count` jobs, one per line, the job at `bad` given `extra` fields.
std::string many_jobs(int count, int bad = -1, const std::string& extra = "") {
  std::string text = "{\"jobs\": [\n";
  for (int i = 0; i < count; ++i) text += job(i, i == bad ? extra : "") + (i + 1 < count ? ",\n" : "\n");
  return text + "]}\n";
}

TEST(NativeWorkloadStream, ReadsTheSameJobsAsTheWholeDocument) {
  const std::string text =
      R"({"studies": [{"id": "s", "submit": 0, "trials": 2, "duration": {"seconds": 10, "gpu_type": "V100"}}],
    "jobs": [
      {"id": "a", "user": "u", "queue": "q", "submit": "1min", "gpus": 2, "gpu_memory": "12GB", "priority": -3,
       "training": {"flops_per_iteration": 1.2e13, "gradient_bytes": "100MB", "iterations": 18446744073709551615,
                    "flops_per_iteration_by_gpu_type": {"K80": 2e13}}},
      {"id": "b", "submit": 7.5, "gpus": 1, "gpu_types": ["V100"], "checkpoint": {"interval": 60},
       "duration": {"seconds": 3600, "gpu_type": "V100", "rescale": false}},
      {"id": "c", "submit": 0, "frame_chain": {"frames": 2, "elements": 2}}]})";
  const std::vector<JobSpec> streamed = read_streamed(text);
  const std::vector<JobSpec> whole = parse_native_workload(parse_json_text(text, kLabel), kLabel);
  ASSERT_EQ(streamed.size(), 5u);
  // Written back, both give the same document: every field read the same.
  EXPECT_EQ(native_workload_json(streamed), native_workload_json(whole));
  EXPECT_EQ(streamed[0].id, "a");
  EXPECT_EQ(std::get<TrainingWork>(streamed[0].work).iterations, 18446744073709551615u);
  EXPECT_EQ(streamed[3].id, "s/trial-1");  // the study's trials follow the jobs
}

TEST(NativeWorkloadStream, ARepeatedKeyKeepsItsLastValueAsTheWholeDocumentDoes) {
  const std::string text = R"({"jobs": [{"id": "x", "submit": 0, "gpus": 1,
    "duration": {"seconds": 5, "gpu_type": "V100"}}], "jobs": [)" +
                           job(1) + R"(, )" + job(2, R"(, "gpus": 4, "gpus": 3)") + "]}";
  const std::vector<JobSpec> streamed = read_streamed(text);
  ASSERT_EQ(streamed.size(), 2u);
  EXPECT_EQ(streamed[0].id, "j1");
  EXPECT_EQ(streamed[1].gpus, 3u);
  EXPECT_EQ(native_workload_json(streamed),
            native_workload_json(parse_native_workload(parse_json_text(text, kLabel), kLabel)));
}

TEST(NativeWorkloadStream, AnErrorInTheMiddleOfALongFileNamesItsJob) {
  const std::string text = many_jobs(5000, 3217, R"(, "gpu": 2)");
  const std::string error = streamed_error(text);
  EXPECT_EQ(error, whole_document_error(text));
  EXPECT_EQ(error.rfind("w.json: jobs[3217] (id 'j3217'): field 'gpu': unknown field (expected one of: ", 0), 0u)
      << error;
}

TEST(NativeWorkloadStream, ADuplicateIdNamesBothJobs) {
  std::string text = many_jobs(3000);
  text.replace(text.find("\"j2500\""), 7, "\"j1200\"");
  EXPECT_EQ(streamed_error(text),
            "w.json: jobs[2500] (id 'j1200'): field 'id': duplicate job id 'j1200' (first used by "
            "jobs[1200] (id 'j1200'))");
  EXPECT_EQ(streamed_error(text), whole_document_error(text));
}

TEST(NativeWorkloadStream, AStudyTrialReusingAJobIdNamesTheStudyAndTheJob) {
  const std::string study = R"({"id": "s", "submit": 0, "trials": 2, "duration": {"seconds": 10, "gpu_type": "V100"}})";
  const std::string text = R"({"studies": [)" + study + R"(], "jobs": [{"id": "s/trial-1", "submit": 0, "gpus": 1,
    "duration": {"seconds": 5, "gpu_type": "V100"}}]})";
  EXPECT_EQ(streamed_error(text),
            "w.json: studies[0] (id 's'): field 'id': duplicate job id 's/trial-1' (first used by jobs[0] (id "
            "'s/trial-1'))");
  EXPECT_EQ(streamed_error(text), whole_document_error(text));
  const std::string twice = R"({"studies": [)" + study + ", " + study + "]}";
  EXPECT_EQ(streamed_error(twice),
            "w.json: studies[1] (id 's'): field 'id': duplicate job id 's/trial-1' (first used by studies[0] (id "
            "'s'))");
}

TEST(NativeWorkloadStream, MalformedJsonDeepInTheFileIsLocatedByLineAndColumn) {
  std::string text = many_jobs(4000);
  // Line 2 holds jobs[0], so jobs[2999] is on line 3001: break its "gpus" colon.
  const std::size_t at = text.find("\"j2999\"");
  text.replace(text.find("\"gpus\": 1", at), 9, "\"gpus\" 1");
  const std::string error = streamed_error(text);
  EXPECT_EQ(error, whole_document_error(text));
  EXPECT_EQ(error.rfind("w.json: line 3001, column ", 0), 0u) << error;
  EXPECT_NE(error.find("malformed JSON"), std::string::npos) << error;
}

TEST(NativeWorkloadStream, ANumberTooLargeForADoubleIsLocatedLikeASyntaxError) {
  std::string text = many_jobs(3000);
  // jobs[1999] is on line 2001: its submit time overflows a double.
  const std::size_t at = text.find("\"j1999\"");
  const std::size_t submit = text.find("\"submit\": 1999", at);
  text.replace(submit, 14, "\"submit\": 1e999");
  const std::string error = streamed_error(text);
  EXPECT_EQ(error, whole_document_error(text));
  EXPECT_EQ(error.rfind("w.json: line 2001, column ", 0), 0u) << error;
  EXPECT_NE(error.find("malformed JSON: number overflow parsing '1e999'"), std::string::npos) << error;
}

TEST(NativeWorkloadStream, MalformedJsonAfterABadJobIsReportedFirst) {
  // Reading the whole document finds the syntax error before looking at any job.
  std::string text = many_jobs(100, 10, R"(, "gpus": 0)");
  text.insert(text.rfind(']'), ",");
  const std::string error = streamed_error(text);
  EXPECT_EQ(error, whole_document_error(text));
  EXPECT_NE(error.find("malformed JSON"), std::string::npos) << error;
}

TEST(NativeWorkloadStream, TrailingGarbageIsMalformed) {
  const std::string text = many_jobs(3) + "{\"jobs\": []}";
  const std::string error = streamed_error(text);
  EXPECT_EQ(error, whole_document_error(text));
  EXPECT_EQ(error.rfind("w.json: line 6, column ", 0), 0u) << error;
}

TEST(NativeWorkloadStream, AnUnknownTopLevelFieldAfterTheJobsComesBeforeTheirErrors) {
  const std::string text = "{\"jobs\": [" + job(0, R"(, "gpus": 0)") + "], \"job\": 1, \"aaa\": {\"x\": [1]}}";
  const std::string error = streamed_error(text);
  EXPECT_EQ(error, whole_document_error(text));
  EXPECT_EQ(error, "w.json: field 'aaa': unknown field (expected one of: jobs, studies)");
}

TEST(NativeWorkloadStream, AnEmptyJobsArrayListsNoJobs) {
  EXPECT_EQ(streamed_error(R"({"jobs": []})"), "w.json: field 'jobs': the workload lists no jobs");
  EXPECT_EQ(streamed_error(R"({"jobs": null})"), whole_document_error(R"({"jobs": null})"));
  EXPECT_EQ(streamed_error(R"({})"), whole_document_error(R"({})"));
}

TEST(NativeWorkloadStream, TheTopLevelAndTheJobsMustHaveTheirTypes) {
  for (const std::string text :
       {R"([{"id": "a"}])", "17", R"({"jobs": {"id": "a"}})", R"({"jobs": [3]})", R"({"jobs": [null]})",
        R"({"jobs": [[]]})", R"({"studies": {}})", R"({"jobs": [], "studies": [{"id": "s"}]})"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(streamed_error(text), whole_document_error(text));
  }
}

TEST(NativeWorkloadStream, NestedFieldsAreCheckedAsInTheWholeDocument) {
  const std::vector<std::string> extras = {
      R"(, "checkpoint": {"interval": 0})",
      R"(, "training": {"flops_per_iteration": 1, "gradient_bytes": 0, "iterations": 1})",
      R"(, "gpu_types": ["V100", "V100"])",
      R"(, "study": {"id": "s", "min_gpus": 4, "max_gpus": 2})",
  };
  for (const std::string& extra : extras) {
    SCOPED_TRACE(extra);
    const std::string text = many_jobs(20, 13, extra);
    const std::string error = streamed_error(text);
    EXPECT_EQ(error, whole_document_error(text));
    EXPECT_NE(error.find("jobs[13] (id 'j13')"), std::string::npos) << error;
  }
}

TEST(NativeWorkloadStream, AFileBeyondPlainJsonIsReadAsTheWholeDocumentIs) {
  // Escapes and UTF-8 deep in the file: the fast reading gives way to nlohmann's.
  std::string text = many_jobs(3000);
  text.replace(text.find("\"j2900\""), 7, "\"j2900-caf\\u00e9\"");
  text.replace(text.find("\"j2950\""), 7, "\"j2950-\xc3\xa9\"");
  const std::vector<JobSpec> streamed = read_streamed(text);
  ASSERT_EQ(streamed.size(), 3000u);
  EXPECT_EQ(streamed[2900].id, "j2900-caf\xc3\xa9");
  EXPECT_EQ(streamed[2950].id, "j2950-\xc3\xa9");
  EXPECT_EQ(native_workload_json(streamed),
            native_workload_json(parse_native_workload(parse_json_text(text, kLabel), kLabel)));
  // A bad job before the escape is still the error, as in the whole document.
  std::string bad = many_jobs(3000, 100, R"(, "gpus": 0)");
  bad.replace(bad.find("\"j2900\""), 7, "\"j\\u0041\"");
  EXPECT_EQ(streamed_error(bad), whole_document_error(bad));
}

TEST(NativeWorkloadStream, AMissingFileCannotBeOpened) {
  EXPECT_EQ(error_of([] { read_native_workload("/nonexistent/w.json"); }), "/nonexistent/w.json: cannot open file");
}

TEST(NativeWorkloadWriter, WritesTheDocumentDumpedWithIndentOne) {
  const std::string text = R"({"jobs": [
    {"id": "a\nb", "user": "u", "submit": 1.25, "gpus": 2, "gpu_types": ["V100", "K80"],
     "training": {"flops_per_iteration": 1e13, "gradient_bytes": 0, "iterations": 3}},
    {"id": "d", "submit": 0, "dag": {"pools": [{"name": "p"}], "tasks": [{"id": "t", "pool": "p", "seconds": 1},
     {"id": "u", "pool": "p", "seconds": 2, "after": [{"task": "t", "bytes": 5}]}]}}]})";
  for (const std::vector<JobSpec>& jobs : {read_streamed(text), std::vector<JobSpec>{}}) {
    std::ostringstream written;
    write_native_workload(written, jobs);
    EXPECT_EQ(written.str(), native_workload_json(jobs).dump(1) + "\n");
  }
}

}  // namespace
}  // namespace gcsim
