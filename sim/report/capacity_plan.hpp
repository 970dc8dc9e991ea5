// capacity_plan.hpp: the search of `gcsim plan` for the fewest nodes that
// meet every SLO, and the statistics it judges each size by.
//
// An SLO bounds a summary.json metric: "wait_p95<=3600" (aliases below, or
// any dotted path: "job_types.training.jct_s.p95<=7200"), with <= or >=.
// A size meets it when the 95% confidence interval of the metric's mean over
// the seeds lies on the right side of the bound (with one seed, the value
// itself). When every seed's run gives the same value (a fixed workload under
// a deterministic policy), that interval has no width and is no evidence of
// anything: identical_runs() says so, for the report to warn.
//
// An energy or power SLO ("energy_kwh<=900", "peak_kw<=40": a metric under
// summary.json's `energy`, which the runs then account with --energy) bounds
// what nodes add rather than what they relieve: idle GPUs and node bases draw
// power, so it holds on few nodes and fails on many. It takes no part in the
// search, which assumes SLOs stay met as nodes are added; it is judged on
// the sizes the search tried (bounds_energy()).
//
// A chance constraint, "wait_p95<=1800@0.95", is met when at least a share P
// of the runs (each on its own sampled workload) are within the bound: the
// count within over the runs, at least P. It needs at least 1/(1-P) runs
// (fewest_runs_for()): with fewer, P x runs exceeds runs - 1 and every run
// must be within, whatever P says.
//
// The search: the largest size first (if it fails, no size does), then a
// bisection between the largest size known to fail and the smallest known to
// meet every SLO, down to two neighbours. A bisection is sound only if the
// SLOs, once met, stay met as nodes are added; that need not hold (a policy
// can place worse on a larger cluster, a queue can be starved differently),
// so the answer's neighbours are checked: the size below has failed, and the
// size above must meet every SLO too. When it does not, the answer is sought
// again above the size that failed (PlanSearch::next()). Every size tried is
// reported.
//
//   PlanSearch search(1, 64);
//   while (auto size = search.next()) search.record(*size, meets(*size));
//   search.answer();  // the fewest nodes found, or nullopt
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gcsim {

struct Slo {
  std::string text;     // as given
  std::string metric;   // the dotted path into summary.json
  bool at_most = true;  // "<=" (false: ">=")
  double bound = 0;
  std::optional<double> share;  // "@P": the share of runs within the bound, in (0, 1); none: the mean's interval
};

/// "wait_p95<=3600" -> {metric "queueing_delay_s.p95", at_most, 3600}; "...@0.95" adds the share. Aliases:
/// wait_{mean,p50,p95,p99,max}, jct_{...}, makespan, utilization (busy share),
/// allocation (allocated share), energy_kwh (facility), it_kwh, mean_kw and
/// peak_kw (IT power). Throws std::invalid_argument naming what is wrong.
Slo parse_slo(const std::string& text);

/// Whether the SLO bounds a metric of summary.json's `energy` (the runs need --energy).
bool bounds_energy(const Slo& slo);

/// Mean and the half-width of its 95% confidence interval (Student's t); 0 with one value.
struct MeanInterval {
  double mean = 0, half_width = 0;
};
MeanInterval mean_interval(const std::vector<double>& values);

/// Whether the interval lies within the SLO's bound.
bool meets(const Slo& slo, const MeanInterval& interval);

/// How many of the values lie within the SLO's bound.
std::size_t runs_within(const Slo& slo, const std::vector<double>& values);

/// Whether the runs meet the SLO: with a share, at least that share of them
/// within the bound; without, their mean's interval within it.
bool slo_met(const Slo& slo, const std::vector<double>& values);

/// The fewest runs for which a share P of them is not every run: 1/(1-P), rounded up.
std::size_t fewest_runs_for(double share);

/// Whether there are two values or more, all equal (to a billionth): the runs were identical.
bool identical_runs(const std::vector<double>& values);

class PlanSearch {
 public:
  /// Sizes from `smallest` to `largest` nodes.
  PlanSearch(int smallest, int largest) : low_(smallest), high_(largest) {}
  /// The next size to try; nullopt when the answer is known.
  std::optional<int> next();
  /// The verdict on a size the search asked for.
  void record(int size, bool meets_every_slo);
  /// The fewest nodes that meet every SLO, the one below having failed; nullopt if none up to the largest.
  std::optional<int> answer() const { return answer_; }
  const std::map<int, bool>& tried() const { return tried_; }

 private:
  int low_, high_;
  std::map<int, bool> tried_;
  std::optional<int> answer_;
  bool done_ = false;
};

}  // namespace gcsim
