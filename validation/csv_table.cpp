#include "validation/csv_table.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace gcsim::validation {

namespace {
std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}
}  // namespace

CsvTable::CsvTable(const std::string& text, std::string source) : source_(std::move(source)) {
  std::istringstream in(text);
  std::string line;
  std::size_t number = 0;
  std::size_t width = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> fields = split_fields(line);
    if (columns_.empty()) {
      width = fields.size();
      for (std::size_t i = 0; i < fields.size(); ++i) columns_.emplace(fields[i], i);
      continue;
    }
    if (fields.size() != width)
      throw std::runtime_error(source_ + ": line " + std::to_string(number) + ": " + std::to_string(fields.size()) +
                               " fields, the header has " + std::to_string(width));
    rows_.push_back(std::move(fields));
    lines_.push_back(number);
  }
  if (columns_.empty()) throw std::runtime_error(source_ + ": empty, expected a header line");
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

CsvTable read_csv_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return CsvTable(text.str(), path);
}

}  // namespace gcsim::validation
