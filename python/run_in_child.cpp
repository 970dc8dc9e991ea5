#include "python/run_in_child.hpp"

#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "app/interrupt_signals.hpp"

namespace gcsim::python {
namespace {

// The pipe carries frames: a key and a value, each as its length (8 bytes,
// the machine's order: both ends are this process's forks) then its bytes.
bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

bool write_text(int fd, const std::string& text) {
  const std::uint64_t size = text.size();
  return write_all(fd, reinterpret_cast<const char*>(&size), sizeof size) && write_all(fd, text.data(), text.size());
}

bool write_frame(int fd, const std::string& key, const std::string& value) {
  return write_text(fd, key) && write_text(fd, value);
}

void send_error(int fd, const ErrorDescription& error) {
  write_frame(fd, "error.kind", error.kind);
  write_frame(fd, "error.message", error.message);
  write_frame(fd, "error.file", error.file);
  write_frame(fd, "error.where", error.where);
  write_frame(fd, "error.field", error.field);
  write_frame(fd, "error.problem", error.problem);
}

// The child's whole life: run, send, end without any teardown.
[[noreturn]] void child_main(const RunRequest& parent_request, int fd, const sigset_t& signal_mask,
                             const ForkHooks& hooks) {
  if (hooks.in_child) hooks.in_child();
  RunRequest request = parent_request;
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  catch_interrupt_signals();
  ::pthread_sigmask(SIG_SETMASK, &signal_mask, nullptr);
  request.stop_request = interrupt_flag();
  request.before_simulating = nullptr;
  request.progress = nullptr;
  int status = 0;
  try {
    std::ostringstream notes;
    const RunResult result = run_simulation(request, notes);
    write_frame(fd, "notes", notes.str());
    for (const std::string& name : run_output_names(result)) {
      std::ostringstream file;
      write_run_output(file, result, name);
      if (!write_frame(fd, "file", name) || !write_text(fd, file.str())) ::_exit(3);
    }
    write_frame(fd, "early_stop", early_stop(result.record));
    write_frame(fd, "diagnosis", early_stop_diagnosis(result));
    write_frame(fd, "human_summary",
                human_summary(result.record, result.metrics, result.trace ? &*result.trace : nullptr));
  } catch (...) {
    send_error(fd, describe_current_exception());
    status = 1;
  }
  write_frame(fd, "end", "");
  ::close(fd);
  if (hooks.child_ends) hooks.child_ends();
  ::_exit(status);
}

// Reads frames from a growing buffer.
class FrameReader {
 public:
  explicit FrameReader(const std::string& buffer) : buffer_(buffer) {}
  bool next(std::string& text) {
    std::uint64_t size = 0;
    if (buffer_.size() - at_ < sizeof size) return false;
    std::memcpy(&size, buffer_.data() + at_, sizeof size);
    if (buffer_.size() - at_ - sizeof size < size) return false;
    text.assign(buffer_, at_ + sizeof size, size);
    at_ += sizeof size + size;
    return true;
  }

 private:
  const std::string& buffer_;
  std::size_t at_ = 0;
};

ChildRun parse_frames(const std::string& buffer) {
  ChildRun run;
  FrameReader reader(buffer);
  std::string key, value;
  bool ended = false;
  while (reader.next(key) && reader.next(value)) {
    if (key == "file") {
      std::string content;
      if (!reader.next(content)) break;
      run.file_order.push_back(value);
      run.files[value] = std::move(content);
    } else if (key == "notes") {
      run.notes = value;
    } else if (key == "early_stop") {
      run.early_stop = value;
    } else if (key == "diagnosis") {
      run.diagnosis = value;
    } else if (key == "human_summary") {
      run.human_summary = value;
    } else if (key.rfind("error.", 0) == 0) {
      if (!run.error) run.error.emplace();
      ErrorDescription& error = *run.error;
      if (key == "error.kind") error.kind = value;
      if (key == "error.message") error.message = value;
      if (key == "error.file") error.file = value;
      if (key == "error.where") error.where = value;
      if (key == "error.field") error.field = value;
      if (key == "error.problem") error.problem = value;
    } else if (key == "end") {
      ended = true;
    }
  }
  if (!ended) throw std::runtime_error("the simulation's process ended before sending its whole result");
  return run;
}

std::string child_end(int status) {
  if (WIFSIGNALED(status))
    return std::string("the simulation's process was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
           ::strsignal(WTERMSIG(status)) + ")";
  return "the simulation's process ended with status " + std::to_string(WEXITSTATUS(status)) +
         " without sending its result";
}

// Kills and reaps the child unless it was reaped: a run abandoned, or left
// by an exception while it waits, leaves no simulation running behind it.
struct ChildReaper {
  pid_t pid;
  bool reaped = false;
  ChildReaper(const ChildReaper&) = delete;
  ChildReaper& operator=(const ChildReaper&) = delete;
  ~ChildReaper() {
    if (reaped) return;
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
};

}  // namespace

ChildRun run_in_child(const RunRequest& request, const std::function<WaitAction()>& poll, const ForkHooks& hooks) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("cannot open a pipe: ") + std::strerror(errno));
  // SIGINT and SIGTERM are held back until the child has its handlers, so
  // that a stop sent at once stops the run instead of killing the child.
  sigset_t interrupts, before;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &interrupts, &before);
  if (hooks.before) hooks.before();
  const pid_t child = ::fork();
  if (child != 0) {
    if (hooks.in_parent) hooks.in_parent();
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  }
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("cannot start the simulation's process: ") + std::strerror(errno));
  }
  if (child == 0) {
    ::close(fds[0]);
    child_main(request, fds[1], before, hooks);
  }
  ::close(fds[1]);
  ChildReaper reaper{child};
  std::string buffer;
  std::vector<char> chunk(1 << 16);
  bool stopped = false;
  for (;;) {
    pollfd ready{fds[0], POLLIN, 0};
    const int events = ::poll(&ready, 1, 100);
    if (events > 0) {
      const ssize_t got = ::read(fds[0], chunk.data(), chunk.size());
      if (got > 0) {
        buffer.append(chunk.data(), static_cast<std::size_t>(got));
        continue;
      }
      if (got == 0) break;
      if (errno != EINTR) break;
    }
    const WaitAction action = poll();
    if (action == WaitAction::kAbandon) {
      ::close(fds[0]);
      ChildRun abandoned;  // the reaper kills and reaps the child
      abandoned.abandoned = true;
      return abandoned;
    }
    if (action == WaitAction::kStop && !stopped) {
      stopped = true;
      ::kill(child, SIGINT);
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  reaper.reaped = true;
  try {
    return parse_frames(buffer);
  } catch (const std::runtime_error&) {
    throw std::runtime_error(child_end(status));
  }
}

}  // namespace gcsim::python
