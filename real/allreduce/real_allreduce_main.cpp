// real_allreduce: a real ring allreduce over TCP, one process per rank,
// timed and checked; one CSV row per size (allreduce_report.hpp).
//
//   real_allreduce local --ranks 2 --bytes 1MiB,4MiB        # all ranks on 127.0.0.1
//   real_allreduce rank --rank 0 --ranks 4 --listen 10.77.0.1:5000 --next 10.77.0.2:5000 ...
//
// In `rank` mode each rank is started separately (scripts/real-allreduce.sh
// starts one per network namespace); rank 0 writes the rows.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "real/allreduce/allreduce_report.hpp"
#include "real/allreduce/tcp_ring.hpp"
#include "real/allreduce/tcp_ring_allreduce.hpp"

namespace {

using namespace gcsim::real;

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitWrongResult = 3;

const char* const kUsage =
    "usage: real_allreduce local --ranks N [options]\n"
    "       real_allreduce rank --rank R --ranks N --listen HOST:PORT --next HOST:PORT [options]\n"
    "\n"
    "local: forks N ranks on 127.0.0.1 (ports chosen by the kernel).\n"
    "rank:  runs one rank; rank 0 writes the results.\n"
    "\n"
    "options:\n"
    "  --bytes LIST             sizes, comma-separated, each a multiple of 4 (default 1MiB)\n"
    "  --warmup W               untimed iterations per size (default 1)\n"
    "  --iterations K           timed iterations per size (default 5)\n"
    "  --transport LABEL        written in the transport column (default: loopback or tcp)\n"
    "  --latency-rounds R       small-message ring trips for the hop latency (default 200; 0: no calibration)\n"
    "  --calibration-bytes B    bytes of the bulk ring step measuring goodput (default 8MiB; 0: skip)\n"
    "  --calibration-repeats C  timed bulk steps; the median is used (default 5)\n"
    "  --congestion NAME        TCP congestion control of the ring's connections (default: the system's)\n"
    "  --drain-bytes B          untimed bytes each rank sends before every iteration, to spend a\n"
    "                           token-bucket shaper's idle credit (default 0)\n"
    "  --csv FILE               append rows to FILE, with a header when it is new (default: stdout)\n"
    "\n"
    "exit status: 0 ok, 1 network or system error, 2 bad command line, 3 wrong allreduce results\n";

struct Options {
  std::string mode;
  std::uint32_t ranks = 0;
  std::uint32_t rank = 0;
  bool have_rank = false;
  Endpoint listen, next;
  std::vector<double> sizes{1048576.0};
  int warmup = 1;
  int iterations = 5;
  std::string transport;
  int latency_rounds = 200;
  double calibration_bytes = 8388608.0;
  int calibration_repeats = 5;
  double drain_bytes = 0;
  std::string congestion;
  std::string csv;
};

long parse_int(const std::string& flag, const std::string& text, long min) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < min)
    throw std::invalid_argument(flag + ": expected an integer >= " + std::to_string(min) + ", got '" + text + "'");
  return v;
}

Options parse(int argc, char** argv) {
  if (argc < 2) throw std::invalid_argument("missing mode (local or rank)");
  Options o;
  o.mode = argv[1];
  if (o.mode != "local" && o.mode != "rank") throw std::invalid_argument("unknown mode '" + o.mode + "'");
  for (int i = 2; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + ": missing value");
    const std::string value = argv[++i];
    if (flag == "--ranks")
      o.ranks = static_cast<std::uint32_t>(parse_int(flag, value, 2));
    else if (flag == "--rank") {
      o.rank = static_cast<std::uint32_t>(parse_int(flag, value, 0));
      o.have_rank = true;
    } else if (flag == "--listen")
      o.listen = parse_endpoint(value);
    else if (flag == "--next")
      o.next = parse_endpoint(value);
    else if (flag == "--bytes") {
      o.sizes = parse_size_list(value);
      for (double s : o.sizes)
        if (s < 4 || static_cast<std::uint64_t>(s) % 4 != 0 || s != static_cast<double>(static_cast<std::uint64_t>(s)))
          throw std::invalid_argument("--bytes: " + std::to_string(static_cast<long long>(s)) +
                                      " is not a positive multiple of 4 bytes");
    } else if (flag == "--warmup")
      o.warmup = static_cast<int>(parse_int(flag, value, 0));
    else if (flag == "--iterations")
      o.iterations = static_cast<int>(parse_int(flag, value, 1));
    else if (flag == "--transport")
      o.transport = value;
    else if (flag == "--latency-rounds")
      o.latency_rounds = static_cast<int>(parse_int(flag, value, 0));
    else if (flag == "--calibration-bytes")
      o.calibration_bytes = parse_size(value);
    else if (flag == "--calibration-repeats")
      o.calibration_repeats = static_cast<int>(parse_int(flag, value, 1));
    else if (flag == "--drain-bytes")
      o.drain_bytes = parse_size(value);
    else if (flag == "--congestion")
      o.congestion = value;
    else if (flag == "--csv")
      o.csv = value;
    else
      throw std::invalid_argument("unknown option '" + flag + "'");
  }
  if (o.ranks < 2) throw std::invalid_argument("--ranks N (N >= 2) is required");
  if (o.mode == "rank") {
    if (!o.have_rank || o.rank >= o.ranks) throw std::invalid_argument("--rank R with R < N is required");
    if (o.listen.host.empty() || o.next.host.empty()) throw std::invalid_argument("--listen and --next are required");
  }
  if (o.transport.empty()) o.transport = o.mode == "local" ? "loopback" : "tcp";
  return o;
}

