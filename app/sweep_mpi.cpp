#include "app/sweep_mpi.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "sim/io/atomic_output.hpp"

namespace gcsim {
namespace {

std::size_t env_count(const char* name, std::size_t fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const unsigned long value = std::strtoul(text, &end, 10);
  if (*end != '\0') throw std::runtime_error(std::string("$") + name + " is not a number: '" + text + "'");
  return value;
}

}  // namespace

SweepRanks::SweepRanks(std::string out_dir) : out_dir_(std::move(out_dir)) {
  size_ = env_count("OMPI_COMM_WORLD_SIZE", 1);
  rank_ = env_count("OMPI_COMM_WORLD_RANK", 0);
  if (size_ < 1 || rank_ >= size_) throw std::runtime_error("the MPI rank and size from the environment do not agree");
  const char* job = std::getenv("PMIX_NAMESPACE");
  job_ = job && *job ? job : "job";
}

// One file per rank and per mpirun job, so that an earlier sweep's are never taken for this one's.
std::string SweepRanks::file_of(std::size_t rank) const {
  return out_dir_ + "/ranks/" + job_ + "-" + std::to_string(size_) + "-" + std::to_string(rank) + ".rows";
}

SweepRanks::Totals SweepRanks::gather(const std::string& rows, std::size_t ran, std::size_t failed) const {
  if (size_ == 1) return {rows, ran, failed};
  std::filesystem::create_directories(out_dir_ + "/ranks");
  // The counts on the first line, the rows after.
  write_file_atomically(file_of(rank_), std::to_string(ran) + " " + std::to_string(failed) + "\n" + rows);
  if (rank_ != 0) return {rows, ran, failed};
  Totals totals;
  for (std::size_t r = 0; r < size_; ++r) {
    while (!std::filesystem::exists(file_of(r))) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::ifstream in(file_of(r));
    std::size_t its_ran = 0, its_failed = 0;
    in >> its_ran >> its_failed;
    in.ignore(1);
    std::ostringstream its_rows;
    its_rows << in.rdbuf();
    totals.rows += its_rows.str();
    totals.ran += its_ran;
    totals.failed += its_failed;
  }
  for (std::size_t r = 0; r < size_; ++r) std::filesystem::remove(file_of(r));
  std::filesystem::remove(out_dir_ + "/ranks");  // only when empty: another sweep's may be there
  return totals;
}

}  // namespace gcsim
