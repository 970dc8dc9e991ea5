// `gcsim bench`: the regression mode for CI. Runs a suite of scenarios, each
// as its own `gcsim run` (SimGrid allows one engine per process), holds each
// chosen metric of its summary.json to the baseline, writes bench.json and
// bench.md, and exits 13 when anything regressed beyond its tolerance.
#include <filesystem>
#include <iostream>
#include <map>

#include "app/bench_suite.hpp"
#include "app/child_process.hpp"
#include "app/commands.hpp"
#include "sim/core/input_error.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/io/json_input.hpp"
#include "sim/report/bench_comparison.hpp"
#include "sim/report/run_output_reader.hpp"

namespace gcsim {
namespace {

constexpr const char* kBenchUsage =
    R"(usage: gcsim bench SUITE.json --baseline BASELINE.json [--update] [--out DIR] [--quiet]

Runs every scenario of the suite, each as its own `gcsim run` writing
DIR/runs/NAME/, and holds each metric the suite names to its value in the
baseline: a change beyond max(absolute, relative x |baseline|) in the worse
direction is a regression. Prints what moved and by how much, and writes
  DIR/bench.json   every metric: baseline, value, change, allowed change, verdict;
                   every scenario's wall time and its ratio to the first one's
  DIR/bench.md     the same as Markdown tables
The suite's format is in docs/bench.md.

Options:
  --baseline FILE   the baseline (JSON); with --update, written (atomically) instead of read
  --update          write the metrics of this run as the new baseline; exits 0
  --out DIR         where the runs and the reports go (default: out/bench)
  --quiet           print only regressions and errors

Exit status: 0 nothing regressed; 13 a metric regressed beyond its tolerance
(bench.json and bench.md are written); 1 a bad suite or baseline, a metric a
summary does not have, a scenario the baseline lacks; 7 a run failed (its
messages are printed); 2 a bad command line.
)";

// The run of one scenario, started in the suite's folder; its exit status when it failed (outputs not written).
int run_scenario(const BenchScenario& scenario, const std::string& folder, const std::string& run_dir) {
  std::vector<std::string> args{"run",      "--cluster",     scenario.cluster, "--workload", scenario.workload,
                                "--policy", scenario.policy, "--out",          run_dir,      "--quiet"};
  args.insert(args.end(), scenario.options.begin(), scenario.options.end());
  const ChildResult result = run_child("/proc/self/exe", args, ChildOutput::kCapture, folder);
  // A deadlock, a livelock or thrashing are outcomes to hold to the baseline: their outputs are written.
  if (exit_codes::run_wrote_outputs(result.exit_code)) return exit_codes::kOk;
  std::cerr << "gcsim bench: error: the run of scenario '" << scenario.name << "' failed (exit status "
            << result.exit_code << "); its messages:\n"
            << result.output;
  return exit_codes::kRunFailed;
}

int bench(const std::string& suite_path, const Arguments& args) {
  const BenchSuite suite = read_bench_suite(suite_path);
  const std::string baseline_path = args.required("baseline");
  const bool update = args.has("update");
  const bool quiet = args.has("quiet");
  const std::string out_dir = args.value_or("out", "out/bench");
  // Read before anything runs: a bad baseline is found at once.
  const BenchBaseline baseline = update ? BenchBaseline{} : read_bench_baseline(baseline_path);
  if (!update)
    for (const BenchScenario& scenario : suite.scenarios)
      if (baseline.count(scenario.name) == 0)
        throw InputError(
            baseline_path, "scenarios", scenario.name,
            "no baseline for scenario '" + scenario.name + "' of " + suite_path + " (gcsim bench --update writes one)");

  std::vector<BenchVerdict> verdicts;
  std::vector<BenchTiming> timings;
  BenchBaseline measured;
  for (std::size_t i = 0; i < suite.scenarios.size(); ++i) {
    const BenchScenario& scenario = suite.scenarios[i];
    if (!quiet)
      std::cout << "gcsim bench: [" << i + 1 << "/" << suite.scenarios.size() << "] " << scenario.name << std::endl;
    const std::string run_dir = std::filesystem::absolute(out_dir + "/runs/" + scenario.name).lexically_normal();
    if (const int status = run_scenario(scenario, suite.folder, run_dir); status != exit_codes::kOk) return status;
    const std::string summary_path = run_dir + "/summary.json";
    const nlohmann::json summary = read_json_file(summary_path);
    for (const BenchMetric& metric : scenario.metrics) {
      const std::optional<double> value = metric_value(summary, metric.path);
      if (!value)
        throw InputError(summary_path, "", metric.path,
                         "scenario '" + scenario.name + "': the summary has no number at '" + metric.path + "'");
      measured[scenario.name][metric.path] = *value;
      if (update) continue;
      const auto& expected = baseline.at(scenario.name);
      const auto it = expected.find(metric.path);
      if (it == expected.end())
        throw InputError(baseline_path, "scenarios." + scenario.name, metric.path,
                         "no baseline value (gcsim bench --update writes one)");
      BenchVerdict verdict = judge(metric, it->second, *value);
      verdict.scenario = scenario.name;
      verdicts.push_back(verdict);
    }
    const double wall = summary.contains("wall_time_s") ? summary["wall_time_s"].get<double>() : 0;
    const double reference = timings.empty() ? wall : timings.front().wall_seconds;
    timings.push_back({scenario.name, wall, reference > 0 ? wall / reference : 0});
  }

  if (update) {
    write_file_atomically(baseline_path, bench_baseline_json(measured));
    if (!quiet) std::cout << "gcsim bench: baseline written: " << baseline_path << "\n";
    return exit_codes::kOk;
  }
  OutputSet out(out_dir);
  out.stage("bench.json", bench_json(verdicts, timings));
  out.stage("bench.md", bench_markdown(verdicts, timings));
  out.commit();

  std::size_t regressed = 0, moved = 0;
  std::vector<BenchVerdict> shown;
  for (const BenchVerdict& v : verdicts) {
    regressed += v.status == BenchStatus::kRegressed;
    moved += v.status != BenchStatus::kSame;
    if (v.status == BenchStatus::kRegressed || (!quiet && v.status != BenchStatus::kSame)) shown.push_back(v);
  }
  if (!shown.empty()) std::cout << "\n" << bench_markdown(shown, {}) << "\n";
  if (!quiet || regressed > 0)
    std::cout << "gcsim bench: " << verdicts.size() << " metrics of " << suite.scenarios.size()
              << " scenarios: " << regressed << " regressed, " << moved - regressed
              << " moved within tolerance or improved, " << verdicts.size() - moved << " unchanged (" << out_dir
              << "/bench.md)\n";
  return regressed > 0 ? exit_codes::kRegressed : exit_codes::kOk;
}

}  // namespace

Command bench_command() {
  Command command{"bench",
                  "hold a suite of scenarios' metrics to a baseline (CI regression mode)",
                  kBenchUsage,
                  "SUITE.json",
                  {{"baseline"}, {"update", false}, {"out"}, {"quiet", false}},
                  bench};
  command.other_failure = OtherFailure{exit_codes::kRunFailed, "gcsim bench: error: "};
  return command;
}

}  // namespace gcsim
