// Specification of read_plain_json_events: for every document it reads, the
// events are those nlohmann::json::sax_parse gives (same number types, same
// values to the bit); everything else (not plain, or malformed) it declines,
// so that nlohmann reads it again.
#include "sim/io/plain_json_events.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "fuzz/json_event_log.hpp"

namespace gcsim {
namespace {

using EventLog = JsonEventLog;

std::optional<std::vector<std::string>> nlohmann_events(const std::string& text) {
  EventLog log;
  if (!nlohmann::json::sax_parse(text, &log)) return std::nullopt;
  return log.lines;
}

std::optional<std::vector<std::string>> plain_events(const std::string& text) {
  std::istringstream in(text);
  EventLog log;
  if (!read_plain_json_events(in, log)) return std::nullopt;
  return log.lines;
}

// What must hold for every document: read only where nlohmann reads it, and then alike.
void expect_read_as_nlohmann_reads(const std::string& text) {
  const auto plain = plain_events(text);
  if (!plain) return;
  const auto reference = nlohmann_events(text);
  ASSERT_TRUE(reference.has_value()) << "read a document nlohmann rejects: " << text;
  EXPECT_EQ(*plain, *reference) << text;
}

void expect_read(const std::string& text) {
  ASSERT_TRUE(plain_events(text).has_value()) << text;
  expect_read_as_nlohmann_reads(text);
}

void expect_declined(const std::string& text) { EXPECT_FALSE(plain_events(text).has_value()) << text; }

TEST(PlainJsonEvents, GivesTheEventsNlohmannGivesForAPlainDocument) {
  expect_read(R"({"jobs": [{"id": "a", "gpus": 2, "submit": 0.5, "ok": true, "no": false, "none": null,
    "nested": {"list": [[], {}, [1, -2, 3.25e2]], "empty": ""}}], "studies": []})");
  expect_read(" \t\r\n[ 1 , 2 ]\n ");
  expect_read("42");
  expect_read(R"("text")");
  expect_read(R"({"a": 1, "a": 2})");  // a repeated key is two events, as nlohmann gives them
}

TEST(PlainJsonEvents, TypesNumbersAsNlohmannDoes) {
  for (const char* number : {"0",
                             "-0",
                             "7",
                             "-7",
                             "18446744073709551615",
                             "18446744073709551616",
                             "-9223372036854775808",
                             "-9223372036854775809",
                             "123456789012345678901234567890",
                             "0.0",
                             "-0.0",
                             "1.5",
                             "1e5",
                             "1E5",
                             "1e+5",
                             "1e-5",
                             "0.1",
                             "0.30000000000000004",
                             "2.2250738585072014e-308",
                             "1.7976931348623157e308",
                             "9007199254740993",
                             "36798.59472297636",
                             "13377802150017.701",
                             "0.2942923041463396",
                             "100e-2",
                             "5e-324"})
    expect_read_as_nlohmann_reads(std::string("[") + number + "]");
  for (const char* number : {"0", "-0", "18446744073709551616", "1.5", "1e5", "0.1", "36798.59472297636"})
    EXPECT_TRUE(plain_events(number).has_value()) << number;
}

TEST(PlainJsonEvents, ReadsEveryNormalDoubleToTheBitAsNlohmannDoes) {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int> digits(1, 17);
  for (int i = 0; i < 20000; ++i) {
    double value = 0;
    do {
      const std::uint64_t bits = random();
      std::memcpy(&value, &bits, sizeof value);
    } while (std::fpclassify(value) != FP_NORMAL);
    char written[40];
    std::snprintf(written, sizeof written, "%.*g", digits(random), value);
    // Rounded to fewer digits, a value may leave the normal range: nlohmann then reads it.
    if (std::fpclassify(std::strtod(written, nullptr)) == FP_NORMAL)
      expect_read(std::string("[") + written + "]");
    else
      expect_read_as_nlohmann_reads(std::string("[") + written + "]");
  }
}