void write_rows(const Options& o, const std::vector<AllreduceRow>& rows) { write_allreduce_csv(o.csv, rows); }

int run_rank(const Options& o, std::uint32_t rank, int listener, const Endpoint& next) {
  TcpRing ring = TcpRing::connect(rank, o.ranks, listener, next, o.congestion);
  LinkCalibration link;
  if (o.latency_rounds > 0)
    link = calibrate_link(ring, o.latency_rounds, static_cast<std::size_t>(o.calibration_bytes), o.calibration_repeats,
                          static_cast<std::size_t>(o.drain_bytes));
  if (rank == 0)
    std::cerr << "real_allreduce: " << o.ranks << " ranks over " << o.transport << ": hop latency "
              << link.hop_latency_s * 1e6 << " us, ring-step goodput " << link.goodput_Bps / 1e6 << " MB/s\n";
  std::vector<AllreduceRow> rows;
  bool wrong = false;
  for (double size : o.sizes) {
    AllreduceRow row = measure_allreduce(ring, static_cast<std::size_t>(size), o.warmup, o.iterations,
                                         static_cast<std::size_t>(o.drain_bytes));
    row.transport = o.transport;
    row.hop_latency_s = link.hop_latency_s;
    row.goodput_Bps = link.goodput_Bps;
    wrong = wrong || row.errors != 0;
    if (rank == 0) std::cerr << allreduce_summary_line(row) << '\n';
    rows.push_back(row);
  }
  if (rank == 0) write_rows(o, rows);
  return wrong ? kExitWrongResult : kExitOk;
}

int run_rank_reporting(const Options& o, std::uint32_t rank, int listener, const Endpoint& next) {
  try {
    return run_rank(o, rank, listener, next);
  } catch (const std::exception& e) {
    std::cerr << "real_allreduce: rank " << rank << ": " << e.what() << '\n';
    return kExitFailure;
  }
}

int run_local(const Options& o) {
  std::vector<int> listeners;
  std::vector<std::uint16_t> ports;
  for (std::uint32_t r = 0; r < o.ranks; ++r) {
    listeners.push_back(open_listener({"127.0.0.1", 0}));
    ports.push_back(listener_port(listeners.back()));
  }
  std::vector<pid_t> children;
  for (std::uint32_t r = 0; r < o.ranks; ++r) {
    std::cout.flush();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      for (std::uint32_t k = 0; k < o.ranks; ++k)
        if (k != r) close(listeners[k]);
      const int code = run_rank_reporting(o, r, listeners[r], {"127.0.0.1", ports[(r + 1) % o.ranks]});
      std::cout.flush();
      _exit(code);
    }
    children.push_back(pid);
  }
  for (int fd : listeners) close(fd);
  int worst = kExitOk;
  while (!children.empty()) {
    int status = 0;
    const pid_t pid = wait(&status);
    if (pid < 0) break;
    children.erase(std::remove(children.begin(), children.end(), pid), children.end());
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : kExitFailure;
    if (code != kExitOk && worst == kExitOk) {
      worst = code;
      // One rank failed: the others would wait for it until their timeouts.
      for (pid_t child : children) kill(child, SIGTERM);
    }
  }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "real_allreduce: " << e.what() << "\n\n" << kUsage;
    return kExitUsage;
  }
  try {
    if (options.mode == "local") return run_local(options);
    const int listener = open_listener(options.listen);
    return run_rank_reporting(options, options.rank, listener, options.next);
  } catch (const std::exception& e) {
    std::cerr << "real_allreduce: " << e.what() << '\n';
    return kExitFailure;
  }
}
