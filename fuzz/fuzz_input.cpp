#include "fuzz/fuzz_input.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace gcsim::fuzz {

namespace fs = std::filesystem;

std::string input_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

std::vector<std::string> parts(const std::string& text, std::size_t count) {
  static const std::string kSeparator = "#----#";
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (out.size() + 1 < count) {
    std::size_t at = text.find(kSeparator, begin);
    while (at != std::string::npos && at != 0 && text[at - 1] != '\n') at = text.find(kSeparator, at + 1);
    if (at == std::string::npos) break;
    out.push_back(text.substr(begin, at - begin));
    begin = at + kSeparator.size();
    if (begin < text.size() && text[begin] == '\n') ++begin;
  }
  out.push_back(text.substr(std::min(begin, text.size())));
  out.resize(count);
  return out;
}

ScratchFolder::ScratchFolder() {
  const char* tmp = std::getenv("TMPDIR");
  path_ = (fs::path(tmp && *tmp ? tmp : "/tmp") / ("gcsim-fuzz-" + std::to_string(::getpid()))).string();
  fs::create_directories(path_);
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::string ScratchFolder::write(const std::string& name, const std::string& content) const {
  const fs::path file = fs::path(path_) / name;
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out) finding("cannot write the scratch file " + file.string());
  return file.string();
}

void ScratchFolder::remove(const std::string& name) const {
  std::error_code ignored;
  fs::remove(fs::path(path_) / name, ignored);
}

const ScratchFolder& scratch() {
  static const ScratchFolder folder;
  return folder;
}

void finding(const std::string& what) {
  std::cerr << "finding: " << what << std::endl;
  std::abort();
}

}  // namespace gcsim::fuzz
