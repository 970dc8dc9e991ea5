// `gcsim plan`: the fewest whole nodes of a template for which every SLO
// holds, found by a search over simulations (sim/report/capacity_plan.hpp
// says which and why it is sound). Each size is a cluster like the
// template's with its first node group resized, run once per seed.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/child_process.hpp"
#include "app/commands.hpp"
#include "app/python_plots.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/io/json_input.hpp"
#include "sim/report/bench_comparison.hpp"
#include "sim/report/capacity_plan.hpp"

namespace gcsim {
namespace {
namespace fs = std::filesystem;

constexpr const char* kPlanUsage =
    R"(usage: gcsim plan --workload WORKLOAD.json --policy NAME --node-template CLUSTER.json
                  --slo METRIC<=BOUND [--slo ...] --out DIR [--seeds N] [--gpu-cost PRICE]
                  [--min-nodes N] [--max-nodes N] [--policy-opt KEY=VALUE ...] [--plots auto|yes|no] [--quiet]

Finds the fewest nodes of the template's first node group for which every
SLO holds, by simulating the workload under the policy on each size the
search asks for (the largest first, then a bisection, then the answer's
neighbours checked: SLOs need not improve with every node added), once per
seed. A size meets an SLO when the 95% confidence interval of the metric's
mean over the seeds lies within the bound. Writes
  DIR/plan.json   the answer (nodes, GPUs, cost per hour) and every size tried with its metrics
  DIR/plan.md     the same as tables
  DIR/slo_N.png   each SLO's metric against the nodes, the bound and the answer marked (matplotlib)
  DIR/sizes/NODES/seed-S/   each run's outputs

Options:
  --slo S          METRIC<=BOUND or METRIC>=BOUND; METRIC is wait_mean, wait_p50,
                   wait_p95, wait_p99, wait_max, jct_..., makespan, utilization,
                   allocation, or a dotted path into summary.json
                   (job_types.training.jct_s.p95, serving.0.latency_s.p99); repeatable
  --seeds N        runs per size, seeds 0 to N-1 (default 1)
  --gpu-cost P     price of one GPU-hour, for the answer's cost per hour (default 0)
  --min-nodes N    smallest size considered (default 1)
  --max-nodes N    largest size considered (default 4 x the template's count, at least 8)

Exit status: 0 an answer found; 14 no size up to --max-nodes meets every SLO
(the outputs say how close each came); 1 bad input; 2 a bad command line;
7 a run failed.
)";

struct SizeResult {
  int nodes = 0;
  bool feasible = true;                     // false: the workload does not fit this cluster (a job too large for it)
  std::string infeasibility;                // gcsim run's message, then
  std::vector<std::vector<double>> values;  // per SLO, per seed
  std::vector<MeanInterval> intervals;      // per SLO
  bool meets = false;
};

nlohmann::json resized(const nlohmann::json& cluster, int nodes) {
  nlohmann::json copy = cluster;
  copy["node_groups"][0]["count"] = nodes;
  return copy;
}

SizeResult simulate_size(int nodes, const nlohmann::json& cluster, const std::vector<Slo>& slos, std::uint64_t seeds,
                         const Arguments& args, const std::string& out_dir, bool quiet) {
  SizeResult result;
  result.nodes = nodes;
  result.values.resize(slos.size());
  const std::string size_dir = out_dir + "/sizes/" + std::to_string(nodes);
  fs::create_directories(size_dir);
  write_file_atomically(size_dir + "/cluster.json", resized(cluster, nodes).dump(2) + "\n");
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    const std::string run_dir = size_dir + "/seed-" + std::to_string(seed);
    std::vector<std::string> run{"run",
                                 "--cluster",
                                 size_dir + "/cluster.json",
                                 "--workload",
                                 fs::absolute(args.required("workload")).string(),
                                 "--policy",
                                 args.required("policy"),
                                 "--seed",
                                 std::to_string(seed),
                                 "--out",
                                 run_dir,
                                 "--quiet",
                                 "--no-wall-time"};
    for (const std::string& option : args.all("policy-opt")) run.insert(run.end(), {"--policy-opt", option});
    const ChildResult child = run_child("/proc/self/exe", run);
    if (child.exit_code == exit_codes::kInputError) {  // the workload does not fit so few nodes
      result.feasible = false;
      result.infeasibility = child.output.substr(0, child.output.find('\n'));
      break;
    }
    if (!exit_codes::run_wrote_outputs(child.exit_code))
      throw CommandFailure(exit_codes::kRunFailed, "the run on " + std::to_string(nodes) + " nodes, seed " +
                                                       std::to_string(seed) + ", failed (exit status " +
                                                       std::to_string(child.exit_code) + "):\n" + child.output);
    const std::string summary_path = run_dir + "/summary.json";
    const nlohmann::json summary = read_json_file(summary_path);
    for (std::size_t i = 0; i < slos.size(); ++i) {
      const std::optional<double> value = metric_value(summary, slos[i].metric);
      if (!value)
        throw InputError(summary_path, "", slos[i].metric,
                         "the SLO '" + slos[i].text + "' names a metric the summary does not have");
      result.values[i].push_back(*value);
    }
  }
  result.meets = result.feasible;
  for (std::size_t i = 0; i < slos.size() && result.feasible; ++i) {
    result.intervals.push_back(mean_interval(result.values[i]));
    result.meets = result.meets && meets(slos[i], result.intervals.back());
  }
  if (!quiet)
    std::cout << "gcsim plan: " << nodes << " nodes: "
              << (!result.feasible ? "the workload does not fit"
                  : result.meets   ? "meets every SLO"
                                   : "misses an SLO")
              << std::endl;
  return result;
}

nlohmann::ordered_json plan_json(const std::vector<Slo>& slos, const std::map<int, SizeResult>& sizes,
                                 std::optional<int> answer, std::size_t gpus_per_node, double gpu_cost,
                                 std::uint64_t seeds) {
  nlohmann::ordered_json out;
  out["search"] =
      "largest size first, then bisection between the largest failing and the smallest meeting size, then the "
      "answer's neighbours checked (the size below fails, the size above meets)";
  out["seeds"] = seeds;
  out["slos"] = nlohmann::ordered_json::array();
  for (const Slo& slo : slos)
    out["slos"].push_back({{"slo", slo.text}, {"metric", slo.metric}, {"at_most", slo.at_most}, {"bound", slo.bound}});
  if (answer) {
    const double gpus = static_cast<double>(*answer) * static_cast<double>(gpus_per_node);
    out["answer"] = {{"nodes", *answer}, {"gpus", gpus}, {"cost_per_hour", gpus * gpu_cost}};
  } else {
    out["answer"] = nullptr;
  }
  out["sizes"] = nlohmann::ordered_json::array();
  for (const auto& [nodes, r] : sizes) {
    nlohmann::ordered_json size = {{"nodes", nodes},
                                   {"gpus", nodes * static_cast<int>(gpus_per_node)},
                                   {"feasible", r.feasible},
                                   {"meets_every_slo", r.meets}};
    if (!r.feasible) size["why_not"] = r.infeasibility;
    size["metrics"] = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < r.intervals.size(); ++i)
      size["metrics"][slos[i].text] = {{"mean", r.intervals[i].mean},
                                       {"ci95_half_width", r.intervals[i].half_width},
                                       {"met", meets(slos[i], r.intervals[i])},
                                       {"values", r.values[i]}};
    out["sizes"].push_back(size);
  }
  return out;
}

