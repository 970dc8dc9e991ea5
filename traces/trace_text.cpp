#include "traces/trace_text.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "sim/core/input_error.hpp"

namespace gcsim {
namespace {

// Days from 1970-01-01 to the given civil date (proleptic Gregorian), after
// H. Hinnant's days_from_civil.
long long days_from_civil(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

void civil_from_days(long long z, long long& y, unsigned& m, unsigned& d) {
  z += 719468;
  const long long era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<long long>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

// Exactly `width` digits at `pos`.
bool read_digits(std::string_view text, std::size_t pos, std::size_t width, unsigned& value) {
  if (pos + width > text.size()) return false;
  value = 0;
  for (std::size_t i = pos; i < pos + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + static_cast<unsigned>(text[i] - '0');
  }
  return true;
}

bool is_leap(long long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

}  // namespace

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

std::vector<std::string> split_whitespace(std::string_view line) {
  std::vector<std::string> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) fields.emplace_back(line.substr(start, i - start));
  }
  return fields;
}

std::optional<double> parse_trace_number(std::string_view text) {
  const std::string field(trim(text));
  if (field.empty()) return std::nullopt;
  // strtod accepts "inf", "nan" and hexadecimal; a trace number is plain decimal.
  for (char c : field)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E'))
      return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(field.c_str(), &end);
  if (end != field.c_str() + field.size() || errno == ERANGE || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<double> parse_calendar_time(std::string_view raw) {
  const std::string_view text = trim(raw);
  unsigned year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (text.size() < 19 || !read_digits(text, 0, 4, year) || text[4] != '-' || !read_digits(text, 5, 2, month) ||
      text[7] != '-' || !read_digits(text, 8, 2, day) || (text[10] != ' ' && text[10] != 'T') ||
      !read_digits(text, 11, 2, hour) || text[13] != ':' || !read_digits(text, 14, 2, minute) || text[16] != ':' ||
      !read_digits(text, 17, 2, second))
    return std::nullopt;
  static const unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return std::nullopt;
  const unsigned month_days = kDays[month - 1] + (month == 2 && is_leap(year) ? 1 : 0);
  if (day > month_days || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  double fraction = 0;
  if (text.size() > 19) {
    if (text[19] != '.' || text.size() == 20) return std::nullopt;
    double scale = 0.1;
    for (std::size_t i = 20; i < text.size(); ++i, scale /= 10) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      fraction += (text[i] - '0') * scale;
    }
  }
  const long long days = days_from_civil(year, month, day);
  return static_cast<double>(days * 86400 + hour * 3600 + minute * 60 + second) + fraction;
}

std::string format_calendar_time(double seconds) {
  const long long total = static_cast<long long>(std::floor(seconds));
  long long days = total / 86400;
  long long rest = total % 86400;
  if (rest < 0) {
    rest += 86400;
    --days;
  }
  long long y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(days, y, m, d);
  char text[40];
  std::snprintf(text, sizeof text, "%04lld-%02u-%02u %02lld:%02lld:%02lld", y, m, d, rest / 3600, rest / 60 % 60,
                rest % 60);
  return text;
}

std::string describe_number(double value) {
  char text[40];
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15)
    std::snprintf(text, sizeof text, "%.0f", value);
  else
    std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string exact_decimal(double value) {
  char text[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

std::map<std::string, std::string> parse_column_map(const std::string& text,
                                                    const std::vector<std::string>& properties) {
  std::string list;
  for (const std::string& p : properties) list += (list.empty() ? "" : ", ") + p;
  std::map<std::string, std::string> columns;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string pair = text.substr(begin, comma - begin);
    begin = comma + 1;
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size())
      throw std::invalid_argument("the column mapping expects PROPERTY=COLUMN pairs, got '" + pair + "'");
    const std::string property = pair.substr(0, eq);
    if (std::find(properties.begin(), properties.end(), property) == properties.end())
      throw std::invalid_argument("unknown property '" + property +
                                  "' in the column mapping (expected one of: " + list + ")");
    if (!columns.emplace(property, pair.substr(eq + 1)).second)
      throw std::invalid_argument("property '" + property + "' is mapped twice");
  }
  return columns;
}

CsvHeader::CsvHeader(const std::vector<std::string>& names, const std::string& file, std::size_t line)
    : file_(file), line_(line) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string name(trim(names[i]));
    names_.push_back(name);
    index_.emplace(name, i);  // the first of two equal names wins
  }
}

std::optional<std::size_t> CsvHeader::find(const std::string& name) const {
  const auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

std::size_t CsvHeader::require(const std::string& name) const {
  if (const auto index = find(name)) return *index;
  std::string present;
  for (const std::string& n : names_) present += (present.empty() ? "" : ", ") + n;
  throw InputError(file_, "line " + std::to_string(line_), name,
                   "missing column (the header has: " + (present.empty() ? std::string("nothing") : present) + ")");
}

std::ifstream open_trace_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    const bool pai = std::filesystem::is_regular_file(std::filesystem::path(path) / "pai_task_table.csv", error);
    throw InputError(path, "", "",
                     std::string("a folder, not a trace file") +
                         (pai ? " (it holds a PAI trace: read it with the pai format, pai:" + path + ")" : ""));
  }
  std::ifstream in(path);
  if (!in) throw InputError(path, "", "", "cannot open the trace file");
  return in;
}

std::string file_name_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

CsvHeader read_csv_header(CsvRecords& records) {
  CsvRecord header;
  if (!records.next(header)) throw InputError(records.file(), "", "", "empty file: expected a header line");
  return CsvHeader(header.fields, records.file(), header.line);
}

}  // namespace gcsim
