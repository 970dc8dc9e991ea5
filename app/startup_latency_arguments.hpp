// startup_latency_arguments.hpp: --startup-latency and --startup-seed as a
// command gives them (gcsim run, gcsim validate --trace); the model is parsed
// when the run starts (startup_latency_flag.hpp).
//
//   const StartupLatencyFlags startup = startup_latency_flags(args);
#pragma once

#include <cstdint>
#include <string>

#include "app/arguments.hpp"

namespace gcsim {

struct StartupLatencyFlags {
  std::string model;  // empty: none
  std::uint64_t seed = 0;
};

/// The flags as given; UsageError for a seed without a model.
StartupLatencyFlags startup_latency_flags(const Arguments& args);

}  // namespace gcsim