std::string plan_markdown(const std::vector<Slo>& slos, const std::map<int, SizeResult>& sizes,
                          std::optional<int> answer, std::size_t gpus_per_node, double gpu_cost) {
  std::ostringstream out;
  if (answer)
    out << "Answer: " << *answer << " nodes (" << *answer * gpus_per_node << " GPUs), "
        << exact_number(static_cast<double>(*answer * gpus_per_node) * gpu_cost) << " an hour.\n\n";
  else
    out << "No size tried meets every SLO.\n\n";
  out << "| nodes | GPUs |";
  for (const Slo& slo : slos) out << " " << slo.text << " |";
  out << " verdict |\n|---:|---:|";
  for (std::size_t i = 0; i < slos.size(); ++i) out << "---:|";
  out << "---|\n";
  for (const auto& [nodes, r] : sizes) {
    out << "| " << nodes << " | " << nodes * gpus_per_node << " |";
    for (std::size_t i = 0; i < slos.size(); ++i) {
      if (i < r.intervals.size())
        out << " " << exact_number(r.intervals[i].mean)
            << (r.intervals[i].half_width > 0 ? " ± " + exact_number(r.intervals[i].half_width) : "") << " |";
      else
        out << " n/a |";
    }
    out << " "
        << (!r.feasible ? "does not fit"
            : r.meets   ? "meets"
                        : "misses")
        << (answer && *answer == nodes ? " (answer)" : "") << " |\n";
  }
  out << "\nA size meets an SLO when the 95% confidence interval of the metric's mean over the seeds lies within "
         "the bound.\n";
  return out.str();
}

