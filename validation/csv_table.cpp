#include "validation/csv_table.hpp"

#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "sim/io/csv_records.hpp"
#include "sim/report/run_output_reader.hpp"

namespace gcsim::validation {

CsvTable::CsvTable(const std::string& text, std::string source) : source_(std::move(source)) {
  std::vector<CsvRecord> records = read_csv_records(text, source_);
  if (records.empty()) throw std::runtime_error(source_ + ": empty, expected a header line");
  const std::size_t width = records.front().fields.size();
  for (std::size_t i = 0; i < width; ++i) columns_.emplace(records.front().fields[i], i);
  for (std::size_t r = 1; r < records.size(); ++r) {
    if (records[r].fields.size() != width)
      throw std::runtime_error(source_ + ": line " + std::to_string(records[r].line) + ": " +
                               std::to_string(records[r].fields.size()) + " fields, the header has " +
                               std::to_string(width));
    rows_.push_back(std::move(records[r].fields));
    lines_.push_back(records[r].line);
  }
}

const std::string& CsvTable::text(std::size_t row, const std::string& column) const {
  const auto it = columns_.find(column);
  if (it == columns_.end()) throw std::runtime_error(source_ + ": no column '" + column + "'");
  return rows_.at(row)[it->second];
}

double CsvTable::number(std::size_t row, const std::string& column) const {
  const std::string& field = text(row, column);
  char* end = nullptr;
  const double value = std::strtod(field.c_str(), &end);
  if (field.empty() || *end != '\0')
    throw std::runtime_error(source_ + ": line " + std::to_string(lines_.at(row)) + ": field '" + column +
                             "': expected a number, got '" + field + "'");
  return value;
}

std::string CsvTable::where(std::size_t row) const { return source_ + ": line " + std::to_string(lines_.at(row)); }

CsvTable read_csv_table(const std::string& path) { return CsvTable(read_whole_file(path), path); }

}  // namespace gcsim::validation
