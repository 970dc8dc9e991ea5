#include "sim/io/plain_json_events.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace gcsim {
namespace {

constexpr std::size_t kBlockBytes = 64 * 1024;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

PlainJsonTokens::PlainJsonTokens(std::istream& in) : in_(in), block_(kBlockBytes) {}

// The next block of the stream; false at its end.
bool PlainJsonTokens::fill() {
  std::streambuf* source = in_.rdbuf();
  const std::streamsize got = source ? source->sgetn(block_.data(), static_cast<std::streamsize>(block_.size())) : 0;
  next_ = block_.data();
  end_ = next_ + (got > 0 ? got : 0);
  if (got <= 0) in_.setstate(std::ios::eofbit);  // as nlohmann's stream input leaves it
  return got > 0;
}

PlainJsonTokens::Token PlainJsonTokens::next() {
  for (;;) {
    if (next_ == end_ && !fill()) return Token::kEnd;
    const char c = *next_;
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') break;
    ++next_;
  }
  const char c = *next_++;
  switch (c) {
    case '{':
      return Token::kBeginObject;
    case '}':
      return Token::kEndObject;
    case '[':
      return Token::kBeginArray;
    case ']':
      return Token::kEndArray;
    case ':':
      return Token::kNameSeparator;
    case ',':
      return Token::kValueSeparator;
    case '"':
      return string();
    case 't':
      return literal("rue", Token::kTrue);
    case 'f':
      return literal("alse", Token::kFalse);
    case 'n':
      return literal("ull", Token::kNull);
    default:
      if (c == '-' || is_digit(c)) {
        --next_;
        return number();
      }
      return Token::kNotPlain;
  }
}

// Printable ASCII up to the closing quote; an escape or any other byte is
// left to nlohmann (it checks escapes and UTF-8).
PlainJsonTokens::Token PlainJsonTokens::string() {
  text_.clear();
  for (;;) {
    if (next_ == end_ && !fill()) return Token::kNotPlain;
    const char* run = next_;
    while (run != end_ && *run != '"' && *run != '\\' && static_cast<unsigned char>(*run) >= 0x20 &&
           static_cast<unsigned char>(*run) < 0x80)
      ++run;
    text_.append(next_, run);
    next_ = run;
    if (run == end_) continue;
    ++next_;
    return *run == '"' ? Token::kString : Token::kNotPlain;
  }
}

PlainJsonTokens::Token PlainJsonTokens::literal(const char* rest, Token token) {
  for (; *rest; ++rest) {
    if (next_ == end_ && !fill()) return Token::kNotPlain;
    if (*next_++ != *rest) return Token::kNotPlain;
  }
  return token;
}

// One or more digits onto text_; false when there is none.
bool PlainJsonTokens::take_digits() {
  const std::size_t before = text_.size();
  for (;;) {
    if (next_ == end_ && !fill()) break;
    if (!is_digit(*next_)) break;
    text_.push_back(*next_++);
  }
  return text_.size() > before;
}

// JSON's number grammar, typed as nlohmann types it: an integer is unsigned
// when it fits std::uint64_t, signed when negative and it fits std::int64_t,
// else, like any number with a fraction or exponent, a double. The double is
// the nearest to the decimal value, as strtod gives it; one that overflows
// or underflows is left to nlohmann.
PlainJsonTokens::Token PlainJsonTokens::number() {
  text_.clear();
  auto peek = [this]() -> int { return next_ == end_ && !fill() ? -1 : *next_; };
  const bool negative = peek() == '-';
  if (negative) text_.push_back(*next_++);
  if (peek() == '0') {
    text_.push_back(*next_++);
  } else if (!take_digits()) {
    return Token::kNotPlain;
  }
  bool integral = true;
  if (peek() == '.') {
    text_.push_back(*next_++);
    if (!take_digits()) return Token::kNotPlain;
    integral = false;
  }
  if (peek() == 'e' || peek() == 'E') {
    text_.push_back(*next_++);
    if (peek() == '+' || peek() == '-') text_.push_back(*next_++);
    if (!take_digits()) return Token::kNotPlain;
    integral = false;
  }
  const char* first = text_.data();
  const char* last = first + text_.size();
  if (integral && !negative) {
    const auto [end, error] = std::from_chars(first, last, unsigned_);
    if (error == std::errc() && end == last) return Token::kUnsigned;
  } else if (integral) {
    const auto [end, error] = std::from_chars(first, last, integer_);
    if (error == std::errc() && end == last) return Token::kInteger;
  }
  const auto [end, error] = std::from_chars(first, last, float_);
  if (error != std::errc() || end != last || !std::isfinite(float_)) return Token::kNotPlain;
  return Token::kFloat;
}

}  // namespace gcsim
