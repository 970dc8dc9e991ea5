// `gcsim plan`: the fewest whole nodes of a template for which every SLO
// holds, found by a search over simulations (sim/report/capacity_plan.hpp
// says which and why it is sound). Each size is a cluster like the
// template's with its first node group resized, run once per seed.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <set>
#include <sstream>

#include "app/child_process.hpp"
#include "app/commands.hpp"
#include "app/node_template.hpp"
#include "app/python_plots.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/io/json_input.hpp"
#include "sim/report/bench_comparison.hpp"
#include "sim/report/capacity_plan.hpp"
#include "workloads/native_workload.hpp"
#include "workloads/workload_resampling.hpp"

namespace gcsim {
namespace {
namespace fs = std::filesystem;

constexpr const char* kPlanUsage =
    R"(usage: gcsim plan --workload WORKLOAD.json --policy NAME --node-template CLUSTER.json[@PRICE]
                  [--node-template ...] --slo METRIC<=BOUND[@P] [--slo ...] --out DIR [--seeds N]
                  [--gpu-cost PRICE] [--energy-price PRICE] [--min-nodes N] [--max-nodes N]
                  [--policy-opt KEY=VALUE ...] [--sample-workload resample-days|resample-weeks]
                  [--load-scale F] [--plots auto|yes|no] [--quiet]

Finds the fewest nodes of the template's first node group for which every
SLO holds, by simulating the workload under the policy on each size the
search asks for (the largest first, then a bisection, then the answer's
neighbours checked: SLOs need not improve with every node added), once per
seed. A size meets an SLO when the 95% confidence interval of the metric's
mean over the seeds lies within the bound, or with METRIC<=BOUND@P when at
least a share P of the seeds' runs are within it. The seed goes to the
policy; with a fixed workload and a deterministic policy every seed's run is
the same and the interval says nothing (the plan warns): --sample-workload
gives each seed a workload of its own. With several templates (each a
node type: its first node group and GPU types; the fabric is the first
template's), it finds the cheapest mix: for every count of the types but the
last, the fewest of the last by the same search; the cheapest of these
answers wins, then the fewest nodes. An energy or power SLO (energy_kwh,
peak_kw, ...: the runs then account energy, as gcsim run --energy) bounds
what more nodes add, since idle GPUs draw power: the search runs on the
other SLOs, and the answer is the fewest nodes it tried that meet them and
the energy SLOs too. Writes
  DIR/plan.json   the answer (nodes, its mix, GPUs, cost per hour) and every size tried with its metrics
  DIR/plan.md     the same as tables
  DIR/slo_N.png   each SLO's metric against the nodes, the bound and the answer marked (matplotlib)
  DIR/sizes/MIX/seed-S/   each run's outputs (MIX: the nodes of each template, "4" or "2-6")
  DIR/workloads/seed-S.json  with --sample-workload, the workload of seed S

Options:
  --slo S          METRIC<=BOUND or METRIC>=BOUND; METRIC is wait_mean, wait_p50,
                   wait_p95, wait_p99, wait_max, jct_..., makespan, utilization,
                   allocation, energy_kwh (the facility's, PUE included), it_kwh,
                   mean_kw, peak_kw (IT power), or a dotted path into summary.json
                   (job_types.training.jct_s.p95, serving.0.latency_s.p99); repeatable.
                   METRIC<=BOUND@P (e.g. wait_p95<=1800@0.95), a chance constraint:
                   met when at least a share P of the runs are within the bound
                   (runs within / seeds >= P); needs --seeds of at least 1/(1-P)
                   (20 for 0.95), since with fewer every run must be within
  --seeds N        runs per size, seeds 0 to N-1 (default 1)
  --node-template F[@P]  a node type: a cluster file whose first node group is
                   resized; P is the price of one of its nodes an hour
                   (default: its GPUs x --gpu-cost); repeatable, for a mix
  --gpu-cost P     price of one GPU-hour, for the templates priced by it (default 0)
  --energy-price P price of one kWh of the facility's energy (PUE included): a
                   size's cost an hour adds its runs' mean facility power times P,
                   and plan.json gives each size's energy bill for the workload
  --min-nodes N    smallest size of one type (default 1)
  --max-nodes N    largest size of each type (default 4 x the template's count, at least 8)
  --sample-workload M  a workload drawn per seed from the given one (a native
                   workload file): resample-days cuts it into days by submit
                   time (day k: [k, k+1) x 24h) and draws as many days with
                   replacement, each shifted to its new place, its job ids
                   suffixed "@dI" (I its place); a dependency on a job of
                   another day is dropped (the plan says how many).
                   resample-weeks: the same by weeks ("@wI"). Seed S draws the
                   same days on every machine.
  --load-scale F   with --sample-workload, F times the arrival rate: every
                   submit time divided by F (default 1), to plan for growth

Exit status: 0 an answer found; 14 no size up to --max-nodes meets every SLO
(the outputs say how close each came); 1 bad input; 2 a bad command line;
7 a run failed.
)";

std::string mix_name(const std::vector<int>& counts) {
  std::string name;
  for (int c : counts) name += (name.empty() ? "" : "-") + std::to_string(c);
  return name;
}

struct SizeResult {
  std::vector<int> counts;                  // nodes of each template
  int nodes = 0;                            // in all
  bool feasible = true;                     // false: the workload does not fit this cluster (a job too large for it)
  std::string infeasibility;                // gcsim run's message, then
  std::vector<std::vector<double>> values;  // per SLO, per seed
  std::vector<MeanInterval> intervals;      // per SLO
  bool meets_service = false;               // every SLO but the energy ones (bounds_energy())
  bool meets = false;                       // every SLO
  // With --energy-price: the mean over the seeds of the facility's mean power
  // times the price (an hour), and of its energy times the price (the workload's bill).
  double energy_cost_per_hour = 0;
  double energy_cost = 0;
};

// What a plan's runs account and charge beyond the SLOs' metrics.
struct EnergyTerms {
  bool accounted = false;       // the runs take --energy
  std::optional<double> price;  // per facility kWh
};

// The workload file of each seed's run: the given one, or the seed's sampled one.
std::string workload_of(const std::vector<std::string>& sampled, const Arguments& args, std::uint64_t seed) {
  return sampled.empty() ? fs::absolute(args.required("workload")).string() : sampled[seed];
}

// summary.json's energy figure NAME, or an InputError naming the file.
double energy_figure(const nlohmann::json& summary, const std::string& path, const std::string& name) {
  const std::optional<double> value = metric_value(summary, "energy." + name);
  if (!value) throw InputError(path, "", "energy." + name, "the run accounted no energy");
  return *value;
}

SizeResult simulate_mix(const std::vector<int>& counts, const std::vector<NodeTemplate>& templates,
                        const std::vector<Slo>& slos, std::uint64_t seeds, const Arguments& args,
                        const std::vector<std::string>& sampled, const EnergyTerms& energy, const std::string& out_dir,
                        bool quiet) {
  SizeResult result;
  result.counts = counts;
  for (int c : counts) result.nodes += c;
  const int nodes = result.nodes;
  result.values.resize(slos.size());
  const std::string size_dir = out_dir + "/sizes/" + mix_name(counts);
  fs::create_directories(size_dir);
  write_file_atomically(size_dir + "/cluster.json", mixed_cluster(templates, counts).dump(2) + "\n");
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    const std::string run_dir = size_dir + "/seed-" + std::to_string(seed);
    std::vector<std::string> run{"run",
                                 "--cluster",
                                 size_dir + "/cluster.json",
                                 "--workload",
                                 workload_of(sampled, args, seed),
                                 "--policy",
                                 args.required("policy"),
                                 "--seed",
                                 std::to_string(seed),
                                 "--out",
                                 run_dir,
                                 "--quiet",
                                 "--no-wall-time"};
    for (const std::string& option : args.all("policy-opt")) run.insert(run.end(), {"--policy-opt", option});
    if (energy.accounted) run.push_back("--energy");
    const ChildResult child = run_child("/proc/self/exe", run);
    if (child.exit_code == exit_codes::kInputError) {  // the workload does not fit so few nodes
      result.feasible = false;
      result.infeasibility = child.output.substr(0, child.output.find('\n'));
      break;
    }
    if (!exit_codes::run_wrote_outputs(child.exit_code))
      throw CommandFailure(exit_codes::kRunFailed, "the run on " + mix_name(counts) + " nodes, seed " +
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
    if (energy.price) {
      const double pue = energy_figure(summary, summary_path, "pue");
      result.energy_cost_per_hour += energy_figure(summary, summary_path, "mean_kw") * pue * *energy.price;
      result.energy_cost += energy_figure(summary, summary_path, "facility_kwh") * *energy.price;
    }
  }
  if (result.feasible) {
    result.energy_cost_per_hour /= static_cast<double>(seeds);
    result.energy_cost /= static_cast<double>(seeds);
  }
  result.meets_service = result.meets = result.feasible;
  for (std::size_t i = 0; i < slos.size() && result.feasible; ++i) {
    result.intervals.push_back(mean_interval(result.values[i]));
    const bool met = slo_met(slos[i], result.values[i]);
    result.meets = result.meets && met;
    if (!bounds_energy(slos[i])) result.meets_service = result.meets_service && met;
  }
  if (!quiet)
    std::cout << "gcsim plan: "
              << (templates.size() > 1 ? mix_name(counts) + " (" + std::to_string(nodes) + ")" : std::to_string(nodes))
              << " nodes: "
              << (!result.feasible ? "the workload does not fit"
                  : result.meets   ? "meets every SLO"
                                   : "misses an SLO")
              << std::endl;
  return result;
}

double node_cost_of(const std::vector<NodeTemplate>& templates, const std::vector<int>& counts) {
  double cost = 0;
  for (std::size_t t = 0; t < templates.size(); ++t) cost += counts[t] * templates[t].price;
  return cost;
}

std::size_t gpus_of(const std::vector<NodeTemplate>& templates, const std::vector<int>& counts) {
  std::size_t gpus = 0;
  for (std::size_t t = 0; t < templates.size(); ++t)
    gpus += static_cast<std::size_t>(counts[t]) * templates[t].gpus_per_node;
  return gpus;
}

using Sizes = std::map<std::vector<int>, SizeResult>;

// A size's cost an hour: its nodes', and with --energy-price its energy's.
double cost_of(const std::vector<NodeTemplate>& templates, const Sizes& sizes, const std::vector<int>& counts) {
  const auto size = sizes.find(counts);
  return node_cost_of(templates, counts) + (size == sizes.end() ? 0 : size->second.energy_cost_per_hour);
}

// Whether, with two seeds or more, every size's runs gave the same value of
// every SLO's metric: a fixed workload under a deterministic policy.
bool all_runs_identical(const Sizes& sizes, std::uint64_t seeds) {
  bool any = false;
  for (const auto& [counts, r] : sizes) {
    if (!r.feasible) continue;
    for (const std::vector<double>& values : r.values) {
      if (seeds < 2 || !identical_runs(values)) return false;
      any = true;
    }
  }
  return any;
}

constexpr const char* kIdenticalRuns =
    "the runs are identical: the interval is no evidence (every seed ran the same workload to the same "
    "metrics; --sample-workload draws a workload per seed)";

// Where each seed's workload came from, for the report.
struct Sampling {
  std::string mode;  // "resample-days", "resample-weeks"; empty: none
  double load_scale = 1;
  std::vector<std::string> workloads;             // per seed, the file written
  std::vector<std::size_t> dependencies_dropped;  // per seed
};

nlohmann::ordered_json plan_json(const std::vector<Slo>& slos, const std::vector<NodeTemplate>& templates,
                                 const Sizes& sizes, const std::optional<std::vector<int>>& answer, std::uint64_t seeds,
                                 const Sampling& sampling, const EnergyTerms& energy) {
  nlohmann::ordered_json out;
  out["search"] =
      "per count of the other node types, the fewest of the last: largest size first, then bisection between the "
      "largest failing and the smallest meeting size, then the answer's neighbours checked (the size below fails, "
      "the size above meets); the cheapest answer, then the fewest nodes";
  out["seeds"] = seeds;
  out["rule"] =
      "METRIC<=BOUND: met when the 95% confidence interval of the metric's mean over the seeds lies within the "
      "bound; METRIC<=BOUND@P: met when at least a share P of the seeds' runs are within the bound";
  if (std::any_of(slos.begin(), slos.end(), bounds_energy))
    out["energy_rule"] =
        "an energy or power SLO takes no part in the search (more nodes draw more idle power): the answer is the "
        "fewest nodes tried that meet the other SLOs and the energy ones";
  if (energy.price) out["energy_price_per_kwh"] = *energy.price;
  const bool identical = all_runs_identical(sizes, seeds);
  out["identical_runs"] = identical;
  if (identical) out["identical_runs_note"] = kIdenticalRuns;
  if (!sampling.mode.empty()) {
    out["sample_workload"] = sampling.mode;
    out["load_scale"] = sampling.load_scale;
    out["dependencies_dropped"] = sampling.dependencies_dropped;
  }
  out["templates"] = nlohmann::ordered_json::array();
  for (const NodeTemplate& t : templates)
    out["templates"].push_back(
        {{"file", t.path}, {"gpus_per_node", t.gpus_per_node}, {"price_per_node_hour", t.price}});
  out["slos"] = nlohmann::ordered_json::array();
  for (const Slo& slo : slos) {
    nlohmann::ordered_json entry = {
        {"slo", slo.text}, {"metric", slo.metric}, {"at_most", slo.at_most}, {"bound", slo.bound}};
    if (slo.share) entry["share"] = *slo.share;
    out["slos"].push_back(entry);
  }
  // The cost's parts, with --energy-price; without it a size's cost is its nodes'.
  auto add_costs = [&](nlohmann::ordered_json& entry, const std::vector<int>& counts) {
    entry["cost_per_hour"] = cost_of(templates, sizes, counts);
    if (!energy.price) return;
    const SizeResult& r = sizes.at(counts);
    entry["node_cost_per_hour"] = node_cost_of(templates, counts);
    entry["energy_cost_per_hour"] = r.energy_cost_per_hour;
    entry["energy_cost"] = r.energy_cost;
  };
  auto mix_json = [&](const std::vector<int>& counts) {
    nlohmann::ordered_json mix = nlohmann::ordered_json::array();
    for (std::size_t t = 0; t < templates.size(); ++t)
      mix.push_back({{"template", templates[t].path}, {"nodes", counts[t]}});
    return mix;
  };
  if (answer) {
    int nodes = 0;
    for (int c : *answer) nodes += c;
    out["answer"] = {{"nodes", nodes}, {"gpus", gpus_of(templates, *answer)}, {"mix", mix_json(*answer)}};
    add_costs(out["answer"], *answer);
  } else {
    out["answer"] = nullptr;
  }
  out["sizes"] = nlohmann::ordered_json::array();
  for (const auto& [counts, r] : sizes) {
    nlohmann::ordered_json size = {{"nodes", r.nodes}, {"gpus", gpus_of(templates, counts)}, {"mix", mix_json(counts)}};
    add_costs(size, counts);
    size["feasible"] = r.feasible;
    size["meets_every_slo"] = r.meets;
    if (!r.feasible) size["why_not"] = r.infeasibility;
    size["metrics"] = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < r.intervals.size(); ++i) {
      // Identical runs have no spread to estimate: their zero-width interval is not one.
      const bool same = identical_runs(r.values[i]);
      size["metrics"][slos[i].text] = {
          {"mean", r.intervals[i].mean},
          {"ci95_half_width", same ? nlohmann::ordered_json() : nlohmann::ordered_json(r.intervals[i].half_width)},
          {"identical_runs", same},
          {"runs_within", runs_within(slos[i], r.values[i])},
          {"met", slo_met(slos[i], r.values[i])},
          {"values", r.values[i]}};
    }
    out["sizes"].push_back(size);
  }
  return out;
}

std::string plan_markdown(const std::vector<Slo>& slos, const std::vector<NodeTemplate>& templates, const Sizes& sizes,
                          const std::optional<std::vector<int>>& answer, std::uint64_t seeds) {
  std::ostringstream out;
  const bool mixed = templates.size() > 1;
  if (answer) {
    int nodes = 0;
    for (int c : *answer) nodes += c;
    out << "Answer: " << nodes << " nodes";
    if (mixed) out << " (" << mix_name(*answer) << " of the templates in order)";
    out << ", " << gpus_of(templates, *answer) << " GPUs, " << exact_number(cost_of(templates, sizes, *answer))
        << " an hour";
    if (const SizeResult& r = sizes.at(*answer); r.energy_cost_per_hour > 0 || r.energy_cost > 0)
      out << " (energy " << exact_number(r.energy_cost_per_hour) << " of it; the workload's energy "
          << exact_number(r.energy_cost) << ")";
    out << ".\n\n";
  } else {
    out << "No size tried meets every SLO.\n\n";
  }
  out << "| nodes |" << (mixed ? " mix |" : "") << " GPUs |";
  for (const Slo& slo : slos) out << " " << slo.text << " |";
  out << " verdict |\n|---:|" << (mixed ? "---|" : "") << "---:|";
  for (std::size_t i = 0; i < slos.size(); ++i) out << "---:|";
  out << "---|\n";
  for (const auto& [counts, r] : sizes) {
    out << "| " << r.nodes << " |" << (mixed ? " " + mix_name(counts) + " |" : "") << " " << gpus_of(templates, counts)
        << " |";
    for (std::size_t i = 0; i < slos.size(); ++i) {
      if (i < r.intervals.size())
        out << " " << exact_number(r.intervals[i].mean)
            << (r.intervals[i].half_width > 0 && !identical_runs(r.values[i])
                    ? " ± " + exact_number(r.intervals[i].half_width)
                    : "")
            << (slos[i].share ? " (" + std::to_string(runs_within(slos[i], r.values[i])) + "/" +
                                    std::to_string(r.values[i].size()) + " within)"
                              : "")
            << " |";
      else
        out << " n/a |";
    }
    out << " "
        << (!r.feasible ? "does not fit"
            : r.meets   ? "meets"
                        : "misses")
        << (answer && *answer == counts ? " (answer)" : "") << " |\n";
  }
  out << "\nA size meets an SLO when the 95% confidence interval of the metric's mean over the seeds lies within "
         "the bound";
  if (std::any_of(slos.begin(), slos.end(), [](const Slo& slo) { return slo.share.has_value(); }))
    out << "; an SLO with @P when at least a share P of the seeds' runs are within it";
  out << ".\n";
  if (std::any_of(slos.begin(), slos.end(), bounds_energy))
    out << "\nThe energy and power SLOs take no part in the search (more nodes draw more idle power): the answer "
           "is the fewest nodes tried that meet the other SLOs and these too.\n";
  if (all_runs_identical(sizes, seeds)) out << "\nWith " << seeds << " seeds " << kIdenticalRuns << ".\n";
  return out.str();
}

// Each seed's workload drawn from the given one (workload_resampling.hpp),
// written to DIR/workloads/seed-S.json before any run.
void write_sampled_workloads(const std::string& path, std::uint64_t seeds, const std::string& out_dir,
                             Sampling& sampling) {
  const std::vector<JobSpec> given = read_native_workload(path);
  const bool weeks = sampling.mode == "resample-weeks";
  fs::create_directories(out_dir + "/workloads");
  std::size_t dropped = 0;
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    ResampledWorkload drawn = resample_periods(given, weeks ? kWeek : kDay, weeks ? 'w' : 'd', seed);
    if (drawn.jobs.empty())  // a workload of no jobs cannot run
      throw InputError(path, "", "jobs",
                       "seed " + std::to_string(seed) + " draws only " + (weeks ? "weeks" : "days") +
                           " without jobs: the submissions are too sparse for --sample-workload " + sampling.mode +
                           (weeks ? "" : " (try resample-weeks)"));
    scale_load(drawn.jobs, sampling.load_scale);
    std::ostringstream text;
    write_native_workload(text, drawn.jobs);
    const std::string file = out_dir + "/workloads/seed-" + std::to_string(seed) + ".json";
    write_file_atomically(file, text.str());
    sampling.workloads.push_back(file);
    sampling.dependencies_dropped.push_back(drawn.dependencies_dropped);
    dropped += drawn.dependencies_dropped;
  }
  if (dropped > 0)
    std::cerr << "gcsim plan: notice: " << dropped << (dropped == 1 ? " dependency" : " dependencies")
              << " (\"after\") on jobs of another " << (weeks ? "week" : "day")
              << " dropped from the sampled workloads (plan.json: dependencies_dropped)\n";
}

// "cluster.json@12.5": the file, and the price of a node an hour (nullopt: none given).
std::pair<std::string, std::optional<double>> template_argument(const std::string& text) {
  const auto at = text.rfind('@');
  if (at == std::string::npos) return {text, std::nullopt};
  std::size_t used = 0;
  double price = -1;
  try {
    price = std::stod(text.substr(at + 1), &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() - at - 1 || price < 0)
    throw UsageError("option '--node-template' " + text + ": the price after '@' is not a number >= 0");
  return {text.substr(0, at), price};
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
  EnergyTerms energy;
  if (args.has("energy-price")) {
    energy.price = args.number_or("energy-price", 0);
    if (!(*energy.price >= 0) || !std::isfinite(*energy.price))
      throw UsageError("option '--energy-price' must be a number >= 0");
  }
  energy.accounted = energy.price || std::any_of(slos.begin(), slos.end(), bounds_energy);
  const double gpu_cost = args.number_or("gpu-cost", 0);
  if (gpu_cost < 0) throw UsageError("option '--gpu-cost' must not be negative");
  std::vector<NodeTemplate> templates;
  std::uint64_t template_count = 0;
  for (const std::string& argument : args.all("node-template")) {
    const auto [path, price] = template_argument(argument);
    NodeTemplate t = read_node_template(path);
    t.price = price ? *price : static_cast<double>(t.gpus_per_node) * gpu_cost;
    template_count = std::max<std::uint64_t>(template_count, t.count);
    templates.push_back(std::move(t));
  }
  if (templates.empty()) throw UsageError("give a --node-template");
  if (templates.size() > 3) throw UsageError("at most 3 node templates: a mix of more takes too many runs");
  const std::uint64_t seeds = args.uint_or("seeds", 1);
  if (seeds < 1 || seeds > 1000) throw UsageError("option '--seeds' must be between 1 and 1000");
  for (const Slo& slo : slos)
    if (slo.share && seeds < fewest_runs_for(*slo.share))
      throw UsageError("option '--slo' '" + slo.text + "': a share of " + exact_number(*slo.share) +
                       " needs --seeds of at least " + std::to_string(fewest_runs_for(*slo.share)) +
                       " (1/(1-P)); with fewer, every run would have to be within the bound");
  Sampling sampling;
  sampling.mode = args.value_or("sample-workload", "");
  if (!sampling.mode.empty() && sampling.mode != "resample-days" && sampling.mode != "resample-weeks")
    throw UsageError("option '--sample-workload' must be resample-days or resample-weeks, not '" + sampling.mode + "'");
  sampling.load_scale = args.number_or("load-scale", 1);
  if (!(sampling.load_scale > 0) || !std::isfinite(sampling.load_scale))
    throw UsageError("option '--load-scale' must be a number > 0");
  if (args.has("load-scale") && sampling.mode.empty())
    throw UsageError("option '--load-scale' scales a sampled workload: give --sample-workload too");
  const std::uint64_t smallest = args.uint_or("min-nodes", 1);
  const std::uint64_t largest = args.uint_or("max-nodes", std::max<std::uint64_t>(8, 4 * template_count));
  if (smallest < 1 || largest < smallest || largest > 1000000)
    throw UsageError("options '--min-nodes' and '--max-nodes' need 1 <= min <= max <= 1000000");
  const PlotMode plots = parse_plot_mode(args.value_or("plots", "auto"));
  const bool quiet = args.has("quiet");
  const std::string out_dir = fs::absolute(args.required("out")).lexically_normal().string();
  read_json_file(args.required("workload"));  // a bad workload file is named before anything runs
  if (!sampling.mode.empty()) write_sampled_workloads(args.required("workload"), seeds, out_dir, sampling);

  // Every count of the types but the last (0 to the largest), and for each the search over the last.
  Sizes sizes;
  std::optional<std::vector<int>> answer;
  std::vector<int> prefix(templates.size() - 1, 0);
  while (true) {
    const bool others = std::any_of(prefix.begin(), prefix.end(), [](int c) { return c > 0; });
    PlanSearch search(others ? 0 : static_cast<int>(smallest), static_cast<int>(largest));
    while (const std::optional<int> last = search.next()) {
      std::vector<int> counts = prefix;
      counts.push_back(*last);
      if (!sizes.count(counts))
        sizes[counts] = simulate_mix(counts, templates, slos, seeds, args, sampling.workloads, energy, out_dir, quiet);
      search.record(*last, sizes[counts].meets_service);
    }
    // The fewest of the last type, at or above the search's answer, that meets the energy SLOs too.
    std::optional<std::vector<int>> found;
    for (int last = search.answer().value_or(static_cast<int>(largest) + 1); last <= static_cast<int>(largest);
         ++last) {
      std::vector<int> counts = prefix;
      counts.push_back(last);
      if (const auto size = sizes.find(counts); size != sizes.end() && size->second.meets) {
        found = counts;
        break;
      }
    }
    if (found) {
      const int nodes = std::accumulate(found->begin(), found->end(), 0);
      const double cost = cost_of(templates, sizes, *found), best = answer ? cost_of(templates, sizes, *answer) : 0;
      const bool better =
          !answer || cost < best || (cost == best && nodes < std::accumulate(answer->begin(), answer->end(), 0));
      if (better) answer = found;
    }
    // The next count of the other types, as an odometer.
    std::size_t t = 0;
    while (t < prefix.size() && prefix[t] == static_cast<int>(largest)) prefix[t++] = 0;
    if (t == prefix.size()) break;
    ++prefix[t];
  }

  OutputSet out(out_dir);
  out.stage("plan.json", plan_json(slos, templates, sizes, answer, seeds, sampling, energy).dump(2) + "\n");
  out.stage("plan.md", plan_markdown(slos, templates, sizes, answer, seeds));
  out.commit();
  if (!quiet) std::cout << "\n" << plan_markdown(slos, templates, sizes, answer, seeds) << "\n";
  if (all_runs_identical(sizes, seeds)) std::cerr << "gcsim plan: warning: " << kIdenticalRuns << "\n";
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
                   {"node-template", true, true},
                   {"slo", true, true},
                   {"seeds"},
                   {"gpu-cost"},
                   {"energy-price"},
                   {"min-nodes"},
                   {"max-nodes"},
                   {"policy-opt", true, true},
                   {"sample-workload"},
                   {"load-scale"},
                   {"plots"},
                   {"out"},
                   {"quiet", false}},
                  plan};
  command.other_failure = OtherFailure{exit_codes::kRunFailed, "gcsim plan: error: "};
  return command;
}

}  // namespace gcsim
