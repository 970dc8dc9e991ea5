// json_value_builder.hpp: one JSON value built from SAX events.
//
// nlohmann::json::sax_parse reads a document as a stream of events (a
// number, a key, the start of an object, ...) without building it. A reader
// of a long document hands the events of one part at a time (one element of
// a long array) to a JsonValueBuilder, takes the value once it is complete
// and drops it after use, so that only that part is ever held. The value is
// the one nlohmann::json::parse would build for the same text: the same
// number types, and a key repeated in an object keeps its last value.
//
//   JsonValueBuilder element;
//   element.start_object();            // from the SAX handler's events
//   std::string key = "id";
//   element.key(key);
//   std::string id = "a";
//   element.string(id);
//   element.end_object();
//   if (element.complete()) use(element.take());  // {"id": "a"}
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcsim {

class JsonValueBuilder {
 public:
  /// Whether a value has begun and is not complete yet.
  bool building() const { return started_ && !complete_; }
  /// Whether the value begun by the first event is complete.
  bool complete() const { return complete_; }
  /// The complete value; the builder is then ready for the next one.
  nlohmann::json take();

  // The events of nlohmann's SAX interface, in the order the parser gives them.
  void null() { scalar(nullptr); }
  void boolean(bool value) { scalar(value); }
  void number_integer(std::int64_t value) { scalar(value); }
  void number_unsigned(std::uint64_t value) { scalar(value); }
  void number_float(double value) { scalar(value); }
  void string(std::string& value) { scalar(std::move(value)); }
  void binary(nlohmann::json::binary_t& value) { scalar(nlohmann::json::binary(std::move(value))); }
  void start_object() { open(nlohmann::json::object()); }
  void key(std::string& name) { key_ = std::move(name); }
  void end_object() { close(); }
  void start_array() { open(nlohmann::json::array()); }
  void end_array() { close(); }

 private:
  nlohmann::json& place(nlohmann::json value);
  void scalar(nlohmann::json value);
  void open(nlohmann::json container);
  void close();

  nlohmann::json value_;
  std::vector<nlohmann::json*> open_;  // the containers begun and not yet ended, innermost last
  std::string key_;                    // the key of the next member of the innermost object
  bool started_ = false;
  bool complete_ = false;
};

}  // namespace gcsim
