// atomic_output.cpp: staged files renamed into place (atomic_output.hpp),
// and the table of staged temporary names a signal handler removes.
#include "sim/io/atomic_output.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace gcsim {
namespace fs = std::filesystem;

namespace {

// The temporary files staged and not yet renamed or removed, in slots a
// signal handler can read: a slot is free (0), being filled (1) or names a
// file (2). Past kSlots staged files at once, a file is not listed (a signal
// ending the process would leave it; nothing else changes).
constexpr std::size_t kSlots = 64;
constexpr std::size_t kPathBytes = 4096;
struct StagedSlot {
  std::atomic<int> state{0};
  char path[kPathBytes];
};
std::array<StagedSlot, kSlots> staged_files;

void list_staged(const std::string& path) {
  if (path.size() >= kPathBytes) return;
  for (StagedSlot& slot : staged_files) {
    int expected = 0;
    if (!slot.state.compare_exchange_strong(expected, 1)) continue;
    path.copy(slot.path, path.size());
    slot.path[path.size()] = '\0';
    slot.state.store(2);
    return;
  }
}

void unlist_staged(const std::string& path) {
  for (StagedSlot& slot : staged_files)
    if (slot.state.load() == 2 && path == slot.path) slot.state.store(0);
}

// Holds SIGINT and SIGTERM back while it lives.
class InterruptsHeld {
 public:
  InterruptsHeld() {
    sigset_t interrupts;
    sigemptyset(&interrupts);
    sigaddset(&interrupts, SIGINT);
    sigaddset(&interrupts, SIGTERM);
    ::sigprocmask(SIG_BLOCK, &interrupts, &before_);
  }
  ~InterruptsHeld() { ::sigprocmask(SIG_SETMASK, &before_, nullptr); }
  InterruptsHeld(const InterruptsHeld&) = delete;
  InterruptsHeld& operator=(const InterruptsHeld&) = delete;

 private:
  sigset_t before_;
};

std::string temporary_name(const fs::path& final_path) {
  return (final_path.parent_path() / ("." + final_path.filename().string() + ".tmp" + std::to_string(::getpid())))
      .string();
}

// Removes the temporary files of `final_path` that a process no longer
// running left behind (killed before it could remove them): ".NAME.tmpPID".
void remove_stale_temporaries(const fs::path& final_path) {
  const std::string prefix = "." + final_path.filename().string() + ".tmp";
  const fs::path directory = final_path.has_parent_path() ? final_path.parent_path() : fs::path(".");
  std::error_code ec;
  for (fs::directory_iterator entry(directory, ec), end; !ec && entry != end; entry.increment(ec)) {
    const std::string name = entry->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid = name.substr(prefix.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || pid.size() > 9) continue;
    const pid_t owner = static_cast<pid_t>(std::stol(pid));
    if (::kill(owner, 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      fs::remove(entry->path(), ignored);
    }
  }
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
  for (const auto& [temporary, final_path] : staged_) {
    fs::remove(temporary, ignored);
    unlist_staged(temporary);
  }
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
  if (std::find_if(staged_.begin(), staged_.end(), [&](const auto& entry) { return entry.first == temporary; }) ==
      staged_.end())
    remove_stale_temporaries(final_path);
  // Staging a name again replaces its content; it is still renamed once.
  bool already_staged = false;
  for (const auto& entry : staged_) already_staged |= entry.first == temporary;
  if (!already_staged) {
    staged_.emplace_back(temporary, final_path.string());
    list_staged(temporary);
  }
  write_whole(temporary, write);
}

void OutputSet::commit() {
  const InterruptsHeld held;
  for (const auto& [temporary, final_path] : staged_) {
    std::error_code ec;
    fs::rename(temporary, final_path, ec);
    if (ec) throw std::runtime_error("cannot move " + temporary + " to " + final_path + ": " + ec.message());
    unlist_staged(temporary);
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
  remove_stale_temporaries(final_path);
  list_staged(temporary);
  try {
    write_whole(temporary, write);
    const InterruptsHeld held;
    fs::rename(temporary, final_path);
    unlist_staged(temporary);
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    unlist_staged(temporary);
    throw;
  }
}

void remove_staged_files_now() noexcept {
  for (StagedSlot& slot : staged_files)
    if (slot.state.load() == 2) ::unlink(slot.path);
}

}  // namespace gcsim
