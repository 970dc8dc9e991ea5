// fuzz_input.hpp: what every fuzz target shares.
//
// A fuzz target hands libFuzzer's bytes to one parser. The parser's expected
// rejection of bad input is an InputError or a UsageError (the project's
// errors, sim/core/input_error.hpp, usage_error.hpp): rejected() catches
// those. Anything else, another exception, a crash, a sanitizer report, a
// hang or a huge allocation, escapes to libFuzzer and is a finding.
//
// Readers that take a path read the input from a scratch folder of the
// process; an input holding several files gives them as parts separated by
// lines of "#----#" (parts()).
//
//   extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
//     const std::string text = fuzz::input_text(data, size);
//     fuzz::rejected([&] { read_sweep_spec(fuzz::scratch().write("spec.json", text)); });
//     return 0;
//   }
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/input_error.hpp"
#include "sim/core/usage_error.hpp"

namespace gcsim::fuzz {

/// The bytes as a string (any bytes, NULs included).
std::string input_text(const std::uint8_t* data, std::size_t size);

/// `text` split at lines "#----#" into at most `count` parts (the last part
/// keeps any further separators); missing parts are empty.
std::vector<std::string> parts(const std::string& text, std::size_t count);

/// A folder of this process under $TMPDIR (or /tmp), removed at exit.
class ScratchFolder {
 public:
  ScratchFolder();
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  const std::string& path() const { return path_; }
  /// Writes `content` to path()/name (creating its parent folders); returns the file's path.
  std::string write(const std::string& name, const std::string& content) const;
  /// Removes path()/name if it exists.
  void remove(const std::string& name) const;

 private:
  std::string path_;
};

/// The process's scratch folder.
const ScratchFolder& scratch();

/// Runs `parse`; an InputError or UsageError is the parser rejecting its
/// input, and returns true; anything else propagates (a finding).
template <typename Parse>
bool rejected(Parse parse) {
  try {
    parse();
  } catch (const InputError&) {
    return true;
  } catch (const UsageError&) {
    return true;
  }
  return false;
}

/// A finding that is no crash (two readers disagreeing, say): prints `what` and aborts.
[[noreturn]] void finding(const std::string& what);

}  // namespace gcsim::fuzz
