// startup_latency_flag.hpp: the start-up latency model a run is given on the
// command line (--startup-latency, sim/model/startup_latency.hpp).
//
//   SECONDS               every run waits that long ("30", "2min")
//   lognormal:MU:SIGMA    drawn: e^(MU + SIGMA x a standard normal) seconds
//   empirical:FILE        drawn from FILE's seconds, one a line ('#' starts a
//                         comment), each line equally likely; `gcsim trace fit
//                         --startup-latency-out FILE` writes one from a trace
//
//   StartupLatency latency = parse_startup_latency("lognormal:2.3:0.8", /*seed=*/7);
#pragma once

#include <cstdint>
#include <string>

#include "sim/model/startup_latency.hpp"

namespace gcsim {

/// UsageError naming option '--startup-latency' for a bad model; InputError
/// naming the file and line for an empirical file that cannot be read.
StartupLatency parse_startup_latency(const std::string& text, std::uint64_t seed);

}  // namespace gcsim
