// gcsim_runner.hpp: end-to-end test support: run the gcsim executable on
// crafted inputs in a temporary directory and read back what it wrote.
//
//   ScratchDir dir;
//   dir.write("cluster.json", one_node_cluster(8));
//   GcsimRun run = run_gcsim({"run", "--cluster", dir / "cluster.json", ...});
//   auto jobs = read_jobs_csv(dir / "out");
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcsim::testing {

class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }
  /// Writes `content` to `name` inside the directory and returns its path.
  std::string write(const std::string& name, const std::string& content) const;

 private:
  std::string path_;
};

struct GcsimRun {
  int exit_code;
  std::string out;  // standard output
  std::string err;  // standard error
};

/// The path of a bundled file under scenarios/, e.g. scenario("clusters/rack-32gpu.json").
std::string scenario(const std::string& relative);

/// Runs the gcsim executable with these arguments (no shell involved).
/// With `audited`, gcsim and every gcsim it starts run with GCSIM_CHECK=1
/// (gcsim run --check): a broken invariant ends the run with status 16.
GcsimRun run_gcsim(const std::vector<std::string>& args, bool audited = true);
/// The same, its address space limited to `bytes` (as `ulimit -v` does), so
/// that allocations beyond it fail.
GcsimRun run_gcsim_with_memory_limit(const std::vector<std::string>& args, std::size_t bytes);

/// A gcsim started in the background, its standard error read as it comes
/// (its standard output discarded), for tests that signal it mid-run.
//
//   BackgroundGcsim run({"run", ..., "--progress", "always"});
//   ASSERT_TRUE(run.wait_for_error_output("gcsim: simulated "));
//   run.send(SIGINT);
//   EXPECT_EQ(run.wait(), 15);
class BackgroundGcsim {
 public:
  explicit BackgroundGcsim(const std::vector<std::string>& args);
  /// Kills it (SIGKILL) and reaps it when it is still running.
  ~BackgroundGcsim();
  BackgroundGcsim(const BackgroundGcsim&) = delete;
  BackgroundGcsim& operator=(const BackgroundGcsim&) = delete;

  /// Reads its standard error until `text` appears (true) or it closes it (false).
  bool wait_for_error_output(const std::string& text);
  void send(int signal) const;
  /// Reads the rest of its standard error and waits for its end: its exit
  /// status, 128 + N when signal N killed it.
  int wait();
  const std::string& err() const { return err_; }
  int pid() const { return pid_; }
  /// Whether it has not ended yet (its end is then taken as wait() would).
  bool running();

 private:
  bool read_some();  // false at the end of its standard error
  int pid_ = -1;
  int err_fd_ = -1;
  int status_ = -1;
  std::string err_;
};

/// `gcsim run` with the usual flags; extra flags appended.
GcsimRun run_simulation(const std::string& cluster, const std::string& workload, const std::string& out_dir,
                        const std::vector<std::string>& extra = {}, const std::string& policy = "fifo");

struct JobRow {
  std::string id, state, placement;
  int gpus = 0;
  int preemptions = 0;
  double submit = 0, start = -1, end = -1, wait = -1, jct = -1;
  double gpu_share = 1;
  double uncontended = -1;  // the run time alone on an empty cluster (the duration oracle)
  double synthetic_iterations_per_s = -1, real_iterations_per_s = -1;  // -1: left empty
};

/// jobs.csv by job id.
std::map<std::string, JobRow> read_jobs_csv(const std::string& out_dir);

/// One row of serving.csv: a deployment at one sample (an autoscaler sync,
/// or once a minute without one).
struct ServingRow {
  double time = 0;
  std::string deployment;
  int desired = 0, replicas = 0, ready = 0;
  double backlog = 0;
};
/// serving.csv's rows, in order.
std::vector<ServingRow> read_serving_csv(const std::string& out_dir);

nlohmann::json read_summary(const std::string& out_dir);
std::string read_text(const std::string& path);
/// Names of the regular files in a directory (empty when it does not exist).
std::vector<std::string> files_in(const std::string& dir);

/// One JSON cluster description of `nodes` identical nodes of V100-like GPUs
/// (1e12 FLOP/s so FLOPs read as seconds), all in one rack unless
/// `nodes_per_rack` says otherwise. Bandwidths in bytes/s, latencies in s.
/// With `cpu_nodes`, a CPU node group "c" (no GPU, `cpu_node_cores` each,
/// the same NICs) comes first; with `nodes` 0 the cluster has no GPU at all.
struct CraftedCluster {
  int nodes = 1;
  int gpus_per_node = 8;
  double gpu_flops = 1e12;
  double gpu_memory = 32e9;
  double intra_bandwidth = 100e9;
  double intra_latency = 2e-6;
  double nic_bandwidth = 10e9;
  double nic_latency = 5e-6;
  int nodes_per_rack = 0;  // 0: one rack
  double oversubscription = 1;
  double uplink_latency = 1e-6;
  int cpu_cores = 16;  // per node
  int cpu_nodes = 0;   // last, so that the positional initializers of the fields above stay as they are
  int cpu_node_cores = 28;
  std::string to_json() const;
};

/// Runs the one job `job` on `cluster` (in `dir`, outputs in dir/out) at
/// `fidelity`; the timing tests' set-up.
GcsimRun run_alone(const ScratchDir& dir, const CraftedCluster& cluster, const nlohmann::json& job,
                   const std::string& fidelity);

/// Runs the workload of the one job `job` on `cluster` and expects it
/// rejected as bad input: exit status 1, every one of `parts` in the message,
/// nothing written.
void expect_job_rejected(const ScratchDir& dir, const std::string& cluster, const nlohmann::json& job,
                         const std::vector<std::string>& parts);

/// A training job line for a native workload.
nlohmann::json training_job(const std::string& id, double submit, int gpus, double flops_per_iteration,
                            double gradient_bytes, int iterations);
/// A measured-duration job on GPU type "GPU" (the crafted clusters' type).
nlohmann::json measured_job(const std::string& id, double submit, int gpus, double seconds);
std::string workload_json(const std::vector<nlohmann::json>& jobs);

}  // namespace gcsim::testing
