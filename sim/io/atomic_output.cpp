#include "sim/io/atomic_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace gcsim {
namespace fs = std::filesystem;

namespace {

std::string temporary_name(const fs::path& final_path) {
  return (final_path.parent_path() / ("." + final_path.filename().string() + ".tmp" + std::to_string(::getpid())))
      .string();
}

void write_whole(const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  write(out);
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

}  // namespace

OutputSet::OutputSet(std::string directory) : directory_(std::move(directory)) {}

OutputSet::~OutputSet() {
  if (committed_) return;
  std::error_code ignored;
  for (const auto& [temporary, final_path] : staged_) fs::remove(temporary, ignored);
}

void OutputSet::stage(const std::string& name, const std::string& content) {
  stage(name, [&content](std::ostream& out) { out << content; });
}

void OutputSet::stage(const std::string& name, const std::function<void(std::ostream&)>& write) {
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) throw std::runtime_error("cannot create output directory " + directory_ + ": " + ec.message());
  const fs::path final_path = fs::path(directory_) / name;
  const std::string temporary = temporary_name(final_path);
  // Staging a name again replaces its content; it is still renamed once.
  bool already_staged = false;
  for (const auto& entry : staged_) already_staged |= entry.first == temporary;
  if (!already_staged) staged_.emplace_back(temporary, final_path.string());
  write_whole(temporary, write);
}

void OutputSet::commit() {
  for (const auto& [temporary, final_path] : staged_) {
    std::error_code ec;
    fs::rename(temporary, final_path, ec);
    if (ec) throw std::runtime_error("cannot move " + temporary + " to " + final_path + ": " + ec.message());
  }
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& content) {
  write_file_atomically(path, [&content](std::ostream& out) { out << content; });
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const fs::path final_path(path);
  if (final_path.has_parent_path()) fs::create_directories(final_path.parent_path());
  const std::string temporary = temporary_name(final_path);
  try {
    write_whole(temporary, write);
    fs::rename(temporary, final_path);
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
}

}  // namespace gcsim
