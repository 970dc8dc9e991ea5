// contention_ledger.hpp: who slowed whom. The communication steps of every
// job, their flows and the links they crossed, turned into each job's
// communication time against its time alone on the same placement, and the
// difference split over the links it shared and the jobs it shared them with.
//
// A communication step is a set of flows a job starts together; it lasts
// until the last of them ends. Its time alone is the closed form of the
// same flows on an empty cluster:
//   alone = max over its flows of (route latency x latency factor)
//         + max over the links they cross of (bytes crossing it) / (bandwidth x bandwidth factor)
// (what placement_costs() counts: for a ring, its slowest edge's share of
// the link its edges cross most; for parameter servers and hierarchical
// steps, the busiest link). Its loss is actual - alone, snapped to 0 within
// a millionth of the step's time (the solver's rounding).
//
// The loss is split over (link l, other job K) in proportion to
//   w(l, K) = integral over the step, while l holds the job back, of n_K(l) / N(l) dt
// where n_K(l) is K's flows on l and N(l) all flows on l, and l holds the job
// back while the job's share of it, n_J(l) x B / N(l), is below the rate the
// job's flows on l carry alone (their bytes over the step's alone transfer
// time): a link the job shares but does not need more of takes no part.
// So the parts add up to the loss by construction. A loss no link explains
// (no other job on a link that held the job back, or a step faster than its
// closed form) goes to a row whose other job and link are "-", so that a
// job's rows still add up to its loss. A step cut by a preemption or the
// run's end loses nothing (it has no end to compare); its flows still count
// on the links for the others.
//
// What the rule leaves out: it counts flows, not the rates SimGrid's solver
// gives them (flows of longer routes get less of a link under CM02 and LV08,
// and a TCP window caps a flow's rate); it knows nothing of congestion
// control, packets, queues or retransmissions, which the flow model does not
// simulate either.
//
// Each link's use over time comes in fixed bins: the bytes of each flow
// spread evenly over its life, over the link's bandwidth x bandwidth factor
// times the bin's width. The bins are as wide as a power of two of seconds,
// at most kBins over the run: the width doubles, pairs of bins merged, as
// the run goes on.
//
// Events are taken in time order once no step still open can start before
// them (advance()), so the ledger holds only the steps still running and
// the links' counts: its memory does not grow with the run.
//
//   ContentionLedger ledger(jobs.size(), network.bandwidth_factor, network.latency_factor);
//   const std::uint32_t nic = ledger.add_link("n-0-nic_UP", 10e9);
//   ledger.add_step({/*job=*/0, /*start=*/0, /*complete=*/true, {{{nic}, 5e-6, 1e9, /*end=*/0.100005}}});
//   ledger.advance(now);
//   ContentionReport report = ledger.finish();
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "sim/core/ids.hpp"

namespace gcsim {

/// One direction of a link of the platform.
struct ContentionLink {
  std::string name;
  double bandwidth = 0;  // bytes/s, before the bandwidth factor
};

/// A flow of a step: the links it crossed (ledger numbering, route order),
/// its route's latency (before the latency factor), its bytes, its end.
struct ContentionFlow {
  std::vector<std::uint32_t> links;
  double latency = 0;
  double bytes = 0;
  Time end = 0;
};

/// A communication step of a job: its flows, all started at `start`.
struct ContentionStep {
  JobIndex job = 0;
  Time start = 0;
  bool complete = true;  // false: cut before its end (a preemption, the run's end)
  std::vector<ContentionFlow> flows;
};

/// What `job` and `other` shared on `link`: the seconds both had flows on it
/// during the job's steps, and the part of the job's loss put on the pair.
/// `other` kNoJob and `link` kNoLink: the loss no link explains.
struct ContentionShare {
  static constexpr std::uint32_t kNoLink = UINT32_MAX;
  JobIndex job = 0;
  JobIndex other = kNoJob;
  std::uint32_t link = kNoLink;
  double shared_seconds = 0;
  double lost_seconds = 0;
};

/// A job's communication over the run.
struct JobContention {
  Time communication_seconds = 0;  // its complete steps, first flow's start to last flow's end
  Time alone_seconds = 0;          // the same steps alone
  Time lost_seconds = 0;           // the sum of its steps' losses (= the sum of its rows)
  Time run_seconds = 0;            // it ran (add_run_seconds())
  std::size_t steps = 0;           // complete communication steps
};

/// A link's use in bins of ContentionReport::bin_width from time 0.
struct LinkUse {
  std::uint32_t link = 0;
  double busy_seconds = 0;   // its bytes over its bandwidth x factor
  double lost_seconds = 0;   // the losses put on it
  std::vector<double> used;  // per bin: the share of its bandwidth x factor in use
};

struct ContentionReport {
  std::vector<ContentionLink> links;
  std::vector<ContentionShare> shares;  // by job, other job, link (the unexplained row last)
  std::vector<JobContention> jobs;      // by JobIndex
  std::vector<LinkUse> busiest;         // the links of most busy seconds, most first, with their bins
  std::vector<LinkUse> most_lost;       // the links of most seconds lost on them, most first (no bins)
  Time bin_width = 0;
  std::size_t bins = 0;  // bins up to the last flow's end
};

class ContentionLedger {
 public:
  /// Bins over the run, at most.
  static constexpr std::size_t kBins = 256;

