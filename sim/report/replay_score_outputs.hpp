// replay_score_outputs.hpp: the files a scored replay writes (replay_score.hpp).
//
//   score.json       every figure of the ReplayScore, waits in seconds,
//                    relative errors as fractions (null where the recorded
//                    figure is 0), shares as fractions
//   score.md         the same as Markdown tables, for a reader
//   score_jobs.csv   one row per replayed job: id, user, queue, gpus, submit,
//                    recorded_wait, simulated_wait, abs_error (empty where
//                    unknown)
//   score_gpus.csv   time, simulated, recorded: allocated GPUs from that time
//                    until the next row
//
//   OutputSet out(dir);
//   out.stage("score.json", [&](std::ostream& f) { f << score_json(score, context).dump(1) << "\n"; });
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/replay_score.hpp"

namespace gcsim {

/// What was replayed, named in the outputs.
struct ReplayScoreContext {
  std::string trace;    // FORMAT:FILE
  std::string cluster;  // its file
  std::string policy;
  std::string startup_latency;  // the latency model as given; empty: none
};

nlohmann::json score_json(const ReplayScore& score, const ReplayScoreContext& context);
std::string score_markdown(const ReplayScore& score, const ReplayScoreContext& context);
void write_score_jobs_csv(std::ostream& out, const std::vector<ReplayJob>& jobs);
void write_score_gpus_csv(std::ostream& out, const ReplayScore& score);

}  // namespace gcsim
