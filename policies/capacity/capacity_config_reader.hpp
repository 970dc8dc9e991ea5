// capacity_config_reader.hpp: reading a capacity scheduler configuration
// from JSON, with errors that name the file, the queue and the property.
//
// The file is one JSON object whose keys are YARN property names, as in
// capacity-scheduler.xml (values may be JSON numbers and booleans, or the
// strings XML would hold), plus an optional "reservations" array:
//
//   {
//     "yarn.scheduler.capacity.root.queues": "prod,research",
//     "yarn.scheduler.capacity.root.prod.capacity": 60,
//     "yarn.scheduler.capacity.root.research.capacity": 40,
//     "yarn.scheduler.capacity.root.research.maximum-capacity": 100,
//     "yarn.resourcemanager.scheduler.monitor.enable": true,
//     "reservations": [{"id": "demo", "queue": "prod", "user": "alice", "gpus": 4, "start": "1h", "end": "2h"}]
//   }
//
// Every property the policy does not honour is rejected (a typo is an error,
// not a silently ignored setting); docs/capacity-scheduler.md lists them all.
// This reader is the only part of policies/capacity/ that depends on gcsim_io
// (it is built as its own library, gcsim_capacity_config); the policy itself
// sees only sim/core.
//
//   CapacityConfig config = read_capacity_config("scenarios/capacity/yarn-two-queues.json");
#pragma once

#include <string>

#include "policies/capacity/capacity_config.hpp"

namespace gcsim {

/// Reads and validates the file; InputError naming the file, the queue path
/// and the property on any problem.
CapacityConfig read_capacity_config(const std::string& path);
/// The same from JSON text; `file` labels errors and becomes the config's source.
CapacityConfig parse_capacity_config(const std::string& text, const std::string& file);

}  // namespace gcsim
