#include "real/rank_namespace.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace gcsim::real {

void enter_rank_namespace(const std::string& prefix) {
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  if (rank == nullptr) throw std::runtime_error("--netns needs OMPI_COMM_WORLD_RANK (start it with Open MPI's mpirun)");
  const std::string path = "/var/run/netns/" + prefix + rank;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  const int rc = setns(fd, CLONE_NEWNET);
  const int err = errno;
  close(fd);
  if (rc != 0) throw std::runtime_error("cannot enter " + path + ": " + std::strerror(err));
}

}  // namespace gcsim::real
