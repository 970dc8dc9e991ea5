#include "sim/model/startup_latency.hpp"

#include <stdexcept>
#include <utility>

#include "sim/core/portable_random.hpp"

namespace gcsim {

StartupLatency StartupLatency::fixed(Time seconds) {
  if (!(seconds >= 0)) throw std::invalid_argument("a start-up latency must be >= 0 seconds");
  StartupLatency latency;
  latency.kind_ = Kind::kFixed;
  latency.seconds_ = seconds;
  return latency;
}

StartupLatency StartupLatency::lognormal(double mu, double sigma, std::uint64_t seed) {
  if (!(sigma >= 0)) throw std::invalid_argument("a lognormal's sigma must be >= 0");
  StartupLatency latency;
  latency.kind_ = Kind::kLognormal;
  latency.mu_ = mu;
  latency.sigma_ = sigma;
  latency.seed_ = seed;
  return latency;
}

StartupLatency StartupLatency::empirical(std::vector<double> samples, std::uint64_t seed) {
  if (samples.empty()) throw std::invalid_argument("an empirical start-up latency needs at least one sample");
  for (const double s : samples)
    if (!(s >= 0)) throw std::invalid_argument("a start-up latency sample must be >= 0 seconds");
  StartupLatency latency;
  latency.kind_ = Kind::kEmpirical;
  latency.samples_ = std::move(samples);
  latency.seed_ = seed;
  return latency;
}

Time StartupLatency::draw(JobIndex job, std::uint32_t run) const {
  switch (kind_) {
    case Kind::kNone:
      return 0;
    case Kind::kFixed:
      return seconds_;
    case Kind::kLognormal:
    case Kind::kEmpirical:
      break;
  }
  // A stream of its own per (seed, job, run): splitmix64's mixing of the three.
  std::uint64_t key = seed_ ^ (0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(job) + 1));
  key ^= 0xbf58476d1ce4e5b9ULL * (static_cast<std::uint64_t>(run) + 1);
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ULL;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebULL;
  key ^= key >> 31;
  PortableRandom random(key);
  if (kind_ == Kind::kLognormal) return random.lognormal(portable_exp(mu_), sigma_);
  return samples_[random.below(samples_.size())];
}

}  // namespace gcsim
