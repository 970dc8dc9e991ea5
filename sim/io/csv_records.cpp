#include "sim/io/csv_records.hpp"

#include <streambuf>
#include <utility>

#include "sim/core/input_error.hpp"

namespace gcsim {
namespace {

// Splits a record's text into fields, a line at a time.
class FieldSplitter {
 public:
  FieldSplitter(char delimiter, std::vector<std::string>& fields) : delimiter_(delimiter), fields_(fields) {
    fields_.assign(1, std::string());
  }

  /// Reads the next piece of the record; true while a quoted field is open at its end.
  bool feed(std::string_view piece) {
    ++pieces_;
    for (std::size_t i = 0; i < piece.size(); ++i) {
      const char c = piece[i];
      std::string& field = fields_.back();
      if (quoted_) {
        if (c != '"') {
          field += c;
        } else if (i + 1 < piece.size() && piece[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted_ = false;
        }
      } else if (c == delimiter_) {
        fields_.emplace_back();
      } else if (c == '"' && is_blank(field)) {
        field.clear();  // the spaces before a quoted field are not part of it
        quoted_ = true;
        opened_in_ = pieces_;
      } else {
        field += c;
      }
    }
    return quoted_;
  }
  /// The piece (1 for the first) in which the quoted field open now began.
  std::size_t open_quote_piece() const { return opened_in_; }

 private:
  char delimiter_;
  std::vector<std::string>& fields_;
  bool quoted_ = false;
  std::size_t pieces_ = 0, opened_in_ = 0;
};

// A read-only stream over text held elsewhere, so that a whole file's text is
// not copied to be read as a stream. Nothing is ever written through it.
class TextBuffer : public std::streambuf {
 public:
  explicit TextBuffer(const std::string& text) {
    char* begin = const_cast<char*>(text.data());
    setg(begin, begin, begin + text.size());
  }
};

}  // namespace

CsvRecords::CsvRecords(std::istream& in, std::string file, char delimiter)
    : lines_(in, std::move(file)), delimiter_(delimiter) {}

bool CsvRecords::next(CsvRecord& record) {
  while (lines_.next(line_)) {
    if (is_blank(line_)) continue;
    record.line = lines_.number();
    FieldSplitter fields(delimiter_, record.fields);
    // Each piece is a line: while a quoted field is open, its line break is
    // part of it and the record goes on on the next line.
    while (fields.feed(line_)) {
      record.fields.back() += lines_.ending();
      if (!lines_.next(line_))
        throw InputError(file(), "line " + std::to_string(record.line), "",
                         "the quoted field opened on line " +
                             std::to_string(record.line + fields.open_quote_piece() - 1) +
                             " is never closed: the file ends inside it (a quote is missing or doubled)");
    }
    return true;
  }
  return false;
}

std::vector<CsvRecord> read_csv_records(const std::string& text, const std::string& file, char delimiter) {
  TextBuffer buffer(text);
  std::istream in(&buffer);
  CsvRecords records(in, file, delimiter);
  std::vector<CsvRecord> all;
  for (CsvRecord record; records.next(record);) all.push_back(std::move(record));
  return all;
}

std::vector<std::string> csv_fields(std::string_view text, char delimiter) {
  std::vector<std::string> fields;
  FieldSplitter(delimiter, fields).feed(text);
  return fields;
}

}  // namespace gcsim
