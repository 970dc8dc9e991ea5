// phased_fields.hpp: PhasedWork (sim/core/phased_work.hpp) as a job entry
// writes it, the "phased" field: the iterations and each phase's FLOPs per
// GPU and exchanges, as gcsim writes back an llm_training job (the phases
// it compiles into, as a frame chain is written as its DAG). Reader and
// writer side by side: reading what phased_json() writes gives the same
// work, every number exactly.
//
//   "phased": {"iterations": 10,
//              "phases": [{"flops": 2.5e12},
//                         {"exchanges": [{"exchange": "ring_step", "group_size": 8, "stride": 1,
//                                         "bytes": 524288, "messages": 192}]}]}
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "sim/core/phased_work.hpp"
#include "sim/io/json_input.hpp"

namespace gcsim {

/// "ring_step", "all_to_all", "chain_next", "chain_prev" or "broadcast".
const char* exchange_name(Exchange exchange);

/// Reads the "phased" field of the job entry `entry` of `gpus` GPUs: every
/// exchange's groups tile the ranks (group_size x stride divides the GPUs),
/// its bytes per transfer and iteration within the horizon.
PhasedWork read_phased(const JsonObject& entry, std::uint32_t gpus);

/// The "phased" field's value for `work`.
nlohmann::json phased_json(const PhasedWork& work);

}  // namespace gcsim
