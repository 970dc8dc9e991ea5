// The text every trace reader shares: a byte-order mark, files in other
// encodings than UTF-8, a folder given for a file, and the format a file
// given without one looks like. (Lines and records: test_csv_records.cpp.)
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "sim/core/input_error.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/helios_trace.hpp"
#include "traces/philly_trace.hpp"
#include "traces/csv_trace.hpp"
#include "traces/swf_trace.hpp"
#include "traces/trace_formats.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

using testing::TempFolder;

TEST(TraceText, AByteOrderMarkOpeningTheFileIsNotPartOfTheFirstColumnName) {
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

// `ascii` in UTF-16 (little- or big-endian), after a byte-order mark when `mark`.
std::string utf16(const std::string& ascii, bool little, bool mark) {
  std::string out = mark ? (little ? "\xFF\xFE" : "\xFE\xFF") : "";
  for (char c : ascii) out += little ? std::string{c, '\0'} : std::string{'\0', c};
  return out;
}

// The message of the InputError that reading `path` as a mapped CSV throws; "" when none.
std::string csv_read_error(const std::string& path) {
  TraceReadOptions options;
  options.columns = parse_csv_column_map("submit=submit,gpus=gpus,duration=duration");
  try {
    read_csv_trace(path, options);
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    return e.problem();
  }
  return "";
}

const std::string kJobs = "submit,gpus,duration\n0,1,10\n5,2,20\n";

TEST(TraceText, AUtf16FileIsNamedAsSuchWithTheCommandThatConvertsIt) {
  TempFolder dir;
  const std::string marked = dir.write("marked.csv", utf16(kJobs, true, true));
  EXPECT_EQ(csv_read_error(marked),
            "the file is in UTF-16 little-endian, not UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8 " + marked +
                " > " + marked + ".utf8");
  // Without a mark, iconv needs the byte order named.
  const std::string bare = dir.write("bare.csv", utf16(kJobs, true, false));
  EXPECT_NE(csv_read_error(bare).find("UTF-16 little-endian, not UTF-8: convert it, e.g. iconv -f UTF-16LE -t UTF-8 "),
            std::string::npos)
      << csv_read_error(bare);
  const std::string big = dir.write("big.csv", utf16(kJobs, false, false));
  EXPECT_NE(csv_read_error(big).find("UTF-16 big-endian, not UTF-8: convert it, e.g. iconv -f UTF-16BE -t UTF-8 "),
            std::string::npos)
      << csv_read_error(big);
  const std::string big_marked = dir.write("big-marked.csv", utf16(kJobs, false, true));
  EXPECT_NE(csv_read_error(big_marked).find("UTF-16 big-endian, not UTF-8: convert it, e.g. iconv -f UTF-16 -t"),
            std::string::npos)
      << csv_read_error(big_marked);
  const std::string utf32 = dir.write("wide.csv", std::string("\xFF\xFE\0\0s\0\0\0", 8));
  EXPECT_NE(csv_read_error(utf32).find("UTF-32 little-endian"), std::string::npos) << csv_read_error(utf32);
}

TEST(TraceText, AHeaderThatIsNotUtf8IsNamedAsAnotherEncoding) {
  TempFolder dir;
  // "durée" in Latin-1: one byte 0xE9 that no UTF-8 text holds alone.
  const std::string latin1 = dir.write("latin1.csv", "submit,gpus,duration,dur\xE9\x65\n0,1,10,1\n");
  EXPECT_EQ(csv_read_error(latin1),
            "not UTF-8 text (byte 25 of the line is 0xE9; it looks like Latin-1 or "
            "Windows-1252): convert it, e.g. iconv -f LATIN1 -t UTF-8 " +
                latin1 + " > " + latin1 + ".utf8");
  // The same header in UTF-8 reads.
  const std::string utf8 = dir.write("utf8.csv", "submit,gpus,duration,dur\xC3\xA9\x65\n0,1,10,1\n");
  EXPECT_EQ(csv_read_error(utf8), "");
  const std::string gzip = dir.write("log.csv.gz", std::string("\x1F\x8B\x08\0\0\0\0\0", 8));
  EXPECT_NE(csv_read_error(gzip).find("compressed (gzip)"), std::string::npos) << csv_read_error(gzip);
}

TEST(TraceText, EveryReaderNamesTheEncoding) {
  TempFolder dir;
  std::istringstream swf(utf16("1 0 1 60 4 -1 -1 4 -1 -1 1 1 -1 -1 1 -1 -1 -1\n", true, true));
  try {
    parse_swf_trace(swf, "log.swf", {});
    FAIL() << "read a UTF-16 SWF log";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "log.swf");
    EXPECT_NE(e.problem().find("UTF-16 little-endian"), std::string::npos) << e.what();
  }
  std::istringstream helios(utf16("job_id,user,vc,gpu_num,state,submit_time,start_time,end_time\n", true, false));
  try {
    parse_helios_trace(helios, "cluster_log.csv", {});
    FAIL() << "read a UTF-16 Helios log";
  } catch (const InputError& e) {
    EXPECT_NE(e.problem().find("UTF-16 little-endian"), std::string::npos) << e.what();
  }
  // Philly's reader tells its CSV from its JSON log by the opening: a UTF-16 file is neither.
  const std::string philly =
      dir.write("philly.csv", utf16("timestamp,duration,num_gpus,gpu_time,cluster\n", true, true));
  try {
    read_philly_trace(philly, {});
    FAIL() << "read a UTF-16 Philly log";
  } catch (const InputError& e) {
    EXPECT_NE(e.problem().find("UTF-16 little-endian"), std::string::npos) << e.what();
  }
  // A file given without a format: the guess names the encoding too.
  const std::string unknown = dir.write("unknown.csv", utf16(kJobs, true, true));
  try {
    guess_trace_format(unknown);
    FAIL() << "guessed the format of a UTF-16 file";
  } catch (const InputError& e) {
    EXPECT_NE(e.problem().find("UTF-16 little-endian"), std::string::npos) << e.what();
  }
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
