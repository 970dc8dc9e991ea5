// notebook_activity.hpp: when an interactive notebook keeps its GPUs busy,
// and where an idle timeout cuts it into separate holds of its GPUs.
//
// A notebook's activity is a list of phases, each an idle gap then a burst
// (NotebookPhase). A workload gives the list, or a pattern it is drawn from:
// a session `length`, the share of it spent busy, the mean burst, and a
// seed. Bursts and gaps are drawn from exponential distributions (means:
// the burst, and burst x (1 - busy_fraction) / busy_fraction) with the
// seeded PortableRandom of the synthetic generator (the same draws on every
// platform), until the session's length, the last phase cut there.
//
// An idle timeout T (a notebook server culling idle kernels, as JupyterHub's
// idle culler does, or a cluster manager releasing GPUs on return) ends a
// hold of the GPUs after any gap longer than T: the notebook keeps them idle
// for T, then releases them, and its next burst, due when the gap ends, must
// get GPUs again. split_at_idle_timeout() gives the holds: the first starts
// with the activity; each later one starts with the burst after such a gap,
// submitted gap - T after the end of the hold before it.
//
//   auto activity = draw_activity({.length = 28800, .busy_fraction = 0.1, .burst = 600, .seed = 1});
//   std::vector<NotebookHold> holds = split_at_idle_timeout(activity, 1800);
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/job_spec.hpp"

namespace gcsim {

struct NotebookPattern {
  Time length = 0;           // seconds of session, > 0
  double busy_fraction = 0;  // in (0, 1]
  Time burst = 0;            // mean burst, seconds, > 0
  std::uint64_t seed = 0;
};

/// The phases of a session drawn from `pattern` (see the file comment):
/// their idle and busy times add up to its length.
std::vector<NotebookPhase> draw_activity(const NotebookPattern& pattern);

struct NotebookHold {
  std::vector<NotebookPhase> activity;
  Time after_previous = 0;  // seconds between the end of the previous hold and this one's submission
};

/// The holds of GPUs an idle timeout of `timeout` seconds (0: none) makes of
/// `activity`; one hold, the whole activity, when no gap is longer.
std::vector<NotebookHold> split_at_idle_timeout(const std::vector<NotebookPhase>& activity, Time timeout);

}  // namespace gcsim
