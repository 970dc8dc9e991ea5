// text_lines.hpp: the lines of a text file with their 1-based numbers, the
// layer under every reader of lines or delimited records (csv_records.hpp,
// the trace readers, SWF).
//
// A line ends at "\n", "\r\n" or a lone "\r" (old Mac files); a UTF-8
// byte-order mark opening the file is dropped. A file in another encoding is
// refused with an InputError that names the encoding and the command that
// converts it, rather than read as garbled column names:
//   - a UTF-16 or UTF-32 byte-order mark opening the file;
//   - NUL bytes in the lines up to the first that is not blank (UTF-16 or
//     UTF-32 without a mark, whose byte order the NULs' places tell);
//   - a compressed file (gzip, bzip2, xz, zip), by its magic number;
//   - bytes that are not UTF-8 in those lines (Latin-1, Windows-1252).
// Only the lines up to the first non-blank one, the header of a delimited
// file, are checked: later lines are passed on as bytes.
//
//   std::ifstream in(path);
//   TextLines lines(in, path);
//   for (std::string line; lines.next(line);) use(lines.number(), line);
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>

namespace gcsim {

class TextLines {
 public:
  /// `file` names the input in errors.
  TextLines(std::istream& in, std::string file) : in_(in), file_(std::move(file)) {}

  /// The next line, without its ending; false at the end of the input.
  /// Throws InputError(file, "line N", "", ...) for a file in another encoding.
  bool next(std::string& line);
  /// Number of the line last returned.
  std::size_t number() const { return number_; }
  /// What ended the line last returned: "\n", "\r\n", "\r", or "" when the input ended without one.
  std::string_view ending() const { return ending_; }
  const std::string& file() const { return file_; }

 private:
  std::istream& in_;
  std::string file_;
  std::size_t number_ = 0;
  std::size_t offset_ = 0;  // of the next line's first byte in the file
  std::string_view ending_;
  bool header_seen_ = false;  // a line that is not blank has been returned (and checked)
};

/// True when the line holds only spaces and tabs.
bool is_blank(std::string_view line);

}  // namespace gcsim
