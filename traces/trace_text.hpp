// trace_text.hpp: the text-level pieces every trace reader shares: the
// header of a delimited file, strict numbers and calendar times. Lines and
// CSV records come from sim/io (text_lines.hpp, csv_records.hpp): quoted
// fields may span lines, and a file in another encoding than UTF-8 is refused
// naming it and the command that converts it.
//
// Numbers are parsed strictly: the whole field must be a finite number
// (surrounding spaces allowed), so "12abc" or "" is malformed rather than
// read as 12 or 0. Calendar times are "YYYY-MM-DD HH:MM:SS" (or with a 'T',
// optional fractional seconds), counted as seconds since 1970-01-01 00:00:00
// of the same wall clock: no time zone is applied, since the traces give none.
//
//   CsvRecords records(stream, file, ',');
//   const CsvHeader header = read_csv_header(records);
//   for (CsvRecord record; records.next(record);) {
//     std::optional<double> seconds = parse_trace_number(record.fields[1]);
//   }
#pragma once

#include <cstddef>
#include <fstream>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/io/csv_records.hpp"

namespace gcsim {

/// Splits at runs of spaces and tabs (SWF).
std::vector<std::string> split_whitespace(std::string_view line);

std::string_view trim(std::string_view text);

/// The whole field as a finite number, else nullopt.
std::optional<double> parse_trace_number(std::string_view text);

/// "YYYY-MM-DD HH:MM:SS[.fff]" (or 'T' between date and time) as seconds
/// since 1970-01-01 00:00:00 of the same clock; nullopt when malformed.
std::optional<double> parse_calendar_time(std::string_view text);
/// The inverse, to whole seconds: "2017-10-09 07:01:55".
std::string format_calendar_time(double seconds);

/// A number as printed in messages: integers without a decimal point,
/// others with up to 6 significant digits.
std::string describe_number(double value);
/// The shortest decimal text that reads back as exactly `value`.
std::string exact_decimal(double value);

/// "prop=COLUMN,prop=COLUMN" -> property -> column name. Throws
/// std::invalid_argument for a pair without '=', a property not in
/// `properties`, or one mapped twice.
std::map<std::string, std::string> parse_column_map(const std::string& text,
                                                    const std::vector<std::string>& properties);

/// A column of a table: where its field is in a row, and its name in messages.
struct TraceColumn {
  std::size_t index = 0;
  std::string name;
};

/// Header names -> column index; throws InputError(file, "line N", name,
/// "missing column") for each required name that is absent.
class CsvHeader {
 public:
  CsvHeader(const std::vector<std::string>& names, const std::string& file, std::size_t line);
  std::optional<std::size_t> find(const std::string& name) const;
  std::size_t require(const std::string& name) const;
  /// require() and find() as a column named in messages by its header name.
  TraceColumn column(const std::string& name) const { return {require(name), name}; }
  std::optional<TraceColumn> find_column(const std::string& name) const {
    if (const auto index = find(name)) return TraceColumn{*index, name};
    return std::nullopt;
  }
  std::size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::map<std::string, std::size_t> index_;
  std::string file_;
  std::size_t line_;
};

/// The first record of a delimited file, its header (blank lines before it
/// are skipped); InputError(file, "", "", "empty file: ...") when there is none.
CsvHeader read_csv_header(CsvRecords& records);

/// Opens a trace file for reading; InputError(path, "", "", ...) when it
/// cannot, or when the path is a folder.
std::ifstream open_trace_file(const std::string& path);

/// The last path component ("a/b/c.csv" -> "c.csv").
std::string file_name_of(const std::string& path);

}  // namespace gcsim
