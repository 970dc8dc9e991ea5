// job_state.hpp: the lifecycle of a job as the engine tracks it.
#pragma once

#include <string_view>

namespace gcsim {

enum class JobState {
  kPending,   // not yet submitted (its submit time is in the future)
  kWaiting,   // submitted, in the queue
  kRunning,   // holds GPUs
  kFinished,  // completed its work
  kFailed,    // ended without completing its work
};

/// Lower-case name used in outputs ("waiting", "running", ...).
constexpr std::string_view to_string(JobState state) {
  switch (state) {
    case JobState::kPending:
      return "pending";
    case JobState::kWaiting:
      return "waiting";
    case JobState::kRunning:
      return "running";
    case JobState::kFinished:
      return "finished";
    case JobState::kFailed:
      return "failed";
  }
  return "unknown";
}

}  // namespace gcsim
