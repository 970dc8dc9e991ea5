// crafted_work.hpp: jobs' work built in code for unit tests, every field a
// hand count does not depend on left at its default.
//
//   job.work = ring_training(1e12, 1e9, 10);
#pragma once

#include <cstdint>

#include "sim/core/job_spec.hpp"

namespace gcsim::testing {

/// Data-parallel training with a ring allreduce: `iterations` of
/// `flops_per_iteration` per GPU, then `gradient_bytes` allreduced.
inline TrainingWork ring_training(double flops_per_iteration, double gradient_bytes, std::uint64_t iterations) {
  TrainingWork work;
  work.flops_per_iteration = flops_per_iteration;
  work.gradient_bytes = gradient_bytes;
  work.iterations = iterations;
  return work;
}

}  // namespace gcsim::testing
