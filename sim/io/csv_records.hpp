// csv_records.hpp: the one reader of delimited files (RFC 4180 CSV, or with
// another delimiter): the trace readers, the files gcsim writes and reads
// back (jobs.csv, timeline.csv), sweep rows, serving rate tables.
//
// A record is a line of fields split at the delimiter. A field that opens
// with a quote (after any spaces) is quoted: it may hold the delimiter, a
// quote written twice (""), and line breaks, so one record may span several
// lines of the file. Elsewhere a quote is an ordinary character. The lines
// come from TextLines (text_lines.hpp): "\n", "\r\n" or a lone "\r" end
// them, a UTF-8 byte-order mark is dropped, a file in another encoding is
// refused naming it. Lines of only spaces and tabs are skipped. A line break
// inside a quoted field is kept as written.
//
// Each record keeps the line it begins on, counted in lines of the file, so
// the records after one that spans lines are still named by their own line.
// A file that ends inside a quoted field is an InputError naming the line
// where that record began.
//
//   std::ifstream in(path);
//   CsvRecords records(in, path, ',');
//   for (CsvRecord record; records.next(record);) use(record.line, record.fields);
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/io/text_lines.hpp"

namespace gcsim {

/// One record: its fields and the 1-based line of the file it begins on.
struct CsvRecord {
  std::size_t line = 0;
  std::vector<std::string> fields;
};

class CsvRecords {
 public:
  /// `file` names the input in errors.
  CsvRecords(std::istream& in, std::string file, char delimiter = ',');

  /// The next record that is not a blank line; false at the end of the input.
  /// Throws InputError(file, "line N", ...) for a quoted field the file ends
  /// in, or a file in another encoding (text_lines.hpp).
  bool next(CsvRecord& record);
  const std::string& file() const { return lines_.file(); }

 private:
  TextLines lines_;
  char delimiter_;
  std::string line_;
};

/// Every record of `text`, a whole file's content that `file` names in errors.
std::vector<CsvRecord> read_csv_records(const std::string& text, const std::string& file, char delimiter = ',');

/// The fields of one record written in `text` (a header line already read, a
/// list inside a field such as "A100|V100"), by the same rules; a quote left
/// open runs to the end of the text.
std::vector<std::string> csv_fields(std::string_view text, char delimiter);

}  // namespace gcsim
