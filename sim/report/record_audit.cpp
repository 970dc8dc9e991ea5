#include "sim/report/record_audit.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/invariant_violation.hpp"
#include "sim/core/number_text.hpp"

namespace gcsim {
namespace {

// The timeline's counts are exact sums of millionths of a GPU; the
// GPU-seconds are summed in doubles, run by run.
constexpr double kRelativeSlack = 1e-9;

std::string at(Time time) { return "at " + significant(time, 12) + " s"; }

}  // namespace

void audit_record(const RunRecord& record, double waiting_hold_gpu_seconds) {
  const double total = static_cast<double>(record.total_gpus);
  double integral = 0;
  for (std::size_t i = 0; i < record.timeline.size(); ++i) {
    const TimelinePoint& p = record.timeline[i];
    if (i > 0 && p.time < record.timeline[i - 1].time)
      throw InvariantViolation("timeline-order", "the timeline goes back from " +
                                                     significant(record.timeline[i - 1].time, 12) + " s to " +
                                                     significant(p.time, 12) + " s");
    if (p.busy < 0 || p.busy > p.allocated * (1 + kRelativeSlack) || p.allocated > total * (1 + kRelativeSlack))
      throw InvariantViolation("busy-within-allocated", at(p.time) + ": " + significant(p.busy, 12) + " GPUs busy, " +
                                                            significant(p.allocated, 12) + " allocated of " +
                                                            significant(total, 12));
    const Time next = i + 1 < record.timeline.size() ? record.timeline[i + 1].time : record.simulated_time;
    if (next > p.time) integral += p.allocated * (std::min(next, record.simulated_time) - p.time);
  }
  const double held = record.run_gpu_seconds + waiting_hold_gpu_seconds;
  if (std::abs(integral - held) > kRelativeSlack * std::max({1.0, integral, held}))
    throw InvariantViolation("timeline-integral", "the timeline's allocated GPUs integrate to " +
                                                      significant(integral, 12) + " GPU-seconds; the jobs held " +
                                                      significant(record.run_gpu_seconds, 12) + " in their runs and " +
                                                      significant(waiting_hold_gpu_seconds, 12) + " while waiting");
}

}  // namespace gcsim
