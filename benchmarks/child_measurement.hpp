// child_measurement.hpp: run one measured piece of work in a child process.
//
// SimGrid allows one engine per process, so a benchmark that calls
// simulate() once per iteration forks a child for each: the inputs built
// before the fork are shared, the child measures its own work with a steady
// clock and sends the figures back. The benchmark reports them as manual
// time (UseManualTime): fork and exit are not counted.
//
//   for (auto _ : bench) {
//     const ChildMeasurement m = measure_in_child([&] {
//       const RunRecord record = simulate({...});
//       return ChildFigures{record.wall_seconds, static_cast<double>(record.events)};
//     });
//     bench.SetIterationTime(m.seconds);
//   }
#pragma once

#include <functional>
#include <stdexcept>

namespace gcsim::bench {

/// What the child measured: seconds of work and how many items it handled.
struct ChildFigures {
  double seconds = 0;
  double items = 0;
};

struct ChildMeasurement {
  double seconds = 0;
  double items = 0;
  double cpu_seconds = 0;     // the child's whole user + system time, a figure other tenants' load inflates less
  double peak_rss_bytes = 0;  // the child's peak resident set (it shares the parent's pages at the fork)
};

/// Runs `work` in a forked child; throws std::runtime_error when the child
/// fails (an exception, a signal, no figures sent back).
ChildMeasurement measure_in_child(const std::function<ChildFigures()>& work);

}  // namespace gcsim::bench
