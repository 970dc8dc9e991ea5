// trace_cluster_command.hpp: `gcsim trace cluster`, a part of `gcsim trace`.
#pragma once

#include <string>

namespace gcsim {

/// Its lines of `gcsim trace --help`.
extern const char* const kTraceClusterUsage;

/// `gcsim trace cluster TABLE ...`: the arguments after TABLE.
int trace_cluster(const std::string& path, int argc, char** argv);

}  // namespace gcsim
