#include "sim/io/text_lines.hpp"

#include <cstdio>
#include <string>

#include "sim/core/input_error.hpp"

namespace gcsim {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// "iconv -f FROM -t UTF-8 FILE > FILE.utf8", the conversion every message offers.
std::string convert_with_iconv(const std::string& from, const std::string& file) {
  return "convert it, e.g. iconv -f " + from + " -t UTF-8 " + file + " > " + file + ".utf8";
}

[[noreturn]] void refuse(const std::string& file, std::size_t number, const std::string& problem) {
  throw InputError(file, "line " + std::to_string(number), "", problem);
}

[[noreturn]] void refuse_wide(const std::string& file, std::size_t number, int bits, bool little, bool marked) {
  const std::string name = "UTF-" + std::to_string(bits);
  // With a mark iconv reads the byte order from it; without, it must be told.
  refuse(file, number,
         "the file is in " + name + (little ? " little-endian" : " big-endian") +
             ", not UTF-8: " + convert_with_iconv(marked ? name : name + (little ? "LE" : "BE"), file));
}

// A compressed file, by the magic number that opens it.
struct Compression {
  std::string_view magic, name, tool, suffix;
};
constexpr Compression kCompressions[] = {{"\x1F\x8B", "gzip", "gzip -dc", ".gz"},
                                         {"BZh", "bzip2", "bzip2 -dc", ".bz2"},
                                         {"\xFD\x37zXZ", "xz", "xz -dc", ".xz"},
                                         {"\x28\xB5\x2F\xFD", "zstd", "zstd -dc", ".zst"},
                                         {"PK\x03\x04", "zip", "unzip -p", ".zip"}};

void refuse_compressed(std::string_view line, const std::string& file) {
  for (const Compression& c : kCompressions) {
    if (!starts_with(line, c.magic)) continue;
    // bzip2's "BZh" is followed by its block size and the block magic "1AY&SY".
    if (c.name == "bzip2" && !(line.size() >= 10 && line[3] >= '1' && line[3] <= '9' && line.substr(4, 6) == "1AY&SY"))
      continue;
    // The name the decompressed file takes: without the usual suffix, else with ".txt".
    const std::string_view name = file;
    const bool suffixed = name.size() > c.suffix.size() && name.substr(name.size() - c.suffix.size()) == c.suffix;
    const std::string plain = suffixed ? file.substr(0, file.size() - c.suffix.size()) : file + ".txt";
    refuse(file, 1,
           "the file is compressed (" + std::string(c.name) + "), not text: decompress it first, e.g. " +
               std::string(c.tool) + " " + file + " > " + plain);
  }
}

// The offset of the first byte that does not belong to a well-formed UTF-8
// sequence (no overlong forms, surrogates or code points above U+10FFFF), or npos.
std::size_t invalid_utf8_at(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t more = 0;
    unsigned char low = 0x80, high = 0xBF;  // the range of the byte after the lead
    if (c >= 0xC2 && c <= 0xDF) {
      more = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      more = 2;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      more = 3;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else {
      return i;
    }
    for (std::size_t k = 1; k <= more; ++k) {
      if (i + k >= text.size()) return i;
      const auto next = static_cast<unsigned char>(text[i + k]);
      if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) return i;
    }
    i += more + 1;
  }
  return std::string_view::npos;
}

// Refuses a line (line `number`, starting at byte `offset` of the file) that
// is not UTF-8 text, naming what it looks like.
void check_utf8_line(std::string_view line, std::size_t number, std::size_t offset, const std::string& file) {
  if (number == 1) {
    if (starts_with(line, std::string_view("\xFF\xFE\0\0", 4))) refuse_wide(file, number, 32, true, true);
    if (starts_with(line, std::string_view("\0\0\xFE\xFF", 4))) refuse_wide(file, number, 32, false, true);
    if (starts_with(line, "\xFF\xFE")) refuse_wide(file, number, 16, true, true);
    if (starts_with(line, "\xFE\xFF")) refuse_wide(file, number, 16, false, true);
    refuse_compressed(line, file);
  }
  if (line.find('\0') != std::string_view::npos) {
    // Wide text without a mark: where its NULs fall in the file tells its width and byte order.
    for (std::size_t i = (4 - offset % 4) % 4; i + 4 <= line.size(); i += 4) {
      const std::string_view unit = line.substr(i, 4);
      if (unit == std::string_view("\0\0\0\0", 4)) continue;
      if (unit.substr(1) == std::string_view("\0\0\0", 3)) refuse_wide(file, number, 32, true, false);
      if (unit.substr(0, 3) == std::string_view("\0\0\0", 3)) refuse_wide(file, number, 32, false, false);
      break;
    }
    std::size_t odd = 0, even = 0;
    for (std::size_t i = 0; i < line.size(); ++i)
      if (line[i] == '\0') ++((offset + i) % 2 ? odd : even);
    if (odd > 0 && even == 0) refuse_wide(file, number, 16, true, false);
    if (even > 0 && odd == 0) refuse_wide(file, number, 16, false, false);
    refuse(file, number, "the line holds NUL bytes: this is not a text file");
  }
  if (const std::size_t at = invalid_utf8_at(line); at != std::string_view::npos) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(line[at]));
    refuse(file, number,
           "not UTF-8 text (byte " + std::to_string(at + 1) + " of the line is " + byte +
               "; it looks like Latin-1 or Windows-1252): " + convert_with_iconv("LATIN1", file));
  }
}

}  // namespace

bool TextLines::next(std::string& line) {
  line.clear();
  std::streambuf& in = *in_.rdbuf();
  int c = in.sbumpc();
  if (c == std::char_traits<char>::eof()) {
    ending_ = "";
    return false;
  }
  while (c != std::char_traits<char>::eof() && c != '\n' && c != '\r') {
    line.push_back(static_cast<char>(c));
    c = in.sbumpc();
  }
  if (c == '\r' && in.sgetc() == '\n') {
    in.sbumpc();
    ending_ = "\r\n";
  } else {
    ending_ = c == '\n' ? "\n" : c == '\r' ? "\r" : "";
  }
  ++number_;
  // The lines up to the header (the first that is not blank) tell the encoding.
  const bool checked = !header_seen_;
  if (checked) check_utf8_line(line, number_, offset_, file_);
  offset_ += line.size() + ending_.size();
  // A byte-order mark is not part of the first column's name.
  if (number_ == 1 && starts_with(line, "\xEF\xBB\xBF")) line.erase(0, 3);
  if (checked) header_seen_ = !is_blank(line);
  return true;
}

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

}  // namespace gcsim
