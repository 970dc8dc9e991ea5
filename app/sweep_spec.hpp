// sweep_spec.hpp: a sweep's grid, read from SPEC.json, and its runs in order.
//
//   {"cluster": "c.json", "workload": "w.json", "policy": "fifo", "options": ["--fidelity", "job"],
//    "axes": [{"name": "policy", "values": ["fifo", "gang"]},
//             {"name": "--seed", "values": ["1", "2", "3"]},
//             {"name": "cluster", "values": ["small.json", "large.json"]}],
//    "metrics": ["jct_s.mean", "queueing_delay_s.p95"]}
//
// An axis is "cluster", "workload" or "policy" (its values replace the base
// one), or any `gcsim run` option ("--seed", "--policy-opt", "--trace-opt",
// "--fidelity"...), given with each of its values. The runs are every
// combination, the last axis changing fastest; paths are relative to the
// spec's folder, where the runs start. docs/sweep.md gives the format.
#pragma once

#include <string>
#include <vector>

namespace gcsim {

struct SweepAxis {
  std::string name;
  std::vector<std::string> values;
};

struct SweepSpec {
  std::string folder;  // the spec file's
  std::string cluster, workload, policy;
  std::vector<std::string> options;
  std::vector<SweepAxis> axes;
  std::vector<std::string> metrics;  // dotted paths into summary.json
};

/// One run of the grid: its number (0-based, in grid order), the value of each axis, and its `gcsim run` arguments.
struct SweepRun {
  std::size_t index = 0;
  std::vector<std::string> values;  // one per axis
  std::vector<std::string> args;    // after "run": cluster, workload, policy, options, axes' options
};

/// Reads a spec; InputError naming the file, the entry and the field.
SweepSpec read_sweep_spec(const std::string& path);
/// Every run of the grid, in grid order.
std::vector<SweepRun> sweep_runs(const SweepSpec& spec);
/// A run's folder name: "run-0007".
std::string sweep_run_name(std::size_t index, std::size_t count);

}  // namespace gcsim
