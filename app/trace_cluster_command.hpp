// trace_cluster_command.hpp: `gcsim trace cluster`, a part of `gcsim trace`.
#pragma once

#include <string>
#include <vector>

#include "app/arguments.hpp"

namespace gcsim {

/// Its lines of `gcsim trace --help`.
extern const char* const kTraceClusterUsage;

/// Its options.
extern const std::vector<FlagSpec> kTraceClusterFlags;

/// `gcsim trace cluster TABLE ...`: TABLE and the options after it.
int trace_cluster(const std::string& path, const Arguments& args);

}  // namespace gcsim
