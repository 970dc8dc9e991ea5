#include "app/startup_latency_arguments.hpp"

#include "sim/core/usage_error.hpp"

namespace gcsim {

StartupLatencyFlags startup_latency_flags(const Arguments& args) {
  StartupLatencyFlags flags{args.value_or("startup-latency", ""), args.uint_or("startup-seed", 0)};
  if (args.has("startup-seed") && flags.model.empty())
    throw UsageError("option '--startup-seed' applies with --startup-latency only");
  return flags;
}

}  // namespace gcsim
