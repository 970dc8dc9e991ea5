// generated_inputs.hpp: clusters and workloads the benchmarks build in code,
// so that no size needs a file and every run measures the same inputs.
//
// A generated cluster is DGX-like: nodes of 8 V100 GPUs on NVLink, 100 Gb/s
// NICs, 16 nodes per rack, a non-blocking spine (the node group of
// scenarios/clusters/philly-vcs.json). Its workload is `gcsim synth`'s
// generator with the documented defaults, arrivals spaced to offer the
// cluster a steady load.
//
//   const ClusterLayout layout(generated_cluster(10000));
//   std::vector<JobSpec> jobs = generated_workload(layout, 10000, 0.9);
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/cluster_spec.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim::bench {

/// `gpus` rounded up to whole 8-GPU nodes.
ClusterSpec generated_cluster(std::size_t gpus);

/// `jobs` synthetic jobs (seed 0) whose mean arrival gap makes the GPU time
/// they ask for `load` times the cluster's capacity.
std::vector<JobSpec> generated_workload(const ClusterLayout& layout, std::size_t jobs, double load);

/// `jobs` synthetic jobs (seed 0) `mean_interarrival_s` apart on average.
std::vector<JobSpec> synthetic_jobs(const ClusterLayout& layout, std::size_t jobs, double mean_interarrival_s);

/// A burst of `jobs` jobs on a cluster of GPUs shared by fractional jobs:
/// all submitted within five minutes (uniformly), three in four asking a
/// quarter or a half of one GPU (6 or 12 GB of its memory), the others 1, 2,
/// 4, 8 or 16 whole GPUs (weights 0.3, 0.2, 0.25, 0.2, 0.05); run times
/// lognormal, median 30 min, sigma 1, within 2 min and 8 h, measured on
/// V100s. Seed 0. On generated_cluster(9600) the 8,000-job burst queues
/// whole-GPU jobs behind thousands of running ones.
std::vector<JobSpec> bursty_shared_gpu_workload(std::size_t jobs);

/// A bundled cluster file, by name: "philly-vcs" reads scenarios/clusters/philly-vcs.json.
std::string bundled_cluster_path(const std::string& name);

}  // namespace gcsim::bench
