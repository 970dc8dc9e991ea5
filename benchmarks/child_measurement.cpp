#include "benchmarks/child_measurement.hpp"

#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <exception>
#include <iostream>
#include <string>

namespace gcsim::bench {

ChildMeasurement measure_in_child(const std::function<ChildFigures()>& work) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe() failed");
  std::cout.flush();
  std::cerr.flush();
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    throw std::runtime_error("fork() failed");
  }
  if (child == 0) {
    close(fds[0]);
    int status = 1;
    try {
      const ChildFigures figures = work();
      if (write(fds[1], &figures, sizeof figures) == static_cast<ssize_t>(sizeof figures)) status = 0;
    } catch (const std::exception& e) {
      std::cerr << "benchmark child: " << e.what() << "\n";
    }
    close(fds[1]);
    _exit(status);  // no atexit handlers, no second flush of the parent's buffers
  }
  close(fds[1]);
  ChildFigures figures;
  ssize_t got = 0;
  do got = read(fds[0], &figures, sizeof figures);
  while (got < 0 && errno == EINTR);
  close(fds[0]);
  int status = 0;
  rusage usage{};
  while (wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  if (got != static_cast<ssize_t>(sizeof figures) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("the measured child failed (status " + std::to_string(status) + ")");
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return {figures.seconds, figures.items, seconds(usage.ru_utime) + seconds(usage.ru_stime),
          static_cast<double>(usage.ru_maxrss) * 1024.0};
}

}  // namespace gcsim::bench
