#include "sim/core/stage_power_plan.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <map>
#include <tuple>
#include <utility>

#include "sim/core/gpu_power_states.hpp"
#include "sim/core/one_f_one_b.hpp"

namespace gcsim {
namespace {

// A lowering keeps the time within the bound up to rounding: a path that
// only ties the critical one in exact arithmetic may sum a hair above it.
constexpr double kTimeTolerance = 1e-9;

std::uint32_t stage_count(const StagePowerPlan& plan) { return static_cast<std::uint32_t>(plan.forward_flops.size()); }

// The stage of op `op` (pipeline_op()'s numbering).
std::uint32_t stage_of_op(const StagePowerPlan& plan, std::size_t op) {
  return static_cast<std::uint32_t>(op / 2 / plan.micro_batches);
}

// Each op's work: its stage's forward or backward FLOPs, by pipeline_op().
std::vector<double> op_work(const StagePowerPlan& plan) {
  const std::uint32_t m = plan.micro_batches;
  std::vector<double> work(2 * std::size_t{stage_count(plan)} * m);
  for (std::uint32_t s = 0; s < stage_count(plan); ++s)
    for (std::uint32_t i = 0; i < m; ++i) {
      work[pipeline_op(s, i, false, m)] = plan.forward_flops[s];
      work[pipeline_op(s, i, true, m)] = plan.backward_flops[s];
    }
  return work;
}

double longest_path(const OneFOneBDag& dag, const std::vector<double>& durations) {
  const std::vector<double> ends = dag.earliest_ends(durations);
  return ends.empty() ? 0.0 : *std::max_element(ends.begin(), ends.end());
}

// Perseus's rule, greedily (stage_power_plan.hpp): each op's index into `table`.
std::vector<std::size_t> perseus_states(const StagePowerPlan& plan, const OneFOneBDag& dag,
                                        const std::vector<PowerState>& table, double busy_watts) {
  const std::vector<double> work = op_work(plan);
  const std::size_t ops = work.size();
  std::vector<std::size_t> index(ops, 0);
  std::vector<double> durations(ops);
  for (std::size_t k = 0; k < ops; ++k) durations[k] = work[k] / table[0].speed;
  const double bound = (1 + plan.slack) * longest_path(dag, durations) * (1 + kTimeTolerance);
  // Energy = sum over ops of (watts - busy) x time + stages x busy x the pipeline's time.
  const double bubble_watts = stage_count(plan) * busy_watts;
  for (;;) {
    const std::vector<double> earliest = dag.earliest_ends(durations);
    const double time = earliest.empty() ? 0.0 : *std::max_element(earliest.begin(), earliest.end());
    const std::vector<double> latest = dag.latest_ends(durations, time);
    std::size_t best = ops;
    double best_saving = 0;
    for (std::size_t k = 0; k < ops; ++k) {
      if (index[k] + 1 >= table.size()) continue;
      const PowerState& now = table[index[k]];
      const PowerState& lower = table[index[k] + 1];
      const double lowered = work[k] / lower.speed;
      const double through = time - (latest[k] - earliest[k]) + (lowered - durations[k]);  // the longest path via k
      if (through > bound) continue;
      const double saving = (busy_watts - lower.watts) * lowered - (busy_watts - now.watts) * durations[k] -
                            bubble_watts * std::max(0.0, through - time);
      if (saving > best_saving) best = k, best_saving = saving;  // ties: the lowest number
    }
    if (best == ops) return index;
    ++index[best];
    durations[best] = work[best] / table[index[best]].speed;
  }
}

}  // namespace

std::uint32_t stage_of_rank(const StagePowerPlan& plan, std::uint32_t rank) {
  return (rank / plan.stages.stride) % plan.stages.size;
}

std::vector<PowerState> computation_power_states(const StagePowerPlan& plan, const std::vector<PowerState>& table,
                                                 double busy_watts) {
  assert(!table.empty() && "a plan's states come from a power-state table");
  assert(plan.forward_flops.size() == plan.backward_flops.size() && "one forward and one backward per stage");
  const OneFOneBDag dag(stage_count(plan), plan.micro_batches);
  std::vector<PowerState> states;
  states.reserve(dag.size());
  if (!plan.limits_watts.empty()) {
    for (std::size_t op = 0; op < dag.size(); ++op)
      states.push_back(state_within(table, plan.limits_watts[stage_of_op(plan, op)]));
    return states;
  }
  for (std::size_t i : perseus_states(plan, dag, table, busy_watts)) states.push_back(table[i]);
  return states;
}

namespace {

// What a GPU draws in the pipeline's bubble: what it would draw computing
// at its highest allowed state. Its busy watts, or under a stage limit or a
// cluster cap the state within it: a capped GPU never draws more than its
// state's watts, while Perseus's plan sets each computation's pace and caps
// nothing (a GPU waiting for the next computation draws its busy watts, the
// model's rule for the bubble of every job).
double bubble_watts(const StagePowerPlan& plan,
                    const std::tuple<std::uint32_t, const std::vector<PowerState>*, double, double>& gpu) {
  const auto& [stage, table, cap_watts, busy_watts] = gpu;
  if (!table) return busy_watts;
  double limit = cap_watts;
  if (!plan.limits_watts.empty()) limit = std::min(limit, plan.limits_watts[stage]);
  return limit < busy_watts ? std::min(busy_watts, state_within(*table, limit).watts) : busy_watts;
}

}  // namespace

PlannedPipeline planned_pipeline(const StagePowerPlan& plan, const std::vector<RankPower>& ranks) {
  const std::uint32_t m = plan.micro_batches;
  const OneFOneBDag dag(stage_count(plan), m);
  const std::vector<double> work = op_work(plan);

  // Ranks alike (stage, table, cap, busy watts) run alike: each such GPU's
  // ops, stage s's 2m from pipeline_op(s, 0, false, m) on, once.
  using Alike = std::tuple<std::uint32_t, const std::vector<PowerState>*, double, double>;
  std::map<Alike, std::size_t> alike;
  std::vector<Alike> gpus;
  std::vector<std::vector<PowerState>> gpu_ops;
  std::map<std::pair<const std::vector<PowerState>*, double>, std::vector<PowerState>> by_table;  // every op's, once
  std::vector<std::size_t> gpu_of_rank;
  gpu_of_rank.reserve(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const RankPower& rank = ranks[r];
    const std::vector<PowerState>* table = rank.table && !rank.table->empty() ? rank.table : nullptr;
    const Alike key{stage_of_rank(plan, static_cast<std::uint32_t>(r)), table, rank.cap_watts, rank.busy_watts};
    auto found = alike.find(key);
    if (found == alike.end()) {
      found = alike.emplace(key, gpus.size()).first;
      gpus.push_back(key);
      const std::size_t first = pipeline_op(std::get<0>(key), 0, false, m);
      std::vector<PowerState> ops(2 * std::size_t{m}, PowerState{rank.busy_watts, 1.0});
      if (table) {
        auto planned = by_table.find({table, rank.busy_watts});
        if (planned == by_table.end())
          planned = by_table
                        .emplace(std::make_pair(table, rank.busy_watts),
                                 computation_power_states(plan, *table, rank.busy_watts))
                        .first;
        for (std::size_t k = 0; k < ops.size(); ++k) {
          const PowerState& state = planned->second[first + k];
          ops[k] = rank.cap_watts < state.watts ? state_within(*table, rank.cap_watts) : state;
        }
      }
      gpu_ops.push_back(std::move(ops));
    }
    gpu_of_rank.push_back(found->second);
  }

  // Each op at its stage's slowest GPU's pace.
  std::vector<double> speeds(work.size(), 1.0);
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const std::size_t first = pipeline_op(std::get<0>(gpus[g]), 0, false, m);
    for (std::size_t k = 0; k < gpu_ops[g].size(); ++k)
      speeds[first + k] = std::min(speeds[first + k], gpu_ops[g][k].speed);
  }
  std::vector<double> durations(work.size());
  for (std::size_t k = 0; k < work.size(); ++k) durations[k] = work[k] / speeds[k];
  const double time = longest_path(dag, durations), full = longest_path(dag, work);

