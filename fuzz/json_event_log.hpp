// json_event_log.hpp: a SAX handler that writes every event as a line of
// text, so that two readers' events on one document can be compared: the
// unit test and the differential fuzz target of read_plain_json_events
// (sim/io/plain_json_events.hpp) hold its events against nlohmann's.
//
//   JsonEventLog log;
//   nlohmann::json::sax_parse(text, &log);
//   for (const std::string& line : log.lines) std::puts(line.c_str());
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcsim {

/// Every event as a line of text; a double by its bits and its text.
class JsonEventLog {
 public:
  std::vector<std::string> lines;

  bool null() { return add("null"); }
  bool boolean(bool v) { return add(v ? "true" : "false"); }
  bool number_integer(std::int64_t v) { return add("integer " + std::to_string(v)); }
  bool number_unsigned(std::uint64_t v) { return add("unsigned " + std::to_string(v)); }
  bool number_float(double v, const std::string& text) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return add("float " + std::to_string(bits) + " " + text);
  }
  bool string(std::string& v) { return add("string " + v); }
  bool binary(nlohmann::json::binary_t&) { return add("binary"); }
  bool start_object(std::size_t n) { return add("start_object " + std::to_string(n)); }
  bool key(std::string& v) { return add("key " + v); }
  bool end_object() { return add("end_object"); }
  bool start_array(std::size_t n) { return add("start_array " + std::to_string(n)); }
  bool end_array() { return add("end_array"); }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception&) {
    return false;
  }

 private:
  bool add(std::string line) {
    lines.push_back(std::move(line));
    return true;
  }
};

}  // namespace gcsim
