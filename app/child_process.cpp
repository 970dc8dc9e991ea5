// child_process.cpp: fork and exec without a shell, output captured (child_process.hpp).
#include "app/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "app/interrupt_signals.hpp"

namespace gcsim {

ChildResult run_child(const std::string& program, const std::vector<std::string>& args, ChildOutput output,
                      const std::string& working_directory) {
  int pipe_fds[2] = {-1, -1};
  if (output == ChildOutput::kCapture && ::pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));

  // Everything the child needs is prepared before fork: after it, only
  // async-signal-safe calls.
  std::vector<std::string> copies;
  copies.reserve(args.size() + 1);
  copies.push_back(program);
  copies.insert(copies.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string exec_failed = "cannot execute " + program + ": ";
  const std::string chdir_failed = "cannot enter " + working_directory + ": ";
  // Where this process passes SIGINT and SIGTERM on (interrupt_signals.hpp),
  // the child has a process group of its own, so that a terminal's ^C
  // reaches it once, passed on, not twice; and since a hangup of the
  // terminal then no longer reaches it, it gets SIGTERM when this process ends.
  const bool own_group = interrupt_signals_caught();
  const pid_t parent = ::getpid();

  const pid_t child = ::fork();
  if (child < 0) {
    const int error = errno;
    if (pipe_fds[0] >= 0) ::close(pipe_fds[0]), ::close(pipe_fds[1]);
    throw std::runtime_error(std::string("cannot start a process: ") + std::strerror(error));
  }
  if (child == 0) {
    if (own_group) {
      ::setpgid(0, 0);
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (::getppid() != parent) ::_exit(127);  // this process ended before prctl took effect
    }
    int sink = pipe_fds[1];
    if (output == ChildOutput::kDiscard) sink = ::open("/dev/null", O_WRONLY);
    if (sink < 0 || ::dup2(sink, STDOUT_FILENO) < 0 || ::dup2(sink, STDERR_FILENO) < 0) ::_exit(127);
    const bool entered = working_directory.empty() || ::chdir(working_directory.c_str()) == 0;
    if (entered) ::execv(program.c_str(), argv.data());
    const char* reason = std::strerror(errno);
    const std::string& failed = entered ? exec_failed : chdir_failed;
    [[maybe_unused]] ssize_t ignored = ::write(STDERR_FILENO, failed.data(), failed.size());
    ignored = ::write(STDERR_FILENO, reason, std::strlen(reason));
    ignored = ::write(STDERR_FILENO, "\n", 1);
    ::_exit(127);
  }

  if (own_group) forward_interrupts_to(child);
  ChildResult result;
  if (output == ChildOutput::kCapture) {
    ::close(pipe_fds[1]);
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
      if (n > 0) {
        result.output.append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        break;
      }
    }
    ::close(pipe_fds[0]);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0)
    if (errno != EINTR) {
      if (own_group) forward_interrupts_to(0);
      throw std::runtime_error(std::string("cannot wait for a process: ") + std::strerror(errno));
    }
  if (own_group) forward_interrupts_to(0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::optional<std::string> find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path || name.empty() || name.find('/') != std::string::npos) return std::nullopt;
  std::istringstream directories(path);
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    const std::string candidate = (directory.empty() ? std::string(".") : directory) + "/" + name;
    struct stat info {};
    if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return std::nullopt;
}

}  // namespace gcsim
