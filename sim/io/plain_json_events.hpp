// plain_json_events.hpp: nlohmann's SAX events for a plain JSON document, read fast.
//
// nlohmann's lexer keeps, for every character, what an error message would
// need (line, column, the token so far) and reads numbers with strtod; on a
// large workload that is a third of the reading. Most documents are plain:
// their strings are printable ASCII without escapes, as gcsim and nlohmann
// write them. read_plain_json_events gives a plain document's events exactly
// as nlohmann::json::sax_parse gives them (the same number types and
// values), reading the stream a block at a time. At anything else (an
// escape, another byte in a string, a byte order mark, a number it cannot
// read exactly, malformed JSON) it stops and returns false, some events
// given: the caller then reads the document again from its start with
// nlohmann::json::sax_parse, which reads it or names the error.
//
//   const auto start = in.tellg();
//   Events events;  // a SAX handler, as for nlohmann::json::sax_parse
//   if (!read_plain_json_events(in, events)) {
//     in.clear();
//     in.seekg(start);
//     Events again;
//     nlohmann::json::sax_parse(in, &again);
//   }
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace gcsim {

/// The tokens of a plain JSON document, read from a stream a block at a time.
class PlainJsonTokens {
 public:
  enum class Token {
    kBeginObject,
    kEndObject,
    kBeginArray,
    kEndArray,
    kNameSeparator,   // ':'
    kValueSeparator,  // ','
    kString,
    kTrue,
    kFalse,
    kNull,
    kUnsigned,  // an integer >= 0 that fits std::uint64_t
    kInteger,   // a negative integer that fits std::int64_t
    kFloat,     // any other number, when it is finite
    kEnd,       // the end of the stream
    kNotPlain,  // anything else: not plain, or malformed
  };

  explicit PlainJsonTokens(std::istream& in);

  Token next();
  /// The text of the last kString, or of the last number as written.
  std::string& text() { return text_; }
  std::uint64_t unsigned_value() const { return unsigned_; }
  std::int64_t integer_value() const { return integer_; }
  double float_value() const { return float_; }

 private:
  bool fill();
  Token string();
  Token number();
  Token literal(const char* rest, Token token);
  bool take_digits();

  std::istream& in_;
  std::vector<char> block_;
  const char* next_ = nullptr;
  const char* end_ = nullptr;
  std::string text_;
  std::uint64_t unsigned_ = 0;
  std::int64_t integer_ = 0;
  double float_ = 0;
};

/// Gives `sax` the events of the document `in` holds, as nlohmann's
/// sax_parse does, and returns true; returns false where the document is
/// not plain or not well formed, or where `sax` returns false.
template <class Sax>
bool read_plain_json_events(std::istream& in, Sax& sax) {
  using Token = PlainJsonTokens::Token;
  constexpr std::size_t kUnknownSize = static_cast<std::size_t>(-1);  // as nlohmann gives it
  PlainJsonTokens tokens(in);
  std::vector<bool> open_is_object;  // the containers begun and not ended, innermost last
  Token token = tokens.next();
  for (;;) {
    // `token` begins a value.
    bool value_ended = true;
    switch (token) {
      case Token::kBeginObject:
      case Token::kBeginArray: {
        const bool object = token == Token::kBeginObject;
        if (!(object ? sax.start_object(kUnknownSize) : sax.start_array(kUnknownSize))) return false;
        token = tokens.next();
        if (token == (object ? Token::kEndObject : Token::kEndArray)) {  // empty
          if (!(object ? sax.end_object() : sax.end_array())) return false;
          break;
        }
        open_is_object.push_back(object);
        value_ended = false;
        break;
      }
      case Token::kString:
        if (!sax.string(tokens.text())) return false;
        break;
      case Token::kTrue:
      case Token::kFalse:
        if (!sax.boolean(token == Token::kTrue)) return false;
        break;
      case Token::kNull:
        if (!sax.null()) return false;
        break;
      case Token::kUnsigned:
        if (!sax.number_unsigned(tokens.unsigned_value())) return false;
        break;
      case Token::kInteger:
        if (!sax.number_integer(tokens.integer_value())) return false;
        break;
      case Token::kFloat:
        if (!sax.number_float(tokens.float_value(), tokens.text())) return false;
        break;
      default:
        return false;
    }
    if (value_ended) {
      // Close the containers this value ends, up to one that goes on.
      for (;;) {
        if (open_is_object.empty()) return tokens.next() == Token::kEnd;
        token = tokens.next();
        if (token == Token::kValueSeparator) {
          token = tokens.next();
          break;
        }
        const bool object = open_is_object.back();
        if (token != (object ? Token::kEndObject : Token::kEndArray)) return false;
        open_is_object.pop_back();
        if (!(object ? sax.end_object() : sax.end_array())) return false;
      }
    }
    // `token` begins the next member of an object (its key) or element of an array.
    if (open_is_object.back()) {
      if (token != Token::kString || !sax.key(tokens.text())) return false;
      if (tokens.next() != Token::kNameSeparator) return false;
      token = tokens.next();
    }
  }
}

}  // namespace gcsim
