// The row-field helper: a row is logged once, for its first fault, with its
// file, line, field and the offending value; reads after a fault log nothing;
// strict mode throws on a malformed row but not on one that is not replayable.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "sim/core/input_error.hpp"
#include "traces/trace_row.hpp"

namespace gcsim {
namespace {

const TraceColumn kGpus{0, "gpus"}, kDuration{1, "duration"};

TEST(TraceRow, OnlyTheFirstFaultOfARowIsLoggedWithItsFieldAndValue) {
  std::vector<SkippedRow> skipped;
  SkipLog log(skipped, false);
  TraceRow row(log, "t.csv", 7, {"x", "-5"}, 2);
  EXPECT_EQ(row.number(kGpus), 0);
  EXPECT_FALSE(row);
  const double seconds = row.number(kDuration);  // a number, but the row is already skipped
  EXPECT_EQ(seconds, 0);
  EXPECT_FALSE(row.malformed_if(true, kDuration, "negative run time"));
  ASSERT_EQ(skipped.size(), 1u);
  const SkippedRow& first = skipped[0];
  EXPECT_EQ(std::tie(first.file, first.line, first.field, first.reason, first.detail, first.malformed),
            std::make_tuple(std::string("t.csv"), std::size_t{7}, std::string("gpus"), std::string("not a number"),
                            std::string("got 'x'"), true));
}

TEST(TraceRow, AWrongFieldCountSkipsTheRowAndLeavesEveryFieldEmpty) {
  std::vector<SkippedRow> skipped;
  SkipLog log(skipped, false);
  TraceRow row(log, "t.csv", 3, {"1"}, 2);
  EXPECT_FALSE(row);
  EXPECT_EQ(row.text(kDuration), "");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].field, "");
  EXPECT_EQ(skipped[0].reason, "wrong number of fields");
  EXPECT_EQ(skipped[0].detail, "expected 2, got 1");
}

TEST(TraceRow, ValidValuesPassAndTrimmedRowsLoseTheirSpaces) {
  std::vector<SkippedRow> skipped;
  SkipLog log(skipped, true);
  TraceRow row(log, "t.csv", 2, {" 4 ", " 60"}, 2, TraceRow::Spaces::kTrimmed);
  EXPECT_EQ(row.number_if(kGpus, is_whole_count, "not a GPU count"), 4);
  EXPECT_EQ(row.text(kDuration), "60");
  EXPECT_TRUE(row.not_replayable_if(false, kDuration, "ran for 0 s"));
  EXPECT_TRUE(row);
  EXPECT_TRUE(skipped.empty());
}

TEST(TraceRow, StrictModeThrowsOnAMalformedRowOnly) {
  std::vector<SkippedRow> skipped;
  SkipLog log(skipped, true);
  TraceRow cpu_job(log, "t.csv", 2, {"0", "60"}, 2);
  EXPECT_FALSE(cpu_job.not_replayable_if(cpu_job.number(kGpus) == 0, kGpus, "CPU job"));
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_FALSE(skipped[0].malformed);
  TraceRow bad(log, "t.csv", 3, {"2.5", "60"}, 2);
  try {
    bad.number_if(kGpus, is_whole_count, "not a GPU count");
    FAIL() << "a malformed row in strict mode";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "t.csv");
    EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("got '2.5'"), std::string::npos) << e.what();
  }
}

TEST(TraceRow, ARepeatedKeyIsMalformedNamingTheFirstLine) {
  std::vector<SkippedRow> skipped;
  SkipLog log(skipped, false);
  std::map<std::string, std::size_t> seen;
  RowCheck first(log, "t.csv", 4);
  EXPECT_TRUE(first.first_of(seen, std::string("j1"), "id", "duplicate job id", "'j1'"));
  RowCheck again(log, "t.csv", 9);
  EXPECT_FALSE(again.first_of(seen, std::string("j1"), "id", "duplicate job id", "'j1'"));
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].line, 9u);
  EXPECT_EQ(skipped[0].detail, "'j1' is also on line 4");
  // A row skipped before the check leaves no key behind.
  RowCheck skipped_row(log, "t.csv", 11);
  skipped_row.malformed("id", "empty job id");
  EXPECT_FALSE(skipped_row.first_of(seen, std::string("j2"), "id", "duplicate job id", "'j2'"));
  EXPECT_EQ(seen.count("j2"), 0u);
}

}  // namespace
}  // namespace gcsim
