// replay_score_command.hpp: `gcsim validate --trace FORMAT:FILE`: a trace
// replayed as `gcsim run` replays it, scored against the schedule the traced
// cluster recorded (sim/report/replay_score.hpp).
#pragma once

#include <vector>

#include "app/arguments.hpp"

namespace gcsim {

/// The options `gcsim validate --trace` reads besides validate's own.
std::vector<FlagSpec> replay_score_flags();

/// Replays the trace, scores it and writes DIR/score.md, score.json,
/// score_jobs.csv, score_gpus.csv and the plots; returns the exit status.
int score_trace_replay(const Arguments& args);

}  // namespace gcsim
