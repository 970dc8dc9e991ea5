// The text every trace reader shares: line endings of any platform, a
// byte-order mark, a folder given for a file, and the format a file given
// without one looks like.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "sim/core/input_error.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/helios_trace.hpp"
#include "traces/philly_trace.hpp"
#include "traces/trace_formats.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

using testing::TempFolder;

std::vector<std::pair<std::size_t, std::string>> all_lines(const std::string& text) {
  std::istringstream in(text);
  TraceLines lines(in);
  std::vector<std::pair<std::size_t, std::string>> out;
  std::string line;
  while (lines.next(line)) out.emplace_back(lines.number(), line);
  return out;
}

TEST(TraceText, LinesEndAtLfCrLfOrALoneCr) {
  using Lines = std::vector<std::pair<std::size_t, std::string>>;
  // Unix, Windows and old Mac endings, mixed: four lines, the blank one counted.
  EXPECT_EQ(all_lines("a,b\nc,d\r\ne,f\r\rg"), (Lines{{1, "a,b"}, {2, "c,d"}, {3, "e,f"}, {4, ""}, {5, "g"}}));
  // A whole file with CR endings is three lines, not one.
  EXPECT_EQ(all_lines("h\r1\r2\r"), (Lines{{1, "h"}, {2, "1"}, {3, "2"}}));
  EXPECT_TRUE(all_lines("").empty());
}

TEST(TraceText, AByteOrderMarkOpeningTheFileIsNotPartOfTheFirstColumnName) {
  using Lines = std::vector<std::pair<std::size_t, std::string>>;
  EXPECT_EQ(all_lines("\xEF\xBB\xBFjob_id,user\n\xEF\xBB\xBFx\n"),
            (Lines{{1, "job_id,user"}, {2, "\xEF\xBB\xBFx"}}));  // only the file's first bytes are a mark
  // A Helios log saved with a mark reads as without one.
  std::istringstream in(
      "\xEF\xBB\xBFjob_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time\r\n"
      "j1,u,vc1,2,4,1,COMPLETED,2020-05-01 10:00:00,2020-05-01 10:00:10,2020-05-01 10:01:10\r\n");
  const TraceReadResult trace = parse_helios_trace(in, "log.csv", {});
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(trace.jobs[0].id, "j1");
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[0].work).seconds, 60);  // 10:00:10 to 10:01:10
}

TEST(TraceText, APhillyJobLogWithAByteOrderMarkIsStillRecognisedAsTheJsonLog) {
  TempFolder dir;
  const std::string path = dir.write(
      "cluster_job_log",
      "\xEF\xBB\xBF[\n"
      R"({"status": "Pass", "vc": "vc1", "jobid": "app_1", "user": "u1", "submitted_time": "2017-10-03 00:00:00",)"
      R"( "attempts": [{"start_time": "2017-10-03 00:00:10", "end_time": "2017-10-03 01:00:10",)"
      R"( "detail": [{"ip": "m1", "gpus": ["gpu0", "gpu1"]}]}]})"
      "\n]\n");
  const TraceReadResult trace = read_philly_trace(path, {});
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(trace.jobs[0].id, "app_1");
  EXPECT_EQ(trace.jobs[0].gpus, 2u);                                    // the GPUs its attempt lists
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[0].work).seconds, 3600);  // 00:00:10 to 01:00:10
}

TEST(TraceText, AFolderIsNotATraceFile) {
  TempFolder dir;
  std::filesystem::create_directories(dir / "pai");
  dir.write("pai/pai_task_table.csv", "");
  try {
    read_helios_trace(dir.path(), {});
    FAIL() << "read a folder as a Helios log";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), dir.path());
    EXPECT_EQ(e.problem(), "a folder, not a trace file");
  }
  try {
    read_helios_trace(dir / "pai", {});
    FAIL() << "read a PAI folder as a Helios log";
  } catch (const InputError& e) {
    EXPECT_NE(e.problem().find("pai:"), std::string::npos) << e.what();  // it says how to read it
  }
}

// The format guessed for a file NAME holding CONTENT, written in `dir`.
std::optional<TraceFormat> guess_written(const TempFolder& dir, const std::string& name, const std::string& content) {
  return guess_trace_format(dir.write(name, content));
}

