#include "sim/io/json_input.hpp"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

#include "sim/core/input_error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/io/json_value_builder.hpp"

namespace gcsim {
namespace {

std::string describe(const nlohmann::json& v) {
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// Line and column (1-based) of a byte offset, read from the start of `text`.
std::pair<std::size_t, std::size_t> line_column(std::istream& text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  char c = 0;
  for (std::size_t i = 0; i < offset && text.get(c); ++i) {
    if (c == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

struct UnitScale {
  const char* suffix;
  double scale;
};

// Longest suffixes first so that "GiB" is not read as "B".
const std::vector<UnitScale>& units_for(Quantity kind) {
  static const std::vector<UnitScale> bytes = {{"TiB", 1099511627776.0},
                                               {"GiB", 1073741824.0},
                                               {"MiB", 1048576.0},
                                               {"KiB", 1024.0},
                                               {"TB", 1e12},
                                               {"GB", 1e9},
                                               {"MB", 1e6},
                                               {"kB", 1e3},
                                               {"KB", 1e3},
                                               {"B", 1.0}};
  static const std::vector<UnitScale> bandwidth = {
      {"TB/s", 1e12},    {"GB/s", 1e9},     {"MB/s", 1e6},     {"kB/s", 1e3},   {"KB/s", 1e3}, {"B/s", 1.0},
      {"TBps", 1e12},    {"GBps", 1e9},     {"MBps", 1e6},     {"kBps", 1e3},   {"Bps", 1.0},  {"Tbps", 1e12 / 8},
      {"Gbps", 1e9 / 8}, {"Mbps", 1e6 / 8}, {"kbps", 1e3 / 8}, {"bps", 1.0 / 8}};
  static const std::vector<UnitScale> time = {{"ns", 1e-9},  {"us", 1e-6},   {"ms", 1e-3}, {"min", 60.0},
                                              {"h", 3600.0}, {"d", 86400.0}, {"s", 1.0}};
  static const std::vector<UnitScale> flops = {{"PFLOPS", 1e15}, {"TFLOPS", 1e12}, {"GFLOPS", 1e9}, {"MFLOPS", 1e6},
                                               {"FLOPS", 1.0},   {"Pf", 1e15},     {"Tf", 1e12},    {"Gf", 1e9},
                                               {"Mf", 1e6},      {"f", 1.0}};
  static const std::vector<UnitScale> none;
  switch (kind) {
    case Quantity::kBytes:
      return bytes;
    case Quantity::kBandwidth:
      return bandwidth;
    case Quantity::kTime:
      return time;
    case Quantity::kFlops:
      return flops;
    case Quantity::kPlain:
      return none;
  }
  return none;
}

// The member named `name`, looked up without a std::string made for it where
// nlohmann's objects compare keys transparently (from nlohmann 3.11 on).
template <class Members>
auto find_member(const Members& members, std::string_view name) -> decltype(members.find(name)) {
  return members.find(name);
}
template <class Members, class... Older>
auto find_member(const Members& members, std::string_view name, Older...) {
  return members.find(std::string(name));
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

namespace {

// nlohmann's prefixes: "[json.exception.parse_error.101] parse error at line
// L, column C: " or "[json.exception.out_of_range.406] ".
std::string reason_of(const std::string& what) {
  const std::size_t tag_end = what.find("] ");
  std::string reason = tag_end == std::string::npos ? what : what.substr(tag_end + 2);
  if (reason.rfind("parse error", 0) == 0)
    if (auto pos = reason.find(": "); pos != std::string::npos) reason = reason.substr(pos + 2);
  return reason;
}

// nlohmann's SAX events into one value, every error thrown as JsonErrorAt.
class LocatedDocument {
 public:
  nlohmann::json take() { return builder_.take(); }
  bool null() { return builder_.null(), true; }
  bool boolean(bool v) { return builder_.boolean(v), true; }
  bool number_integer(std::int64_t v) { return builder_.number_integer(v), true; }
  bool number_unsigned(std::uint64_t v) { return builder_.number_unsigned(v), true; }
  bool number_float(double v, const std::string&) { return builder_.number_float(v), true; }
  bool string(std::string& v) { return builder_.string(v), true; }
  bool binary(nlohmann::json::binary_t& v) { return builder_.binary(v), true; }
  bool start_object(std::size_t) { return builder_.start_object(), true; }
  bool key(std::string& name) { return builder_.key(name), true; }
  bool end_object() { return builder_.end_object(), true; }
  bool start_array(std::size_t) { return builder_.start_array(), true; }
  bool end_array() { return builder_.end_array(), true; }
  template <class Exception>
  bool parse_error(std::size_t byte, const std::string&, const Exception& error) {
    return throw_json_error_at(byte, error);
  }

 private:
  JsonValueBuilder builder_;
};

}  // namespace

JsonErrorAt::JsonErrorAt(std::size_t at, const std::string& what) : std::runtime_error(reason_of(what)), byte(at) {}

namespace {

// Whether the text holds nothing but white space (after a UTF-8 byte order mark).
bool blank_text(std::istream& text) {
  std::string start(3, '\0');
  text.read(start.data(), 3);
  start.resize(static_cast<std::size_t>(text.gcount()));
  if (start != "\xEF\xBB\xBF")
    for (char c : start)
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return false;
  for (char c; text.get(c);)
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return false;
  return true;
}

}  // namespace

InputError json_syntax_error(const JsonErrorAt& error, std::istream& text, const std::string& file) {
  text.clear();
  text.seekg(0);
  if (blank_text(text)) return InputError(file, "", "", "empty file: expected a JSON document");
  text.clear();
  text.seekg(0);
  auto [line, column] = line_column(text, error.byte == 0 ? 0 : error.byte - 1);
  return InputError(file, "line " + std::to_string(line) + ", column " + std::to_string(column), "",
                    std::string("malformed JSON: ") + error.what());
}

nlohmann::json parse_json_text(const std::string& text, const std::string& file) {
  LocatedDocument document;
  try {
    nlohmann::json::sax_parse(text, &document);
  } catch (const JsonErrorAt& e) {
    std::istringstream located(text);
    throw json_syntax_error(e, located, file);
  }
  return document.take();
}

std::ifstream open_input_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "", "cannot open file");
  return in;
}

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in = open_input_file(path);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_json_text(text.str(), path);
}

std::optional<double> parse_quantity(const std::string& raw, Quantity kind) {
  std::string text;
  for (char c : raw)
    if (c != ' ' && c != '_') text += c;
  if (text.empty()) return std::nullopt;
  double scale = 1.0;
  for (const UnitScale& unit : units_for(kind)) {
    if (ends_with(text, unit.suffix)) {
      text.resize(text.size() - std::char_traits<char>::length(unit.suffix));
      scale = unit.scale;
      break;
    }
  }
  if (text.empty()) return std::nullopt;
  const std::optional<double> value = finite_number(text);
  if (!value) return std::nullopt;
  return *value * scale;
}

std::string quantity_hint(Quantity kind) {
  switch (kind) {
    case Quantity::kBytes:
      return "a size in bytes such as 16e9 or \"16GB\"";
    case Quantity::kBandwidth:
      return "a bandwidth in bytes/s such as 25e9, \"25GB/s\" or \"200Gbps\"";
    case Quantity::kTime:
      return "a time in seconds such as 2e-6, \"2us\" or \"1.5h\"";
    case Quantity::kFlops:
      return "a FLOP rate or count such as 1.25e14 or \"125TFLOPS\"";
    case Quantity::kPlain:
      return "a number";
  }
  return "a number";
}

JsonObject::JsonObject(const nlohmann::json& value, JsonLocation location)
    : value_(value), location_(std::move(location)) {
  if (!value_.is_object())
    throw InputError(location_.file, location_.where, "", "expected a JSON object, got " + describe(value_));
  const auto& members = value_.get_ref<const nlohmann::json::object_t&>();
  if (members.size() > kScanned) {
    member_count_ = kScanned + 1;
    return;
  }
  for (const auto& [key, value] : members) members_[member_count_++] = {key, &value};
}

void JsonObject::fail(std::string_view field, const std::string& problem) const {
  throw InputError(location_.file, location_.where, std::string(field), problem);
}

const nlohmann::json* JsonObject::find(std::string_view field) const {
  if (member_count_ <= kScanned) {
    for (std::size_t i = 0; i < member_count_; ++i)
      if (members_[i].key == field) return members_[i].value->is_null() ? nullptr : members_[i].value;
    return nullptr;
  }
  const auto& members = value_.get_ref<const nlohmann::json::object_t&>();
  const auto it = find_member(members, field);
  return it == members.end() || it->second.is_null() ? nullptr : &it->second;
}

bool JsonObject::has(std::string_view field) const { return find(field) != nullptr; }

const nlohmann::json& JsonObject::raw(std::string_view field) const {
  const nlohmann::json* v = find(field);
  if (!v) fail(field, "missing (required)");
  return *v;
}

std::string JsonObject::required_string(std::string_view field) const { return string_of(field, raw(field)); }

std::string JsonObject::optional_string(std::string_view field, const std::string& fallback) const {
  const nlohmann::json* v = find(field);
  return v ? string_of(field, *v) : fallback;
}

std::uint64_t JsonObject::required_uint(std::string_view field, std::uint64_t min) const {
  return uint_of(field, raw(field), min);
}

std::uint64_t JsonObject::optional_uint(std::string_view field, std::uint64_t fallback, std::uint64_t min) const {
  const nlohmann::json* v = find(field);
  return v ? uint_of(field, *v, min) : fallback;
}

std::int64_t JsonObject::optional_int(std::string_view field, std::int64_t fallback) const {
  const nlohmann::json* found = find(field);
  if (!found) return fallback;
  const auto& v = *found;
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    fail(field, "integer out of range, got " + describe(v));
  if (!v.is_number_integer()) fail(field, "expected an integer, got " + describe(v));
  return v.get<std::int64_t>();
}

double JsonObject::required_quantity(std::string_view field, Quantity kind, bool strictly_positive) const {
  return quantity_of(field, raw(field), kind, strictly_positive);
}

double JsonObject::optional_quantity(std::string_view field, Quantity kind, double fallback,
                                     bool strictly_positive) const {
  const nlohmann::json* v = find(field);
  return v ? quantity_of(field, *v, kind, strictly_positive) : fallback;
}

bool JsonObject::optional_bool(std::string_view field, bool fallback) const {
  const nlohmann::json* found = find(field);
  if (!found) return fallback;
  if (!found->is_boolean()) fail(field, "expected true or false, got " + describe(*found));
  return found->get<bool>();
}

std::string JsonObject::string_of(std::string_view field, const nlohmann::json& v) const {
  if (!v.is_string()) fail(field, "expected a string, got " + describe(v));
  const std::string& text = v.get_ref<const std::string&>();
  if (text.empty()) fail(field, "must not be empty");
  return text;
}

std::uint64_t JsonObject::uint_of(std::string_view field, const nlohmann::json& v, std::uint64_t min) const {
  bool integral = v.is_number_integer() || (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
  if (!integral) fail(field, "expected an integer >= " + std::to_string(min) + ", got " + describe(v));
  if (v.is_number_float() ? v.get<double>() < static_cast<double>(min)
                          : (v.is_number_unsigned() ? v.get<std::uint64_t>() < min
                                                    : v.get<std::int64_t>() < static_cast<std::int64_t>(min)))
    fail(field, "expected an integer >= " + std::to_string(min) + ", got " + describe(v));
  if (v.is_number_float() && !below_uint64_limit(v.get<double>()))
    fail(field, "expected an integer of at most 18446744073709551615, got " + describe(v));
  return v.is_number_float() ? static_cast<std::uint64_t>(v.get<double>()) : v.get<std::uint64_t>();
}

double JsonObject::quantity_of(std::string_view field, const nlohmann::json& v, Quantity kind,
                               bool strictly_positive) const {
  std::optional<double> value;
  if (v.is_number())
    value = v.get<double>();
  else if (v.is_string())
    value = parse_quantity(v.get_ref<const std::string&>(), kind);
  if (!value) fail(field, "expected " + quantity_hint(kind) + ", got " + describe(v));
  if (*value < 0) fail(field, "must not be negative, got " + describe(v));
  if (strictly_positive && *value == 0) fail(field, "must be greater than zero, got " + describe(v));
  return *value;
}

JsonObject JsonObject::required_object(std::string_view field) const {
  const auto& v = raw(field);
  if (!v.is_object()) fail(field, "expected an object, got " + describe(v));
  std::string where = location_.where;
  if (!where.empty()) where += '.';
  where += field;
  return JsonObject(v, {location_.file, std::move(where)});
}

const nlohmann::json& JsonObject::required_array(std::string_view field) const {
  const auto& v = raw(field);
  if (!v.is_array()) fail(field, "expected an array, got " + describe(v));
  return v;
}

std::uint32_t JsonObject::key_as_count(const std::string& key, const std::string& expected) const {
  std::size_t used = 0;
  unsigned long count = 0;
  try {
    count = std::stoul(key, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != key.size() || key.empty() || key[0] == '-' || count == 0 ||
      count > std::numeric_limits<std::uint32_t>::max())
    fail(key, expected);
  return static_cast<std::uint32_t>(count);
}

void JsonObject::reject_unknown_fields(const std::set<std::string>& known) const {
  // The first unknown key in the object's order.
  for (const auto& member : value_.get_ref<const nlohmann::json::object_t&>()) {
    if (known.count(member.first) != 0) continue;
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    fail(member.first, "unknown field (expected one of: " + list + ")");
  }
}

JsonObject element_of(const JsonObject& owner, const std::string& field, std::size_t i, const nlohmann::json& value) {
  const JsonLocation& at = owner.location();
  const std::string where = (at.where.empty() ? "" : at.where + ".") + field + "[" + std::to_string(i) + "]";
  const JsonObject element(value, {at.file, where});
  if (!value.is_object()) element.fail("", "expected an object, got " + value.dump());
  return element;
}

}  // namespace gcsim
