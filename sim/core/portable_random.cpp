#include "sim/core/portable_random.hpp"

#include <cmath>

// The same bits everywhere: the target compiles with -ffp-contract=off
// (workloads/CMakeLists.txt), so no multiply and add fuse into one FMA.

namespace gcsim {
namespace {

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^20 (fdlibm's constants).
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kHalfPi = 1.57079632679489661923;

// sin and cos on [-pi/4, pi/4] by their Taylor series (terms to a^21, below
// 1e-20 there), evaluated in Horner form.
double sin_reduced(double a) {
  const double a2 = a * a;
  double p = 1.0;
  for (int n = 10; n >= 1; --n) p = 1.0 - a2 * p / ((2.0 * n) * (2.0 * n + 1.0));
  return a * p;
}

double cos_reduced(double a) {
  const double a2 = a * a;
  double p = 1.0;
  for (int n = 10; n >= 1; --n) p = 1.0 - a2 * p / ((2.0 * n - 1.0) * (2.0 * n));
  return p;
}

// cos(2 pi u) for u in [0, 1): the turn is split into quarter turns exactly
// (4u and 4u - q are exact), leaving an angle in [-pi/4, pi/4].
double cos_turns(double u) {
  const double t = 4.0 * u;
  const double q = std::floor(t + 0.5);
  const double a = (t - q) * kHalfPi;
  switch (static_cast<int>(q) & 3) {
    case 0:
      return cos_reduced(a);
    case 1:
      return -sin_reduced(a);
    case 2:
      return -cos_reduced(a);
    default:
      return sin_reduced(a);
  }
}

}  // namespace

double portable_log(double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1): exact
  if (m < kSqrtHalf) {
    m *= 2.0;
    --e;
  }
  // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172: the series in
  // s^2 <= 0.0295 is below 1e-18 after 12 terms.
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double q = 1.0 / 25.0;
  for (int n = 11; n >= 0; --n) q = 1.0 / (2.0 * n + 1.0) + s2 * q;
  const double k = static_cast<double>(e);
  return k * kLn2Hi + (k * kLn2Lo + 2.0 * s * q);
}

double portable_exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.1332191019412) return 0.0;
  // x = k ln 2 + r with |r| <= ln2 / 2; e^r by Taylor to r^17 (< 1e-20).
  const double k = std::floor(x * kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double p = 1.0;
  for (int n = 17; n >= 1; --n) p = 1.0 + p * r / n;
  return std::ldexp(p, static_cast<int>(k));
}

double PortableRandom::uniform() { return static_cast<double>(bits_() >> 11) * 0x1.0p-53; }

std::uint64_t PortableRandom::below(std::uint64_t n) {
  // Values below 2^64 mod n would make the low residues more likely.
  const std::uint64_t threshold = (0 - n) % n;
  std::uint64_t x = bits_();
  while (x < threshold) x = bits_();
  return x % n;
}

double PortableRandom::exponential(double mean) { return -mean * portable_log(1.0 - uniform()); }

double PortableRandom::normal() {
  const double u1 = 1.0 - uniform();  // (0, 1]: log stays finite
  const double u2 = uniform();
  return std::sqrt(-2.0 * portable_log(u1)) * cos_turns(u2);
}

double PortableRandom::lognormal(double median, double sigma) { return median * portable_exp(sigma * normal()); }

double PortableRandom::log_uniform(double lo, double hi) {
  const double log_lo = portable_log(lo);
  return portable_exp(log_lo + (portable_log(hi) - log_lo) * uniform());
}

std::size_t PortableRandom::discrete(const std::vector<double>& weights) {
  double total = 0;
  for (double w : weights) total += w;
  const double target = uniform() * total;
  double cumulative = 0;
  std::size_t last_positive = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] <= 0) continue;
    cumulative += weights[i];
    last_positive = i;
    if (target < cumulative) return i;
  }
  return last_positive;  // target rounded onto the total
}

}  // namespace gcsim
