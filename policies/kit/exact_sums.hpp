// exact_sums.hpp: whether totals kept across calls equal totals made afresh.
//
// A policy that keeps a sum over its running jobs adds a job's amount when it
// starts and takes it away when it ends. In floating point that sum can drift
// from the one a pass over the running jobs would make, and a decision taken
// on it could differ. It cannot when every amount is a whole number and all
// of them together stay below 2^53: every partial sum is then exact, in any
// order. A policy checks its workload's amounts once and keeps its sums only
// when they pass.
//
//   ExactSums memory;
//   for (const JobSpec& job : jobs) memory.add(job.memory_bytes);
//   if (memory.exact()) ... keep the sums ... else ... sum afresh at each call ...
#pragma once

#include <cmath>

namespace gcsim {

class ExactSums {
 public:
  /// One of the amounts that will be added and taken away.
  void add(double amount) {
    exact_ = exact_ && amount == std::floor(amount);
    total_ += std::fabs(amount);
  }
  /// Whether every sum of the amounts added so far is exact.
  bool exact() const { return exact_ && total_ < kExactBelow; }

 private:
  static constexpr double kExactBelow = 9007199254740992.0;  // 2^53
  bool exact_ = true;
  double total_ = 0;
};

}  // namespace gcsim
