// trace_row.hpp: one data row of a trace, read field by field. Every
// reader's loop is its column mapping: each read names the column and what
// the field must be, and the first field that fails logs the row as skipped
// (SkipLog: file, line, field, reason, the offending value); the reads after
// it return 0 and log nothing, so the row is reported once, for its first
// fault, and the reader drops it with one `if (!row) continue;`.
//
//   const TraceColumn duration = header.column("duration");
//   TraceRow row(log, file, record.line, std::move(record.fields), header.size());
//   const double seconds = row.number(duration);                       // "not a number (got '1O')"
//   row.malformed_if(seconds < 0, duration, "negative run time", "got " + describe_number(seconds));
//   row.not_replayable_if(seconds == 0, duration, "ran for 0 s (gcsim replays positive run times)");
//   if (!row) continue;
#pragma once

#include <cstddef>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "traces/trace_read.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {

/// An integer from 0 to 2^32 - 1: a count of GPUs, cores or processors.
inline bool is_whole_count(double value) { return value >= 0 && value == std::floor(value) && value <= 4294967295.0; }

/// What a row has been found to be so far; the checks every reader shares.
/// Only the first fault of a row is logged.
class RowCheck {
 public:
  RowCheck(SkipLog& log, std::string file, std::size_t line) : log_(log), file_(std::move(file)), line_(line) {}

  /// True while no fault has been found.
  explicit operator bool() const { return ok_; }
  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }

  /// The row contradicts the format (SkipLog::malformed; strict mode throws).
  void malformed(const std::string& field, const std::string& reason, const std::string& detail = "");
  /// The row is well-formed but not a GPU job gcsim can replay.
  void not_replayable(const std::string& field, const std::string& reason, const std::string& detail = "");
  /// The same, when `fault` holds; false once the row is skipped.
  bool malformed_if(bool fault, const std::string& field, const std::string& reason, const std::string& detail = "");
  bool not_replayable_if(bool fault, const std::string& field, const std::string& reason,
                         const std::string& detail = "");

  /// A start before the submit is malformed: "starts before it was
  /// submitted"; false once the row is skipped.
  bool starts_after_submit(double submit, double start, const std::string& start_field);

  /// Records `key` as seen on this line; when an earlier line has it, the row
  /// is malformed: "<shown> is also on line N".
  template <typename Key>
  bool first_of(std::map<Key, std::size_t>& seen, const Key& key, const std::string& field, const std::string& reason,
                const std::string& shown) {
    if (!ok_) return false;
    const auto [it, inserted] = seen.emplace(key, line_);
    return malformed_if(!inserted, field, reason, shown + " is also on line " + std::to_string(it->second));
  }

 private:
  bool skip_if(bool fault, bool malformed, const std::string& field, const std::string& reason,
               const std::string& detail);

  SkipLog& log_;
  std::string file_;
  std::size_t line_;
  bool ok_ = true;
};

/// The time format each time column showed first: a calendar time or a
/// number. A calendar time counts seconds since 1970, a number from the
/// trace's own origin, so the two cannot share a column: a value in the other
/// format than the column's first is malformed ("mixed time formats in one
/// column"), rather than left to put the jobs decades apart.
class TimeFormats {
 public:
  /// Notes that `column` holds a calendar time (or a number) on `line`;
  /// returns the line of the column's first value when that was in the other format.
  std::optional<std::size_t> other_format_line(std::size_t column, bool calendar, std::size_t line);

 private:
  struct First {
    bool calendar = false;
    std::size_t line = 0;
  };
  std::map<std::size_t, First> first_;
};

/// A delimited row: its fields, checked for their count, read by column.
class TraceRow : public RowCheck {
 public:
  enum class Spaces { kKept, kTrimmed };

  /// A row of another field count than `expected` is malformed at once:
  /// "wrong number of fields (expected N, got M)". kTrimmed trims every field.
  TraceRow(SkipLog& log, std::string file, std::size_t line, std::vector<std::string> fields, std::size_t expected,
           Spaces spaces = Spaces::kKept);

  /// The field as written ("" once the row is skipped for its field count).
  const std::string& text(const TraceColumn& column) const;
  /// The field without surrounding spaces and tabs.
  std::string trimmed(const TraceColumn& column) const;
  bool empty(const TraceColumn& column) const { return trimmed(column).empty(); }
  /// "got 'TEXT'", the detail of a field that is not what it should be.
  std::string got(const TraceColumn& column) const { return "got '" + text(column) + "'"; }

  /// The field as a number (trace_text.hpp: the whole field, finite), else
  /// malformed with `reason` and got().
  double number(const TraceColumn& column, const std::string& reason = "not a number");
  /// A number for which `valid` holds, else malformed with `reason` and got().
  template <typename Valid>
  double number_if(const TraceColumn& column, Valid valid, const std::string& reason) {
    if (!*this) return 0;
    const std::optional<double> value = parse(column);
    if (!malformed_if(!value || !valid(*value), column.name, reason, got(column))) return 0;
    return *value;
  }
  /// A calendar time "YYYY-MM-DD HH:MM:SS" in seconds, else malformed.
  double calendar_time(const TraceColumn& column, const std::string& reason);
  /// A calendar time, or a number of `unit_s`-second units, else malformed
  /// with `reason`; malformed too when the column's first value, noted in
  /// `formats`, was in the other format.
  double time(const TraceColumn& column, double unit_s, const std::string& reason, TimeFormats& formats);
  /// A submit time, read as time(); a number below 0 is malformed: "negative
  /// submit time" (a calendar time before 1970 is a date, not a negative number).
  double submit_time(const TraceColumn& column, double unit_s, const std::string& reason, TimeFormats& formats);

  using RowCheck::malformed_if;
  using RowCheck::not_replayable_if;
  bool malformed_if(bool fault, const TraceColumn& column, const std::string& reason, const std::string& detail = "") {
    return malformed_if(fault, column.name, reason, detail);
  }
  bool not_replayable_if(bool fault, const TraceColumn& column, const std::string& reason,
                         const std::string& detail = "") {
    return not_replayable_if(fault, column.name, reason, detail);
  }

 private:
  std::optional<double> parse(const TraceColumn& column) const;
  std::vector<std::string> fields_;
};

}  // namespace gcsim