  PlannedPipeline planned;
  planned.stretch = full > 0 ? time / full : 1.0;
  // Each GPU: its ops at their states' watts for their time at its speed, the rest of the pipeline at its busy watts.
  std::vector<double> gpu_watts;
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const std::size_t first = pipeline_op(std::get<0>(gpus[g]), 0, false, m);
    double joules = 0, computing = 0;
    for (std::size_t k = 0; k < gpu_ops[g].size(); ++k) {
      const double seconds = work[first + k] / gpu_ops[g][k].speed;
      joules += gpu_ops[g][k].watts * seconds;
      computing += seconds;
    }
    const double waiting = bubble_watts(plan, gpus[g]);
    joules += waiting * std::max(0.0, time - computing);
    gpu_watts.push_back(time > 0 ? joules / time : waiting);
  }
  planned.rank_watts.reserve(ranks.size());
  for (const std::size_t g : gpu_of_rank) planned.rank_watts.push_back(gpu_watts[g]);

  // Each stage as its first rank runs it.
  for (std::uint32_t s = 0; s < stage_count(plan); ++s) {
    const std::size_t first_rank = std::size_t{s} * plan.stages.stride;
    if (first_rank >= ranks.size()) break;
    const std::size_t g = gpu_of_rank[first_rank];
    PlannedStage stage;
    std::map<std::pair<double, double>, std::uint32_t, std::greater<>> counted;  // by (watts, speed), highest first
    for (const PowerState& state : gpu_ops[g]) ++counted[{state.watts, state.speed}];
    for (const auto& [state, ops] : counted)
      stage.ops_per_state.push_back({PowerState{state.first, state.second}, ops});
    if (!stage.ops_per_state.empty()) stage.highest = stage.ops_per_state.front().first;
    stage.mean_watts = gpu_watts[g];
    planned.stages.push_back(std::move(stage));
  }
  return planned;
}

}  // namespace gcsim
