#include "tests/e2e/gcsim_runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <cerrno>
#include <random>
#include <sstream>
#include <stdexcept>

namespace gcsim::testing {
namespace fs = std::filesystem;

ScratchDir::ScratchDir() {
  std::random_device device;
  path_ = (fs::temp_directory_path() / ("gcsim-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(device())))
              .string();
  fs::create_directories(path_);
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::string ScratchDir::write(const std::string& name, const std::string& content) const {
  const std::string path = *this / name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string scenario(const std::string& relative) { return std::string(GCSIM_SOURCE_DIR) + "/scenarios/" + relative; }

namespace {

// 0: no limit.
GcsimRun run_gcsim_limited(const std::vector<std::string>& args, std::size_t address_space_bytes, bool audited) {
  ScratchDir capture;
  const std::string out_path = capture / "stdout", err_path = capture / "stderr";
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    std::vector<char*> argv;
    std::string program = GCSIM_EXECUTABLE;
    argv.push_back(program.data());
    std::vector<std::string> copies(args);
    for (auto& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (!std::freopen(out_path.c_str(), "w", stdout) || !std::freopen(err_path.c_str(), "w", stderr)) _exit(127);
    // Every run of the suite, and every run a command starts, audits its
    // schedule (gcsim run --check): a broken invariant fails the test.
    if (audited ? ::setenv("GCSIM_CHECK", "1", 1) != 0 : ::unsetenv("GCSIM_CHECK") != 0) _exit(127);
    if (address_space_bytes > 0) {
      const rlimit limit{address_space_bytes, address_space_bytes};
      if (::setrlimit(RLIMIT_AS, &limit) != 0) _exit(127);
    }
    ::execv(program.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_text(out_path), read_text(err_path)};
}

}  // namespace

GcsimRun run_gcsim(const std::vector<std::string>& args, bool audited) { return run_gcsim_limited(args, 0, audited); }

GcsimRun run_gcsim_with_memory_limit(const std::vector<std::string>& args, std::size_t bytes) {
  return run_gcsim_limited(args, bytes, true);
}

BackgroundGcsim::BackgroundGcsim(const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  std::string program = GCSIM_EXECUTABLE;
  std::vector<std::string> copies(args);
  std::vector<char*> argv{program.data()};
  for (auto& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    if (null < 0 || ::dup2(null, STDOUT_FILENO) < 0 || ::dup2(fds[1], STDERR_FILENO) < 0) _exit(127);
    if (::setenv("GCSIM_CHECK", "1", 1) != 0) _exit(127);  // audited, as every run of the suite
    ::execv(program.c_str(), argv.data());
    _exit(127);
  }
  ::close(fds[1]);
  pid_ = child;
  err_fd_ = fds[0];
}

BackgroundGcsim::~BackgroundGcsim() {
  if (status_ < 0 && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  if (err_fd_ >= 0) ::close(err_fd_);
}

bool BackgroundGcsim::read_some() {
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(err_fd_, buffer, sizeof buffer);
    if (n > 0) {
      err_.append(buffer, static_cast<std::size_t>(n));
      return true;
    }
    if (n == 0 || errno != EINTR) return false;
  }
}

bool BackgroundGcsim::wait_for_error_output(const std::string& text) {
  while (err_.find(text) == std::string::npos)
    if (!read_some()) return false;
  return true;
}

void BackgroundGcsim::send(int signal) const { ::kill(pid_, signal); }

bool BackgroundGcsim::running() {
  if (status_ >= 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) != pid_) return true;
  status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return false;
}

int BackgroundGcsim::wait() {
  while (read_some()) {
  }
  if (status_ >= 0) return status_;
  int status = 0;
  ::waitpid(pid_, &status, 0);
  status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return status_;
}

GcsimRun run_simulation(const std::string& cluster, const std::string& workload, const std::string& out_dir,
                        const std::vector<std::string>& extra, const std::string& policy) {
  std::vector<std::string> args{"run",      "--cluster", cluster, "--workload", workload,
                                "--policy", policy,      "--out", out_dir,      "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_gcsim(args);
}

namespace {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

double number_or(const std::string& text, double fallback) { return text.empty() ? fallback : std::stod(text); }

}  // namespace

std::map<std::string, JobRow> read_jobs_csv(const std::string& out_dir) {
  std::istringstream in(read_text(out_dir + "/jobs.csv"));
  std::string line;
  std::getline(in, line);
  const auto header = split_csv_line(line);
  std::map<std::string, JobRow> rows;
  while (std::getline(in, line)) {
    const auto fields = split_csv_line(line);
    std::map<std::string, std::string> f;
    for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i) f[header[i]] = fields[i];
    JobRow row;
    row.id = f["id"];
    row.state = f["state"];
    row.placement = f["placement"];
    row.gpus = std::stoi(f["gpus"]);
    row.preemptions = f["preemptions"].empty() ? 0 : std::stoi(f["preemptions"]);
    row.submit = number_or(f["submit"], -1);
    row.start = number_or(f["start"], -1);
    row.end = number_or(f["end"], -1);
    row.wait = number_or(f["wait"], -1);
    row.jct = number_or(f["jct"], -1);
    row.gpu_share = number_or(f["gpu_share"], -1);
    row.uncontended = number_or(f["uncontended"], -1);
    row.synthetic_iterations_per_s = number_or(f["synthetic_iterations_per_s"], -1);
    row.real_iterations_per_s = number_or(f["real_iterations_per_s"], -1);
    rows[row.id] = row;
  }
  return rows;
}

std::vector<ServingRow> read_serving_csv(const std::string& out_dir) {
  std::istringstream in(read_text(out_dir + "/serving.csv"));
  std::string line;
  std::getline(in, line);
  const auto header = split_csv_line(line);
  std::vector<ServingRow> rows;
  while (std::getline(in, line)) {
    const auto fields = split_csv_line(line);
    std::map<std::string, std::string> f;
    for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i) f[header[i]] = fields[i];
    ServingRow row;
    row.time = std::stod(f["time"]);
    row.deployment = f["deployment"];
    row.desired = std::stoi(f["desired_replicas"]);
    row.replicas = std::stoi(f["replicas"]);
    row.ready = std::stoi(f["ready_replicas"]);
    row.backlog = std::stod(f["backlog"]);
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json read_summary(const std::string& out_dir) {
  return nlohmann::json::parse(read_text(out_dir + "/summary.json"));
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  return names;
}

std::string CraftedCluster::to_json() const {
  nlohmann::json doc;
  doc["name"] = "crafted";
  doc["gpu_types"] = nlohmann::json::array();
  doc["node_groups"] = nlohmann::json::array();
  if (cpu_nodes > 0)
    doc["node_groups"].push_back({{"name", "c"},
                                  {"count", cpu_nodes},
                                  {"gpus_per_node", 0},
                                  {"cpu_cores", cpu_node_cores},
                                  {"memory", 256e9},
                                  {"nic", {{"bandwidth", nic_bandwidth}, {"latency", nic_latency}}}});
  if (nodes > 0) {
    doc["gpu_types"].push_back({{"name", "GPU"}, {"flops", gpu_flops}, {"memory", gpu_memory}});
    doc["node_groups"].push_back(
        {{"name", "n"},
         {"count", nodes},
         {"gpus_per_node", gpus_per_node},
         {"gpu_type", "GPU"},
         {"cpu_cores", cpu_cores},
         {"memory", 256e9},
         {"intra_node", {{"kind", "nvlink"}, {"bandwidth", intra_bandwidth}, {"latency", intra_latency}}},
         {"nic", {{"bandwidth", nic_bandwidth}, {"latency", nic_latency}}}});
  }
  doc["fabric"] = {{"nodes_per_rack", nodes_per_rack > 0 ? nodes_per_rack : nodes + cpu_nodes},
                   {"oversubscription", oversubscription},
                   {"uplink_latency", uplink_latency}};
  return doc.dump(2);
}

GcsimRun run_alone(const ScratchDir& dir, const CraftedCluster& cluster, const nlohmann::json& job,
                   const std::string& fidelity) {
  const auto cluster_file = dir.write("cluster.json", cluster.to_json());
  const auto workload = dir.write("jobs.json", workload_json({job}));
  return run_simulation(cluster_file, workload, dir / "out", {"--fidelity", fidelity});
}

nlohmann::json training_job(const std::string& id, double submit, int gpus, double flops_per_iteration,
                            double gradient_bytes, int iterations) {
  return {
      {"id", id},
      {"submit", submit},
      {"gpus", gpus},
      {"training",
       {{"flops_per_iteration", flops_per_iteration}, {"gradient_bytes", gradient_bytes}, {"iterations", iterations}}}};
}

nlohmann::json measured_job(const std::string& id, double submit, int gpus, double seconds) {
  return {{"id", id}, {"submit", submit}, {"gpus", gpus}, {"duration", {{"seconds", seconds}, {"gpu_type", "GPU"}}}};
}

std::string workload_json(const std::vector<nlohmann::json>& jobs) {
  nlohmann::json doc;
  doc["jobs"] = jobs;
  return doc.dump(2);
}

void expect_job_rejected(const ScratchDir& dir, const std::string& cluster, const nlohmann::json& job,
                         const std::vector<std::string>& parts) {
  const auto workload = dir.write("jobs.json", workload_json({job}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  EXPECT_EQ(run.exit_code, 1);
  for (const std::string& part : parts) EXPECT_NE(run.err.find(part), std::string::npos) << part << ": " << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

}  // namespace gcsim::testing
