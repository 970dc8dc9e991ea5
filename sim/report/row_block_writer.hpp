// row_block_writer.hpp: the rows of a large text file written a block at a time.
//
// A file of a row per job or per timeline change has hundreds of thousands
// of rows. Writing each field to the std::ostream costs a stream call per
// field; RowBlockWriter gathers the rows in one block of memory and hands
// the stream a block of about 64 KiB at a time, so that the memory it holds
// stays the same whatever the number of rows.
//
//   RowBlockWriter rows(out);
//   rows.text("time,busy\n");
//   rows.text(fixed(t, 6)).character(',').integer(busy).character('\n');
//   rows.end_row();
//   rows.flush();  // the rest, before the stream is closed
#pragma once

#include <charconv>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

namespace gcsim {

class RowBlockWriter {
 public:
  explicit RowBlockWriter(std::ostream& out) : out_(out) { block_.reserve(kBlockBytes + kBlockBytes / 4); }
  RowBlockWriter(const RowBlockWriter&) = delete;
  RowBlockWriter& operator=(const RowBlockWriter&) = delete;
  ~RowBlockWriter() = default;  // flush() is explicit: a stream error is then the caller's to see

  RowBlockWriter& text(std::string_view text) {
    block_.append(text);
    return *this;
  }
  RowBlockWriter& character(char c) {
    block_.push_back(c);
    return *this;
  }
  /// An integer in decimal, as std::ostream writes it with default flags.
  template <class Integer>
  RowBlockWriter& integer(Integer value) {
    static_assert(std::is_integral_v<Integer>, "an integral value");
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    block_.append(digits, static_cast<std::size_t>(end - digits));
    return *this;
  }
  /// Hands the block to the stream once it has grown past its size.
  void end_row() {
    if (block_.size() >= kBlockBytes) flush();
  }
  /// Hands what is gathered to the stream.
  void flush() {
    out_.write(block_.data(), static_cast<std::streamsize>(block_.size()));
    block_.clear();
  }

 private:
  static constexpr std::size_t kBlockBytes = 64 * 1024;
  std::ostream& out_;
  std::string block_;
};

}  // namespace gcsim
