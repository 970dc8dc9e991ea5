#include "benchmarks/generated_inputs.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/portable_random.hpp"
#include "workloads/synthetic_generator.hpp"

namespace gcsim::bench {

ClusterSpec generated_cluster(std::size_t gpus) {
  constexpr std::uint32_t kGpusPerNode = 8;
  ClusterSpec spec;
  spec.name = "generated-" + std::to_string(gpus) + "gpu";
  spec.gpu_types = {{"V100", 15.7e12, 32e9}};
  const auto nodes = static_cast<std::uint32_t>((gpus + kGpusPerNode - 1) / kGpusPerNode);
  spec.node_groups = {
      {"dgx", nodes, kGpusPerNode, "V100", 96, 512e9, IntraNodeKind::kNvlink, {150e9, 2e-6}, {12.5e9, 5e-6}}};
  spec.fabric = {16, 1.0, 1e-6};
  return spec;
}

std::vector<JobSpec> synthetic_jobs(const ClusterLayout& layout, std::size_t jobs, double mean_interarrival_s) {
  SyntheticWorkloadSpec spec;
  spec.jobs = jobs;
  spec.mean_interarrival_s = mean_interarrival_s;
  spec.gpu_flops = layout.spec().gpu_types.front().flops;
  return generate_synthetic_workload(spec, 0);
}

std::vector<JobSpec> generated_workload(const ClusterLayout& layout, std::size_t jobs, double load) {
  // The generator's defaults ask 3.1 GPUs for a lognormal time of mean
  // 1800 s x exp(1/2) per job: about 9,200 GPU-seconds.
  const SyntheticWorkloadSpec defaults;
  double mean_gpus = 0, weights = 0;
  for (const auto& [count, weight] : defaults.gpu_count_weights) {
    mean_gpus += count * weight;
    weights += weight;
  }
  const double mean_gpu_seconds = mean_gpus / weights * defaults.duration_median_s *
                                  std::exp(defaults.duration_sigma * defaults.duration_sigma / 2);
  return synthetic_jobs(layout, jobs, mean_gpu_seconds / (load * static_cast<double>(layout.gpu_count())));
}

std::vector<JobSpec> bursty_shared_gpu_workload(std::size_t jobs) {
  PortableRandom random(0);
  const std::vector<double> whole_gpu_weights = {0.3, 0.2, 0.25, 0.2, 0.05};
  const std::uint32_t whole_gpus[] = {1, 2, 4, 8, 16};
  std::vector<JobSpec> burst(jobs);
  for (std::size_t i = 0; i < jobs; ++i) {
    JobSpec& job = burst[i];
    job.id = "burst-" + std::to_string(i);
    job.submit = 300 * random.uniform();
    const double seconds = std::clamp(std::round(random.lognormal(1800, 1.0)), 120.0, 8 * 3600.0);
    job.work = MeasuredWork{seconds, "V100"};
    if (random.uniform() < 0.75) {
      const bool quarter = random.uniform() < 0.5;
      job.gpus = 1;
      job.gpu_share = quarter ? 0.25 : 0.5;
      job.gpu_memory_bytes = quarter ? 6e9 : 12e9;
    } else {
      job.gpus = whole_gpus[random.discrete(whole_gpu_weights)];
    }
  }
  // The workload's order is the submission order.
  std::stable_sort(burst.begin(), burst.end(), [](const JobSpec& a, const JobSpec& b) { return a.submit < b.submit; });
  return burst;
}

std::string bundled_cluster_path(const std::string& name) {
  return std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/" + name + ".json";
}

}  // namespace gcsim::bench
