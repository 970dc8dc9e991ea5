// The one CSV record reader (sim/io/csv_records.hpp) and the numbered lines
// under it (text_lines.hpp): quoted fields holding delimiters, quotes and
// line breaks, the line each record begins on, line endings of any platform,
// a byte-order mark, a quote never closed, and files in other encodings.
#include <gtest/gtest.h>

#include <sstream>
#include <utility>

#include "sim/core/input_error.hpp"
#include "sim/io/csv_records.hpp"
#include "sim/io/text_lines.hpp"

namespace gcsim {
namespace {

using Records = std::vector<std::pair<std::size_t, std::vector<std::string>>>;

Records records_of(const std::string& text, char delimiter = ',') {
  Records out;
  for (CsvRecord& record : read_csv_records(text, "t.csv", delimiter))
    out.emplace_back(record.line, std::move(record.fields));
  return out;
}

TEST(CsvRecords, QuotedFieldsHoldDelimitersQuotesAndLineBreaks) {
  EXPECT_EQ(records_of("a,b\n\"x, \"\"y\"\"\",\"two\nlines\"\nlast,row\n"),
            (Records{{1, {"a", "b"}}, {2, {"x, \"y\"", "two\nlines"}}, {4, {"last", "row"}}}));
  // Line breaks inside a quoted field are kept as written, and counted.
  EXPECT_EQ(records_of("\"a\r\n\r\nb\",c\r\nd,e\r\n"), (Records{{1, {"a\r\n\r\nb", "c"}}, {4, {"d", "e"}}}));
  EXPECT_EQ(records_of("\"a\rb\",c\rd,e\r"), (Records{{1, {"a\rb", "c"}}, {3, {"d", "e"}}}));
  // Empty fields, quoted or not, and a last line without a line break.
  EXPECT_EQ(records_of(",\"\",x\n\"\"\"\""), (Records{{1, {"", "", "x"}}, {2, {"\""}}}));
}

TEST(CsvRecords, AQuoteOpensAFieldOnlyAtItsStart) {
  // After spaces a quote still opens the field (the spaces are dropped); inside one it is a character.
  EXPECT_EQ(records_of("  \"a,b\" ,5 in\"ch,c\"d\n"), (Records{{1, {"a,b ", "5 in\"ch", "c\"d"}}}));
  EXPECT_EQ(records_of("a;\"b;c\";d\n", ';'), (Records{{1, {"a", "b;c", "d"}}}));
}

TEST(CsvRecords, BlankLinesAreSkippedAndLaterRecordsKeepTheirLines) {
  EXPECT_EQ(records_of("\n  \nh1,h2\n\t\n\"x\n\ny\",1\n\nz,2"),
            (Records{{3, {"h1", "h2"}}, {5, {"x\n\ny", "1"}}, {9, {"z", "2"}}}));
  EXPECT_TRUE(records_of("").empty());
  EXPECT_TRUE(records_of("\n \r\n").empty());
}

TEST(CsvRecords, AByteOrderMarkOpeningTheFileIsDropped) {
  EXPECT_EQ(records_of("\xEF\xBB\xBFid,user\n\xEF\xBB\xBFx,y\n"),
            (Records{{1, {"id", "user"}}, {2, {"\xEF\xBB\xBFx", "y"}}}));  // only the file's first bytes are a mark
}

TEST(CsvRecords, AFileEndingInsideAQuotedFieldNamesTheLineItsRecordBegins) {
  try {
    records_of("h\nok\n\"open,\nstill\nopen\n");
    FAIL() << "read a file that ends inside a quoted field";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "t.csv");
    EXPECT_EQ(e.where(), "line 3");
    EXPECT_EQ(e.problem(),
              "the quoted field opened on line 3 is never closed: the file ends inside it (a quote is missing or "
              "doubled)");
  }
  try {
    records_of("a,\"b\nc\",\"d\ne");  // the second quoted field, opened on line 2, is the open one
    FAIL() << "read a file that ends inside a quoted field";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "line 1");
    EXPECT_NE(e.problem().find("opened on line 2"), std::string::npos) << e.what();
  }
}

TEST(CsvRecords, FieldsOfOneRecordGivenAsText) {
  EXPECT_EQ(csv_fields("A100|V100||\"a|b\"", '|'), (std::vector<std::string>{"A100", "V100", "", "a|b"}));
  EXPECT_EQ(csv_fields("", ','), (std::vector<std::string>{""}));
  EXPECT_EQ(csv_fields("\"open,rest", ','), (std::vector<std::string>{"open,rest"}));  // runs to the end
}

std::vector<std::pair<std::size_t, std::string>> lines_of(const std::string& text) {
  std::istringstream in(text);
  TextLines lines(in, "t.txt");
  std::vector<std::pair<std::size_t, std::string>> out;
  for (std::string line; lines.next(line);) out.emplace_back(lines.number(), line);
  return out;
}

TEST(TextLines, LinesEndAtLfCrLfOrALoneCr) {
  using Lines = std::vector<std::pair<std::size_t, std::string>>;
  // Unix, Windows and old Mac endings, mixed: five lines, the blank one counted.
  EXPECT_EQ(lines_of("a,b\nc,d\r\ne,f\r\rg"), (Lines{{1, "a,b"}, {2, "c,d"}, {3, "e,f"}, {4, ""}, {5, "g"}}));
  // A whole file with CR endings is three lines, not one.
  EXPECT_EQ(lines_of("h\r1\r2\r"), (Lines{{1, "h"}, {2, "1"}, {3, "2"}}));
  EXPECT_TRUE(lines_of("").empty());
}

