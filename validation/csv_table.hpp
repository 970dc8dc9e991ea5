// csv_table.hpp: a CSV file with a header line, as the real microbenchmarks
// write them, read by column name (records split by sim/io's csv_records.hpp).
//
//   CsvTable t = read_csv_table("out/allreduce.csv");
//   for (std::size_t i = 0; i < t.size(); ++i) double s = t.number(i, "time_median_s");
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace gcsim::validation {

class CsvTable {
 public:
  /// Parses `text`; `source` names it in errors. A row with a different number
  /// of fields than the header is an error naming its line.
  CsvTable(const std::string& text, std::string source);

  std::size_t size() const { return rows_.size(); }
  bool has_column(const std::string& column) const { return columns_.count(column) != 0; }
  /// Field `column` of data row `row` (0-based). Throws std::runtime_error
  /// naming the file, line and column when the column is missing.
  const std::string& text(std::size_t row, const std::string& column) const;
  /// The same as a number; an error also when it is not one.
  double number(std::size_t row, const std::string& column) const;
  /// "FILE: line N" of data row `row`, for errors about it.
  std::string where(std::size_t row) const;

 private:
  std::string source_;
  std::map<std::string, std::size_t> columns_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::size_t> lines_;  // file line of each row
};

/// Reads and parses a file; an unreadable file is an error naming it.
CsvTable read_csv_table(const std::string& path);

}  // namespace gcsim::validation
