// bench_suite.hpp: a regression benchmark's suite and baseline files.
//
// A suite lists scenarios, each a `gcsim run` (cluster, workload, policy,
// any other run options) and the summary metrics to hold it to; metrics
// given at the top level apply to every scenario that lists none of its own.
// Every path in it (cluster, workload, files named in options) is relative to
// the suite file's folder, where its runs start. docs/bench.md gives the format:
//
//   {"metrics": [{"path": "jct_s.mean", "better": "lower", "relative": 0.01}],
//    "scenarios": [{"name": "fifo", "cluster": "c.json", "workload": "w.json", "policy": "fifo",
//                   "options": ["--seed", "1"]}]}
//
// A baseline holds each scenario's metric values: {"scenarios": {"fifo": {"jct_s.mean": 812.5}}}.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/report/bench_comparison.hpp"

namespace gcsim {

struct BenchScenario {
  std::string name;
  std::string cluster, workload, policy;  // as `gcsim run` takes them, relative to the suite's folder
  std::vector<std::string> options;       // further `gcsim run` options
  std::vector<BenchMetric> metrics;
};

struct BenchSuite {
  std::vector<BenchScenario> scenarios;
  std::string folder;  // the suite file's: its runs start there, so every path in it is relative to it
};

/// Reads a suite; InputError naming the file, the entry and the field.
BenchSuite read_bench_suite(const std::string& path);

/// Per scenario, per metric path, its baseline value.
using BenchBaseline = std::map<std::string, std::map<std::string, double>>;

BenchBaseline read_bench_baseline(const std::string& path);
std::string bench_baseline_json(const BenchBaseline& baseline);

}  // namespace gcsim
