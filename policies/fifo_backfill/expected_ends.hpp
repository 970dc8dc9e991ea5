// expected_ends.hpp: the running jobs in the order fifo-backfill expects them
// to end, kept across scheduling calls.
//
// A blocked head's shadow time is found by giving back the running jobs'
// GPUs in order of expected end until the head fits. Gathering and sorting
// every running job at each call costs O(r log r) per call: with thousands
// of jobs running and a call per arrival and per end, a burst of arrivals
// costs quadratic time. Here the order is kept from the runs that began or
// ended since the previous call (QueueView::run_log(), O(log r) each), and
// a walk reads only the jobs it gives back.
//
// A running job's expected end is its start + its estimate, or now once that
// has passed (`max(now, start + estimate)`); a job whose estimate is unknown
// (kNever) is never expected to end and is not listed. Jobs expected to end
// at the same instant come in the order they started (QueueView::running()'s
// order); all those already overdue end together at now.
//
//   ExpectedEnds ends;  // a member of the policy
//   ends.update(ctx.jobs, ctx.now, estimate);
//   ends.visit([&](const ExpectedEnd& e) { ...give back e.job's GPUs...; return !head_fits; });
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/queue_view.hpp"

namespace gcsim {

struct ExpectedEnd {
  Time end;
  JobIndex job;
};

class ExpectedEnds {
 public:
  /// A job's expected run time; kNever: unknown.
  using Estimate = std::function<Time(JobIndex)>;

  /// Takes in the runs that began or ended since the previous call and sets
  /// the time of the walks to `now`. A job's estimate is asked once per run.
  void update(const QueueView& jobs, Time now, const Estimate& estimate);
  /// Calls `visit` for every listed running job in order of expected end
  /// (ties: in the order they started) until it returns false.
  void visit(const std::function<bool(const ExpectedEnd&)>& visit) const;
  /// The earliest expected end later than `after`; kNever when there is none.
  Time first_after(Time after) const;

 private:
  static constexpr std::size_t kNotListed = static_cast<std::size_t>(-1);
  // A listed run: its start + estimate, and the run-log entry of its start
  // (the order of starts).
  struct Run {
    Time end = kNever;
    std::size_t started = kNotListed;
  };
  void list(const Run& run, JobIndex job);

  std::vector<Run> run_of_;                                  // per job
  std::set<std::tuple<Time, std::size_t, JobIndex>> later_;  // ending after now_: (end, started, job)
  std::map<std::size_t, JobIndex> overdue_;                  // ending at or before now_: started -> job
  Time now_ = -kNever;
  std::size_t runs_read_ = 0;  // entries of the run log taken in
};

}  // namespace gcsim
