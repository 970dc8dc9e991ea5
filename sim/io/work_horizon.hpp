// work_horizon.hpp: the largest times and amounts of work gcsim simulates.
//
// Simulated time is a double of seconds, and a job's work becomes FLOPs as
// seconds x FLOP/s: a run time of 1e300 s overflows and stops the
// simulation. Every workload reader (the native format and each trace
// reader) checks its values here, and reports a value beyond the horizon as
// an input error naming the file, the job or line, and the field:
//
//   time    (submit times relative to the trace's time 0, run times,
//            estimates, checkpoint intervals and costs, task times)
//                           at most 1e9 s, about 31.7 years
//   FLOPs   (a training iteration's work per GPU, a task's work)
//                           at most 1e24: 1e9 s on a GPU of 1e15 FLOP/s
//   bytes   (a training iteration's gradients, a task's input)
//                           at most 1e18: 1e9 s at 1 GB/s
//
// so that seconds x FLOP/s, and every product with an iteration count (at
// most 2^64), stays far from overflow.
//
//   if (auto problem = beyond_horizon(seconds, HorizonQuantity::kTime))
//     object.fail("seconds", *problem);
//     // "expected at most 1e9 s (about 31.7 years, the horizon gcsim simulates), got 1e300 s"
#pragma once

#include <optional>
#include <string>

namespace gcsim {

inline constexpr double kHorizonSeconds = 1e9;
inline constexpr double kHorizonFlops = 1e24;
inline constexpr double kHorizonBytes = 1e18;

enum class HorizonQuantity { kTime, kFlops, kBytes };

/// What is wrong with `value` when it is beyond the horizon of its quantity
/// (or not a number), else nothing.
std::optional<std::string> beyond_horizon(double value, HorizonQuantity quantity);

}  // namespace gcsim
