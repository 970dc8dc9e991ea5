// portable_random.hpp: random draws and the logarithm and exponential they
// use, giving the same bits on every platform and standard library (the
// standard's distributions and <cmath> may differ between them), so a
// generated workload is the same file everywhere for one seed.
//
//   PortableRandom random(42);
//   double gap = random.exponential(60);       // one raw 64-bit value
//   double run = random.lognormal(3600, 1.0);  // two raw values
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace gcsim {

/// The random source of the generators. Each draw consumes a fixed number of raw 64-bit values.
class PortableRandom {
 public:
  explicit PortableRandom(std::uint64_t seed) : bits_(seed) {}

  /// [0, 1) with 53 random bits; one raw value.
  double uniform();
  /// Uniform integer in [0, n), unbiased (rejection); n >= 1.
  std::uint64_t below(std::uint64_t n);
  /// Exponential with the given mean; one raw value.
  double exponential(double mean);
  /// Standard normal by Box-Muller (cosine branch); two raw values.
  double normal();
  /// median * exp(sigma * normal()).
  double lognormal(double median, double sigma);
  /// exp of a uniform in [log lo, log hi); lo, hi > 0.
  double log_uniform(double lo, double hi);
  /// Index i with probability weights[i] / sum(weights); one raw value.
  std::size_t discrete(const std::vector<double>& weights);

 private:
  std::mt19937_64 bits_;
};

/// Natural logarithm and exponential from IEEE +, -, *, / only (relative
/// error within a few ulps), identical on every platform.
double portable_log(double x);
double portable_exp(double x);

}  // namespace gcsim