// The problem of the InputError reading `text` throws; "" when none.
std::string encoding_problem(const std::string& text) {
  try {
    lines_of(text);
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "t.txt");
    return e.where() + ": " + e.problem();
  }
  return "";
}

// `ascii` in UTF-16 (little- or big-endian), after a byte-order mark when `mark`.
std::string utf16(const std::string& ascii, bool little, bool mark) {
  std::string out = mark ? (little ? "\xFF\xFE" : "\xFE\xFF") : "";
  for (char c : ascii) out += little ? std::string{c, '\0'} : std::string{'\0', c};
  return out;
}

TEST(TextLines, WideEncodingsAreNamedByTheirMarkOrWhereTheirNulsFall) {
  const std::string fix = " -t UTF-8 t.txt > t.txt.utf8";
  EXPECT_EQ(encoding_problem(utf16("a,b\n1,2\n", true, true)),
            "line 1: the file is in UTF-16 little-endian, not UTF-8: convert it, e.g. iconv -f UTF-16" + fix);
  EXPECT_EQ(encoding_problem(utf16("a,b\n1,2\n", false, true)),
            "line 1: the file is in UTF-16 big-endian, not UTF-8: convert it, e.g. iconv -f UTF-16" + fix);
  EXPECT_EQ(encoding_problem(utf16("a,b\n1,2\n", true, false)),
            "line 1: the file is in UTF-16 little-endian, not UTF-8: convert it, e.g. iconv -f UTF-16LE" + fix);
  EXPECT_EQ(encoding_problem(utf16("a,b\n1,2\n", false, false)),
            "line 1: the file is in UTF-16 big-endian, not UTF-8: convert it, e.g. iconv -f UTF-16BE" + fix);
  // Blank lines first: the NULs' places in the file, not in the line, tell the byte order.
  EXPECT_EQ(encoding_problem(utf16("\n \na,b\n", true, false)).substr(0, 54),
            "line 2: the file is in UTF-16 little-endian, not UTF-8");
  EXPECT_EQ(encoding_problem(std::string("\xFF\xFE\0\0a\0\0\0", 8)),
            "line 1: the file is in UTF-32 little-endian, not UTF-8: convert it, e.g. iconv -f UTF-32" + fix);
  EXPECT_EQ(encoding_problem(std::string("\0\0\0a\0\0\0,", 8)),
            "line 1: the file is in UTF-32 big-endian, not UTF-8: convert it, e.g. iconv -f UTF-32BE" + fix);
  // A line of only a UTF-8 byte-order mark is blank: the header after it is checked.
  EXPECT_EQ(encoding_problem("\xEF\xBB\xBF\n" + utf16("a,b\n", true, false)).substr(0, 54),
            "line 2: the file is in UTF-16 little-endian, not UTF-8");
  EXPECT_EQ(encoding_problem(std::string("ab\0\0cd\n", 7)),
            "line 1: the line holds NUL bytes: this is not a text file");
}

TEST(TextLines, BytesThatAreNotUtf8InTheHeaderAreNamedAsLatin1) {
  EXPECT_EQ(encoding_problem("id,dur\xE9\x65\n"),
            "line 1: not UTF-8 text (byte 7 of the line is 0xE9; it looks like Latin-1 or Windows-1252): convert "
            "it, e.g. iconv -f LATIN1 -t UTF-8 t.txt > t.txt.utf8");
  EXPECT_NE(encoding_problem("\n\nid,\xC0\xAF\n").find("line 3: not UTF-8 text (byte 4"),
            std::string::npos);                                                                 // overlong
  EXPECT_NE(encoding_problem("\xED\xA0\x80\n").find("not UTF-8 text"), std::string::npos);      // a surrogate
  EXPECT_NE(encoding_problem("\xF4\x90\x80\x80\n").find("not UTF-8 text"), std::string::npos);  // > U+10FFFF
  EXPECT_NE(encoding_problem("caf\xC3\n").find("not UTF-8 text"), std::string::npos);           // cut short
  // UTF-8 of every length reads; after the header, lines are passed on as bytes.
  EXPECT_EQ(encoding_problem("caf\xC3\xA9,\xE2\x82\xAC,\xF0\x9F\x98\x80\n\xE9\n"), "");
}

TEST(TextLines, ACompressedFileIsNamedWithTheCommandThatDecompressesIt) {
  EXPECT_EQ(encoding_problem(std::string("\x1F\x8B\x08\0\0\0", 6)),
            "line 1: the file is compressed (gzip), not text: decompress it first, e.g. gzip -dc t.txt > t.txt.txt");
  EXPECT_NE(encoding_problem("BZh91AY&SY\x01\x02").find("compressed (bzip2)"), std::string::npos);
  EXPECT_EQ(encoding_problem("BZh is a word\n"), "");  // not bzip2 without its block magic
  EXPECT_NE(encoding_problem(std::string("\xFD\x37zXZ\0", 6)).find("compressed (xz)"), std::string::npos);
  EXPECT_NE(encoding_problem("PK\x03\x04\x14").find("compressed (zip)"), std::string::npos);
}

}  // namespace
}  // namespace gcsim