int plan(const Arguments& args) {
  std::vector<Slo> slos;
  for (const std::string& text : args.all("slo")) {
    try {
      slos.push_back(parse_slo(text));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("option '--slo' ") + e.what());
    }
  }
  if (slos.empty()) throw UsageError("give at least one --slo, e.g. --slo 'wait_p95<=3600'");
  const std::string template_path = args.required("node-template");
  const nlohmann::json cluster = read_json_file(template_path);
  if (!cluster.contains("node_groups") || !cluster["node_groups"].is_array() || cluster["node_groups"].empty() ||
      !cluster["node_groups"][0].contains("count") || !cluster["node_groups"][0].contains("gpus_per_node"))
    throw InputError(template_path, "node_groups[0]", "count",
                     "a node template is a cluster with a node group to resize");
  const auto gpus_per_node = cluster["node_groups"][0]["gpus_per_node"].get<std::size_t>();
  const std::uint64_t seeds = args.uint_or("seeds", 1);
  if (seeds < 1 || seeds > 1000) throw UsageError("option '--seeds' must be between 1 and 1000");
  const double gpu_cost = args.number_or("gpu-cost", 0);
  if (gpu_cost < 0) throw UsageError("option '--gpu-cost' must not be negative");
  const auto template_count = cluster["node_groups"][0]["count"].get<std::uint64_t>();
  const std::uint64_t smallest = args.uint_or("min-nodes", 1);
  const std::uint64_t largest = args.uint_or("max-nodes", std::max<std::uint64_t>(8, 4 * template_count));
  if (smallest < 1 || largest < smallest || largest > 1000000)
    throw UsageError("options '--min-nodes' and '--max-nodes' need 1 <= min <= max <= 1000000");
  const PlotMode plots = parse_plot_mode(args.value_or("plots", "auto"));
  const bool quiet = args.has("quiet");
  const std::string out_dir = fs::absolute(args.required("out")).lexically_normal().string();
  read_json_file(args.required("workload"));  // a bad workload file is named before anything runs

  PlanSearch search(static_cast<int>(smallest), static_cast<int>(largest));
  std::map<int, SizeResult> sizes;
  while (const std::optional<int> nodes = search.next()) {
    sizes[*nodes] = simulate_size(*nodes, cluster, slos, seeds, args, out_dir, quiet);
    search.record(*nodes, sizes[*nodes].meets);
  }
  const std::optional<int> answer = search.answer();
  OutputSet out(out_dir);
  out.stage("plan.json", plan_json(slos, sizes, answer, gpus_per_node, gpu_cost, seeds).dump(2) + "\n");
  out.stage("plan.md", plan_markdown(slos, sizes, answer, gpus_per_node, gpu_cost));
  out.commit();
  if (!quiet) std::cout << "\n" << plan_markdown(slos, sizes, answer, gpus_per_node, gpu_cost) << "\n";
  if (plots != PlotMode::kNo) {
    std::string output;
    if (const auto problem = run_plot_script("plot_plan.py", {out_dir}, output)) {
      if (plots == PlotMode::kYes) {
        std::cerr << "gcsim plan: error: cannot draw the plots: " << *problem << "\n";
        return exit_codes::kPlotError;
      }
      std::cerr << "gcsim plan: notice: plots skipped: " << *problem << "\n";
    } else if (!quiet) {
      std::cout << output;
    }
  }
  if (!quiet) std::cout << "  outputs     " << out_dir << "/plan.json, plan.md\n";
  return answer ? exit_codes::kOk : exit_codes::kNoPlan;
}

}  // namespace

Command plan_command() {
  Command command{"plan",
                  "find the fewest nodes for which a workload meets its SLOs",
                  kPlanUsage,
                  {{"workload"},
                   {"policy"},
                   {"node-template"},
                   {"slo", true, true},
                   {"seeds"},
                   {"gpu-cost"},
                   {"min-nodes"},
                   {"max-nodes"},
                   {"policy-opt", true, true},
                   {"plots"},
                   {"out"},
                   {"quiet", false}},
                  plan};
  command.other_failure = OtherFailure{exit_codes::kRunFailed, "gcsim plan: error: "};
  return command;
}

}  // namespace gcsim