  ContentionLedger(std::size_t job_count, double bandwidth_factor, double latency_factor);

  /// Numbers a link (each direction apart); ids count from 0.
  std::uint32_t add_link(std::string name, double bandwidth);
  /// A step whose flows all ended (or were cut): none of them starts before
  /// the last advance()'s time.
  void add_step(ContentionStep step);
  /// Every step that will still be added starts at `until` or later: the
  /// events before it are taken.
  void advance(Time until);
  /// The job ran `seconds` more (a run of it ended).
  void add_run_seconds(JobIndex job, Time seconds) { jobs_[job].run_seconds += seconds; }
  /// Takes every event left and reports, with the `busiest` links of most
  /// busy seconds and the `most_lost` of most seconds lost. Call once.
  ContentionReport finish(std::size_t busiest = 8, std::size_t most_lost = 5);

 private:
  // A step being taken: its flows' events in the queue.
  struct OpenStep {
    ContentionStep step;
    std::size_t flows_left = 0;
    Time alone = 0;
    // Per link the step crosses: the rate its flows there need to keep the
    // pace they have alone (bytes/s).
    std::vector<std::pair<std::uint32_t, double>> need;
    // By (link, other job): seconds shared, and the weight w(l, K).
    std::map<std::pair<std::uint32_t, JobIndex>, double> shared, weight;
  };
  // A step's flows on a link.
  struct Presence {
    std::uint64_t step;
    JobIndex job;
    std::uint32_t flows;
    double need;
    double rate;  // the flows' bytes over their lives, summed
  };
  struct LinkState {
    Time last = 0;
    std::vector<Presence> present;
    std::vector<double> bytes;  // per bin
    double total_bytes = 0;
    double lost = 0;
  };
  struct Event {
    Time time;
    bool starts;  // ends come first at one time
    std::uint64_t step;
    std::uint32_t flow;
    bool operator>(const Event& o) const {
      return std::tie(time, starts, step, flow) > std::tie(o.time, o.starts, o.step, o.flow);
    }
  };

  void take(const Event& event);
  // Counts link `l`'s time from its last event to `t` with the flows on it.
  void integrate(std::uint32_t l, Time t);
  void close(std::uint64_t id);
  // Bins wide enough that `t` falls in one.
  void cover(Time t);
  void spread(LinkState& link, Time from, Time to, double rate);

  double bandwidth_factor_, latency_factor_;
  std::vector<ContentionLink> links_;
  std::vector<LinkState> state_;
  std::vector<JobContention> jobs_;
  std::unordered_map<std::uint64_t, OpenStep> open_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::map<std::tuple<JobIndex, JobIndex, std::uint32_t>, std::pair<double, double>> totals_;
  std::uint64_t next_step_ = 0;
  Time bin_width_ = 1.0 / (1 << 20);
  Time last_end_ = 0;
};

}  // namespace gcsim
