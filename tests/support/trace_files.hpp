// trace_files.hpp: test support for the trace readers: where the real
// traces and the bundled excerpts of them are, a temporary folder for
// crafted ones, and counting helpers that read a file independently of the
// code under test.
//
//   const std::string path = real_trace("philly/philly_jobs_pollux.csv");
//   GCSIM_SKIP_UNLESS_PRESENT(path);
//   const std::string excerpt = bundled_excerpt("philly/philly_jobs_pollux.first400.csv");
//   TempFolder dir;
//   std::string file = dir.write("bad.csv", "timestamp,duration,...\n...");
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace gcsim::testing {

/// The real traces live beside the repository, in ../shared/traces.
inline std::string real_trace(const std::string& relative) {
  return std::string(GCSIM_SOURCE_DIR) + "/../shared/traces/" + relative;
}

/// The excerpts of the real traces bundled in traces/excerpts (traces/README.md
/// says which rows of which file each one holds): always present.
inline std::string bundled_excerpt(const std::string& relative) {
  return std::string(GCSIM_SOURCE_DIR) + "/traces/excerpts/" + relative;
}

/// Skips the test, saying what is missing, when a real trace is not here.
#define GCSIM_SKIP_UNLESS_PRESENT(path)                                                           \
  do {                                                                                            \
    if (!std::filesystem::exists(path))                                                           \
      GTEST_SKIP() << "real trace not available: " << (path)                                      \
                   << " (the shared traces folder is expected at <repository>/../shared/traces)"; \
  } while (0)

class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gcsim-trace-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  std::string write(const std::string& name, const std::string& content) const {
    const std::string file = *this / name;
    std::ofstream(file, std::ios::binary) << content;
    return file;
  }

 private:
  std::string path_;
};

/// Calls `line` for every line of the file (without its '\n'); returns the count.
inline std::size_t for_each_line(const std::string& path, const std::function<void(const std::string&)>& line) {
  std::ifstream in(path);
  std::string text;
  std::size_t count = 0;
  while (std::getline(in, text)) {
    ++count;
    line(text);
  }
  return count;
}

inline std::vector<std::string> split_on(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

inline std::vector<std::string> split_spaces(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (in >> part) parts.push_back(part);
  return parts;
}

}  // namespace gcsim::testing
