// startup_latency.hpp: how long a job takes to start once it is placed (its
// containers pulled and started, its processes up), during which it holds
// its GPUs and does no work.
//
// Off by default. A latency is fixed, drawn from a lognormal (MU and SIGMA of
// the logarithm of the seconds: its median is e^MU), or drawn from an
// empirical list of seconds (each equally likely). Each run of a job draws
// its own, from a stream of its own seeded by (seed, job, run): a job's
// latencies do not depend on what else the simulation drew, nor on the
// order events happen at one instant.
//
//   StartupLatency latency = StartupLatency::fixed(30);
//   Time delay = latency.draw(/*job=*/4, /*run=*/0);  // 30
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/ids.hpp"

namespace gcsim {

class StartupLatency {
 public:
  enum class Kind { kNone, kFixed, kLognormal, kEmpirical };

  StartupLatency() = default;
  static StartupLatency fixed(Time seconds);
  static StartupLatency lognormal(double mu, double sigma, std::uint64_t seed);
  /// `samples`: seconds, each >= 0, at least one.
  static StartupLatency empirical(std::vector<double> samples, std::uint64_t seed);

  bool enabled() const { return kind_ != Kind::kNone; }
  Kind kind() const { return kind_; }
  /// The latency of run `run` (0 for the first) of job `job`, seconds >= 0.
  Time draw(JobIndex job, std::uint32_t run) const;

 private:
  Kind kind_ = Kind::kNone;
  double seconds_ = 0, mu_ = 0, sigma_ = 0;
  std::vector<double> samples_;
  std::uint64_t seed_ = 0;
};

}  // namespace gcsim
