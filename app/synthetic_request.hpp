// synthetic_request.hpp: a synthetic workload asked for by `gcsim synth`'s
// options, from the command line or from Python (gcsim.synth): the
// generator's settings file or document, the overrides, and the cluster
// whose GPU type's FLOP/s size the training jobs.
//
//   SyntheticRequest request;
//   request.jobs = 500;
//   request.cluster = "scenarios/clusters/rack-32gpu.json";
//   std::vector<JobSpec> jobs = synthesize(request);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/job_spec.hpp"
#include "workloads/synthetic_generator.hpp"

namespace gcsim {

struct SyntheticRequest {
  /// The generator's settings: a file (`config`), or a document named `config` in errors.
  std::string config;
  std::optional<nlohmann::json> config_document;
  std::optional<std::size_t> jobs;
  std::optional<double> mean_interarrival_s;
  std::optional<std::string> checkpoint;  // at_preemption or none
  /// A cluster file (`cluster`), or a document named `cluster` in errors.
  std::string cluster;
  std::optional<nlohmann::json> cluster_document;
  std::uint64_t seed = 0;
};

/// The generator's settings: the defaults, then the settings file, then the
/// overrides; the cluster's FLOP/s for the generator's GPU type. Throws
/// InputError (a bad settings file or cluster, a GPU type the cluster lacks),
/// UsageError (a checkpoint mode not at_preemption or none).
SyntheticWorkloadSpec synthetic_spec(const SyntheticRequest& request);

/// The jobs: generate_synthetic_workload(synthetic_spec(request), seed),
/// which throws std::invalid_argument for settings it cannot use.
std::vector<JobSpec> synthesize(const SyntheticRequest& request);

}  // namespace gcsim