TEST(TraceFormats, TheContentOfAFileGivenWithoutAFormatSaysWhichItLooksLike) {
  TempFolder dir;
  const auto guess = [&](const std::string& name, const std::string& content) {
    return guess_written(dir, name, content);
  };
  EXPECT_EQ(guess("w.json", "  {\"jobs\": []}"), TraceFormat::kNative);
  EXPECT_EQ(guess("log.json", "[{\"jobid\": \"a\"}]"), TraceFormat::kPhilly);
  EXPECT_EQ(guess("p.csv", "\xEF\xBB\xBFtimestamp,duration,num_gpus,gpu_time,cluster\r\n"), TraceFormat::kPhilly);
  EXPECT_EQ(guess("h.csv", "\njob_id,user,vc,gpu_num,submit_time,start_time,end_time\n"), TraceFormat::kHelios);
  EXPECT_EQ(guess("log.swf", "; Version: 2.2\n1 0 1 60 4 -1 -1 4 -1 -1 1 1 -1 -1 1 -1 -1 -1\n"), TraceFormat::kSwf);
  EXPECT_EQ(guess("bare.swf", "1 0 1 60 4 -1 -1 4 -1 -1 1 1 -1 -1 1 -1 -1 -1\n"), TraceFormat::kSwf);
  EXPECT_EQ(guess("pods.csv", "name,creation_time,num_gpu\np1,10,1\n"), TraceFormat::kCsv);
  EXPECT_EQ(guess("tabs.tsv", "name\tcreation_time\tnum_gpu\n"), TraceFormat::kCsv);
  EXPECT_EQ(guess("note.txt", "hello\n"), std::nullopt);
  EXPECT_EQ(guess("empty.txt", ""), std::nullopt);
  std::filesystem::create_directories(dir / "pai");
  dir.write("pai/pai_task_table.csv", "j1,worker,1,Terminated,0,60,100,1,100,T4\n");
  EXPECT_EQ(guess_trace_format(dir / "pai"), TraceFormat::kPai);
  EXPECT_EQ(guess_trace_format(dir / "pai/pai_task_table.csv"), TraceFormat::kPai);  // headerless: by its name
  EXPECT_EQ(guess("pai_jobs.json", "{\"jobs\": []}"), TraceFormat::kNative);
  EXPECT_EQ(guess_trace_format(dir / "missing.csv"), std::nullopt);
}

TEST(TraceFormats, StrongerEvidenceWinsWhenTwoFormatsMatchAFile) {
  TempFolder dir;
  const auto guess = [&](const std::string& name, const std::string& content) {
    return guess_written(dir, name, content);
  };
  // A PAI table's name outweighs a header's columns; '{' outweighs the name.
  EXPECT_EQ(guess("pai_x.csv", "timestamp,duration,num_gpus,gpu_time,cluster\n"), TraceFormat::kPai);
  EXPECT_EQ(guess("pai_x.csv", "{\"jobs\": []}"), TraceFormat::kNative);
  EXPECT_EQ(guess("pai_x.csv", "\n\n"), std::nullopt);  // no content, whatever the name
  // An SWF comment line outweighs Philly's columns split at ';'.
  EXPECT_EQ(guess("p.txt", ";timestamp;duration;num_gpus;gpu_time\n"), TraceFormat::kSwf);
  // Philly's and Helios' columns outweigh any header; Philly's come first in the table.
  EXPECT_EQ(guess("both.csv", "timestamp,duration,num_gpus,gpu_time,job_id,gpu_num,submit_time\n"),
            TraceFormat::kPhilly);
  // A JSON object with commas is a workload, not a CSV header.
  EXPECT_EQ(guess("w.txt", "{\"a\": 1, \"b\": 2}\n"), TraceFormat::kNative);
}

TEST(TraceFormats, EveryNameParsesBackToItsFormatWithATitle) {
  std::string list;
  for (const std::string& name : trace_format_names()) {
    const std::optional<TraceFormat> format = parse_trace_format(name);
    ASSERT_TRUE(format) << name;
    EXPECT_EQ(trace_format_name(*format), name);
    EXPECT_FALSE(trace_format_title(*format).empty()) << name;
    list += (list.empty() ? "" : ", ") + name;
  }
  EXPECT_EQ(trace_format_names().size(), 6u);
  EXPECT_EQ(trace_format_list(), list);
  EXPECT_EQ(trace_format_title(TraceFormat::kSwf), "an SWF log");
  EXPECT_EQ(parse_trace_format("Philly"), std::nullopt);  // names are exact
}

TEST(TraceFormats, AWorkloadPrefixThatNamesNoFormatIsReportedUnlessAFileHasTheWholeName) {
  TempFolder dir;
  const WorkloadSource openb = parse_workload_source("openb:" + dir.path() + "/pods.csv");
  EXPECT_FALSE(openb.format);
  EXPECT_EQ(openb.unknown_format, "openb");
  const WorkloadSource philly = parse_workload_source("philly:x.csv");
  EXPECT_EQ(philly.format, TraceFormat::kPhilly);
  EXPECT_EQ(philly.path, "x.csv");
  EXPECT_TRUE(philly.unknown_format.empty());
  // A file whose name holds a colon is a native workload, as before.
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  dir.write("run:1.json", "{}");
  const WorkloadSource file = parse_workload_source("run:1.json");
  std::filesystem::current_path(before);
  EXPECT_TRUE(file.unknown_format.empty());
  EXPECT_EQ(file.path, "run:1.json");
  EXPECT_TRUE(parse_workload_source(dir / "w.json").unknown_format.empty());  // no colon at all
}

}  // namespace
}  // namespace gcsim
