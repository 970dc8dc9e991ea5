// json_input.hpp: reading user JSON with errors that point at the mistake.
//
// Syntax errors name the file, line and column; field errors name the file,
// the JSON path of the object (e.g. "jobs[3] (id 'j4')"), the field and what
// was expected. Quantities accept a plain number in base units or a string
// with a unit ("25GB/s", "100Gbps", "1.5us", "80GiB", "312TFLOPS").
//
//   nlohmann::json doc = read_json_file("cluster.json");
//   JsonObject node(doc["node_groups"][0], {"cluster.json", "node_groups[0]"});
//   auto gpus = node.required_uint("gpus_per_node");
//   double bw = node.required_quantity("nic_bandwidth", Quantity::kBandwidth);
#pragma once

#include <array>
#include <cstdint>
#include <fstream>
#include <istream>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "sim/core/input_error.hpp"

namespace gcsim {

/// Reads and parses a file; InputError on a missing file or bad syntax.
nlohmann::json read_json_file(const std::string& path);
/// Parses text; `file` labels errors.
nlohmann::json parse_json_text(const std::string& text, const std::string& file);
/// Opens a file for reading; InputError "cannot open file" when it cannot.
std::ifstream open_input_file(const std::string& path);
/// An error nlohmann reported reading a JSON document, at its count of bytes
/// read. The SAX handlers here throw it for every error, so that a number too
/// large for a double (nlohmann's out_of_range 406, which names no place) is
/// located like a syntax error.
class JsonErrorAt : public std::runtime_error {
 public:
  /// `what`: nlohmann's message, its "[json.exception...]" prefix and place dropped.
  JsonErrorAt(std::size_t byte, const std::string& what);
  std::size_t byte;
};
/// A SAX handler's parse_error(byte, token, error): throws JsonErrorAt.
template <class Exception>
bool throw_json_error_at(std::size_t byte, const Exception& error) {
  throw JsonErrorAt(byte, error.what());
}
/// The error for a syntax error found in `text` (read again from its start
/// to locate the error's byte by line and column): "FILE: line L, column C:
/// malformed JSON: REASON", or "FILE: empty file: ..." when it holds only
/// white space.
InputError json_syntax_error(const JsonErrorAt& error, std::istream& text, const std::string& file);

enum class Quantity { kBytes, kBandwidth, kTime, kFlops, kPlain };

/// Parses "25GB/s", "100Gbps", "2us", "80GiB", "1.2e15", ... into base units
/// (bytes, bytes/s, seconds, FLOP/s). Returns nullopt when malformed.
std::optional<double> parse_quantity(const std::string& text, Quantity kind);
/// Name of the unit family, for messages ("a bandwidth such as 25GB/s").
std::string quantity_hint(Quantity kind);

struct JsonLocation {
  std::string file;
  std::string where;  // JSON path of the object, e.g. "jobs[2] (id 'a')"
};

/// A JSON object being read field by field. Every getter throws InputError
/// naming the file, object and field.
class JsonObject {
 public:
  JsonObject(const nlohmann::json& value, JsonLocation location);

  bool has(std::string_view field) const;
  const nlohmann::json& raw(std::string_view field) const;

  std::string required_string(std::string_view field) const;
  std::string optional_string(std::string_view field, const std::string& fallback) const;
  std::uint64_t required_uint(std::string_view field, std::uint64_t min = 0) const;
  std::uint64_t optional_uint(std::string_view field, std::uint64_t fallback, std::uint64_t min = 0) const;
  std::int64_t optional_int(std::string_view field, std::int64_t fallback) const;
  /// Non-negative unless `allow_negative`; must be > 0 when `strictly_positive`.
  double required_quantity(std::string_view field, Quantity kind, bool strictly_positive = false) const;
  double optional_quantity(std::string_view field, Quantity kind, double fallback,
                           bool strictly_positive = false) const;
  bool optional_bool(std::string_view field, bool fallback) const;
  JsonObject required_object(std::string_view field) const;
  const nlohmann::json& required_array(std::string_view field) const;

  /// A key of this object read as a count >= 1 (as in {"1": 0.5, "8": 0.1});
  /// fails naming the key, with `expected` as the explanation.
  std::uint32_t key_as_count(const std::string& key, const std::string& expected) const;

  /// Rejects fields not in `known` (catches typos such as "gpu_per_node").
  void reject_unknown_fields(const std::set<std::string>& known) const;

  [[noreturn]] void fail(std::string_view field, const std::string& problem) const;
  const JsonLocation& location() const { return location_; }
  const nlohmann::json& value() const { return value_; }

 private:
  /// The field's value; nullptr when it is absent or null.
  const nlohmann::json* find(std::string_view field) const;
  std::string string_of(std::string_view field, const nlohmann::json& v) const;
  std::uint64_t uint_of(std::string_view field, const nlohmann::json& v, std::uint64_t min) const;
  double quantity_of(std::string_view field, const nlohmann::json& v, Quantity kind, bool strictly_positive) const;

  const nlohmann::json& value_;
  JsonLocation location_;
  // The members of an object of up to kScanned of them, in the object's
  // order, for find() to scan: a job's object is that small, most fields
  // asked for are absent, and comparing lengths in an array beats walking
  // the object's tree. A larger object is searched in its tree.
  static constexpr std::size_t kScanned = 16;
  struct Member {
    std::string_view key;
    const nlohmann::json* value;
  };
  std::array<Member, kScanned> members_;
  std::size_t member_count_ = 0;  // kScanned + 1: not scanned
};

/// Element `i` of the array `field` of `owner`, an object: its location is
/// "WHERE.field[i]" (or "field[i]" at the top level), and anything else is an
/// InputError saying what it is.
JsonObject element_of(const JsonObject& owner, const std::string& field, std::size_t i, const nlohmann::json& value);

}  // namespace gcsim