TEST(PlainJsonEvents, DeclinesWhatItLeavesToNlohmann) {
  expect_declined(R"(["an \"escape\""])");
  expect_declined("[\"caf\xc3\xa9\"]");  // UTF-8 beyond ASCII
  expect_declined("\xef\xbb\xbf{}");     // a byte order mark
  expect_declined("[\"a\tb\"]");         // a control character in a string
  expect_declined("[1e400]");            // overflows a double
  expect_declined("[-1e400]");
  expect_declined("[1e-400]");  // underflows: nlohmann reads 0
}

TEST(PlainJsonEvents, DeclinesMalformedDocuments) {
  for (const char* text :
       {"",           " ",     "{",     "}",       "[",        "[1,]",      "[,1]",         "{\"a\" 1}",
        "{\"a\":1,}", "{1:2}", "01",    "[01]",    "1.",       "1.e5",      ".5",           "+1",
        "-",          "-a",    "1e",    "1e+",     "tru",      "truex",     "nul",          "[1 2]",
        "{} {}",      "[1]]",  "\"abc", "[\"abc]", "{\"a\":}", "/* c */ 1", "[true false]", "NaN",
        "[Infinity]"}) {
    expect_declined(text);
    EXPECT_FALSE(nlohmann_events(text).has_value()) << text;
  }
}

TEST(PlainJsonEvents, TokensAcrossTheBlocksOfALongStreamAreReadWhole) {
  // Strings and numbers of varied lengths fall across every block boundary.
  std::string text = "{\"items\": [";
  for (int i = 0; i < 40000; ++i)
    text += std::string(i ? ", " : "") + "{\"name-" + std::string(static_cast<std::size_t>(i % 13), 'x') +
            "\": " + std::to_string(i * 7919 % 100003) + "." + std::to_string(i % 97) + "}";
  text += "], \"last\": true}";
  ASSERT_GT(text.size(), 4u * 64 * 1024);
  expect_read(text);
}

// Random documents, well formed, then with one character changed: whatever
// read_plain_json_events reads, nlohmann reads alike.
std::string random_value(std::mt19937& random, int depth) {
  const char* spaces[] = {"", " ", "\n  ", "\t", "\r\n"};
  auto space = [&] { return std::string(spaces[random() % 5]); };
  switch (random() % (depth > 3 ? 5 : 7)) {
    case 0:
      return std::to_string(static_cast<std::int64_t>(random()) - (1LL << 31));
    case 1: {
      char text[40];
      std::snprintf(text, sizeof text, "%.*g", static_cast<int>(random() % 17 + 1),
                    std::ldexp(static_cast<double>(random()), static_cast<int>(random() % 200) - 100));
      return text;
    }
    case 2:
      return "\"" + std::string(random() % 20, static_cast<char>('a' + random() % 26)) + "\"";
    case 3:
      return random() % 2 ? "true" : "null";
    case 4:
      return "false";
    case 5: {
      std::string text = "[" + space();
      const unsigned n = random() % 4;
      for (unsigned i = 0; i < n; ++i) text += (i ? "," + space() : "") + random_value(random, depth + 1) + space();
      return text + "]";
    }
    default: {
      std::string text = "{" + space();
      const unsigned n = random() % 4;
      for (unsigned i = 0; i < n; ++i)
        text += (i ? "," + space() : "") + "\"k" + std::to_string(random() % 5) + "\"" + space() + ":" + space() +
                random_value(random, depth + 1);
      return text + space() + "}";
    }
  }
}

TEST(PlainJsonEvents, RandomDocumentsAndTheirMutantsAreReadAsNlohmannReadsThem) {
  std::mt19937 random(11);
  const std::string changes = "{}[]:,\"\\ 0123456789.eE+-truefalsn\x01\xc3";
  for (int i = 0; i < 3000; ++i) {
    const std::string document = random_value(random, 0);
    expect_read(document);
    std::string mutant = document;
    const std::size_t at = random() % (mutant.size() + 1);
    const char c = changes[random() % changes.size()];
    switch (random() % 3) {
      case 0:
        mutant.insert(at, 1, c);
        break;
      case 1:
        if (at < mutant.size()) mutant.erase(at, 1);
        break;
      default:
        if (at < mutant.size()) mutant[at] = c;
        break;
    }
    expect_read_as_nlohmann_reads(mutant);
  }
}

}  // namespace
}  // namespace gcsim
