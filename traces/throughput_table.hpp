// throughput_table.hpp: measured training speeds of deep-learning models by
// GPU type and GPU count, from the artifacts of three schedulers, read into
// one table of iterations per second.
//
//   gavel   stanford-futuredata/gavel simulation_throughputs.json (or
//           physical_cluster_throughputs.json): {worker_type: {"('<job
//           type>', <scale factor>)": {"null": isolated throughput, ...}}}.
//           Worker types k80, p100, v100 -> GPU types K80, P100, V100; the
//           scale factor is the GPU count; the throughput is steps per second
//           counted over all the job's workers (it grows with the count).
//   pollux  petuum/adaptdl (OSDI'21 artifact) throughput_traces/: one folder
//           per model with placements.csv (placement, local_bsz, step_time,
//           sync_time) and scalability.csv (num_nodes, num_replicas,
//           local_bsz, step_time, sync_time), measured on AWS g4dn.12xlarge:
//           GPU type T4. An iteration is one step of the whole job.
//   sia     siasosp23/artifacts throughput_traces/: the same two files per
//           model and per machine, named placements-<machine>.csv and
//           scalability-<machine>.csv: aws -> T4, azure -> V100, dgx and
//           dgx-ext -> A100 (dgx first, dgx-ext fills what it lacks), quad ->
//           RTX6000, rtx -> RTX2080Ti; an un-suffixed pair is read as T4.
//
// Pollux and Sia profile each model at several per-GPU batch sizes; the
// table takes, for every model, the smallest per-GPU batch size profiled (the
// same on every machine for all seven models) and, for every GPU count, the
// placement on the fewest nodes (what a packing scheduler gives), the
// fastest if several: iterations per second = 1 / step_time.
//
// What each table lacks:
//   gavel   GPU counts 1, 2, 4 and 8 only, and counts above 1 only for
//           ResNet-18/50, Transformer and LM (A3C, CycleGAN and Recommendation
//           are single-GPU); three GPU types; the `*_unconsolidated` worker
//           types (a job spread over servers) and the co-located pairs are
//           not read; a throughput of 0 marks a configuration that did not
//           run (3 on K80 in simulation_throughputs.json) and is left out.
//   pollux  one GPU type (T4) and six models; 1 to 16 GPUs in placements,
//           up to 64 in the scalability runs.
//   sia     one node size per machine, so 8-GPU machines profile at most 16
//           GPUs; gpt_pmp (hybrid-parallel GPT) only on dgx-ext and rtx;
//           quad at most 4 GPUs.
//   all     none records gradient sizes, so communication cannot be
//           separated from compute for gcsim's network model (Pollux and Sia
//           record a sync_time, which is part of step_time).
//
// A GPU count the table lacks takes the throughput of the nearest profiled
// count below it (else above it): for Gavel scaled by the ratio of the counts
// (per-worker steps), for Pollux and Sia unchanged (each GPU keeps its batch,
// so a step takes as long; weak scaling).
//
//   ThroughputTable table = read_throughput_table(ThroughputSource::kGavel, "simulation_throughputs.json");
//   std::optional<ThroughputLookup> v100 = table.lookup("ResNet-50 (batch size 64)", "V100", 16);
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gcsim {

enum class ThroughputSource { kGavel, kPollux, kSia };

/// "gavel", "pollux", "sia".
std::optional<ThroughputSource> parse_throughput_source(const std::string& name);
std::string throughput_source_name(ThroughputSource source);

/// A GPU type name reduced for matching a table's types to a cluster's:
/// lower case, letters and digits only ("RTX 2080 Ti" -> "rtx2080ti").
std::string gpu_type_key(const std::string& name);

struct ThroughputLookup {
  double iterations_per_second = 0;
  std::uint32_t profiled_gpus = 0;  // the count measured; differs from the one asked when extrapolated
};

struct ThroughputTable {
  ThroughputSource source = ThroughputSource::kGavel;
  std::string path;
  /// model -> GPU type (as named above) -> GPU count -> iterations per second of the job.
  std::map<std::string, std::map<std::string, std::map<std::uint32_t, double>>> iterations_per_second;
  /// Gavel counts every worker's steps; Pollux and Sia steps of the whole job.
  bool per_worker_iterations = false;
  /// Model -> the per-GPU batch size its figures are for (Pollux, Sia).
  std::map<std::string, std::uint32_t> local_batch_size;
  /// Configurations listed with a throughput of 0 (Gavel: did not fit in
  /// the GPU's memory), left out.
  std::size_t unprofiled = 0;

  std::vector<std::string> models() const;
  /// GPU types profiled for `model` (empty for an unknown model).
  std::vector<std::string> gpu_types(const std::string& model) const;
  /// The table's name for a cluster GPU type (gpu_type_key match), if it has it for `model`.
  std::optional<std::string> table_gpu_type(const std::string& model, const std::string& cluster_type) const;
  /// Iterations per second of `model` on `gpus` GPUs of `gpu_type` (matched
  /// by gpu_type_key), extrapolated as above; nullopt when the table does not
  /// profile the model on that type at all.
  std::optional<ThroughputLookup> lookup(const std::string& model, const std::string& gpu_type,
                                         std::uint32_t gpus) const;
};

/// Reads a table; InputError naming the file and what is wrong (a missing
/// file or column, a malformed number, a non-positive throughput or step time).
ThroughputTable read_throughput_table(ThroughputSource source, const std::string& path);
ThroughputTable read_gavel_throughputs(const std::string& json_path);
/// Pollux's or Sia's throughput_traces folder (the two differ only in names).
ThroughputTable read_step_time_throughputs(const std::string& folder, ThroughputSource source);

}  // namespace gcsim
