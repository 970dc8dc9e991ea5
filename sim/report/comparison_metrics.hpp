// comparison_metrics.hpp: the figures `gcsim compare` adds to each run's
// summary, as pure functions of what the run wrote.
//
// Slowdown of a finished job = JCT / uncontended run time (the time it would
// run alone on an empty cluster, jobs.csv's `uncontended`); jobs whose
// uncontended time is unknown or zero have no slowdown and are left out.
//
// Finish-time fairness is rho of Themis (Mahajan et al., NSDI'20): the time a
// job took on the shared cluster over the time it would take on its own
// share. gcsim approximates the isolated time by the uncontended run time, so
// rho here is the slowdown; its maximum and mean over finished jobs are
// reported (rho = 1: the job lost nothing to sharing).
//
// Jain's fairness index of values x_1..x_n is (sum x)^2 / (n * sum x^2): 1
// when all are equal, 1/n when one value holds everything; undefined for fewer
// than two values, where it would always be 1. compare applies it to each
// user's mean slowdown: n/a for a run with fewer than two users with one.
//
// Fragmentation share: the time-weighted share of the cluster's GPUs that are
// free while at least one job waits, over a window [from, to]:
//   integral of (total_gpus - allocated(t)) * [queued(t) > 0] dt / (total_gpus * (to - from)).
// It is 0 when nothing ever waits or nothing is ever free; a policy whose
// waiting jobs do not fit in the free GPUs (or that leaves them free on
// purpose) scores higher.
//
// Guarantee attainment of a capacity queue q guaranteed g_q GPUs (its
// absolute capacity x the cluster's GPUs), over the times it has demand:
//   integral of min(1, allocated_q(t) / min(demand_q(t), g_q)) dt over {t : demand_q(t) > 0}
//   / the length of that set,
// where demand_q(t) counts the GPUs of q's jobs submitted and not ended at t
// (waiting or running) and allocated_q(t) those of its running jobs. 1: the
// queue always held its guarantee, or all it asked for when it asked for
// less; a queue guaranteed nothing attains it whenever it has demand. Runs
// report only each job's first start and its end, so a job counts as running
// from its first start to its end, preemptions included: with preemptions
// the figure is an upper bound.
//
//   std::vector<FinishedJobTimes> jobs = {{"alice", 30, 10}, {"bob", 20, 20}};
//   SlowdownSummary s = summarize_slowdowns(jobs);            // mean 2, max 3
//   auto j = jain_index(user_values(mean_slowdown_by_user(jobs)));  // 16 / (2 * 10) = 0.8
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

/// One finished job's times; `uncontended` is kNever when unknown.
struct FinishedJobTimes {
  std::string user;
  Time jct = 0;
  Time uncontended = kNever;
};

/// jct / uncontended; nullopt when the uncontended time is unknown or not positive.
std::optional<double> slowdown(const FinishedJobTimes& job);

struct SlowdownSummary {
  std::size_t count = 0;     // jobs with a slowdown
  double mean = 0, max = 0;  // zero when count is 0
};

SlowdownSummary summarize_slowdowns(const std::vector<FinishedJobTimes>& jobs);

/// Mean slowdown of each user's jobs that have one; users without any are absent.
std::map<std::string, double> mean_slowdown_by_user(const std::vector<FinishedJobTimes>& jobs);

/// The values of a per-user map, in user-name order.
std::vector<double> user_values(const std::map<std::string, double>& by_user);

/// Jain's index; nullopt below two values (one user is "fair" to no one) or when they are all zero.
std::optional<double> jain_index(const std::vector<double>& values);

/// A leaf queue and the GPUs it is guaranteed (absolute capacity x cluster GPUs).
struct QueueGuarantee {
  std::string queue;
  double gpus = 0;
};

/// One job as a queue's demand: its queue (an index into the guarantees), its
/// GPUs, and its submission, first start and end (kNever: did not happen).
struct QueueJobSpan {
  std::size_t queue = 0;
  double gpus = 0;  // counting its share of each GPU
  Time submit = 0, start = kNever, end = kNever;
};

struct QueueAttainment {
  std::string queue;
  double guaranteed_gpus = 0;
  Time demand_time = 0;              // the length of {t : demand(t) > 0}
  std::optional<double> attainment;  // nullopt when the queue never had demand
};

/// Each queue's guarantee attainment (definition above), in the order of
/// `queues`. Jobs not ended by `until` (the end of the run) demand, and run
/// if they started, until then; nothing after `until` counts.
std::vector<QueueAttainment> guarantee_attainment(const std::vector<QueueGuarantee>& queues,
                                                  const std::vector<QueueJobSpan>& jobs, Time until);

/// The least attainment over the queues that had demand; nullopt when none had.
std::optional<double> minimum_attainment(const std::vector<QueueAttainment>& queues);

/// Share of GPU-time in [from, to] that is free while a job waits (definition
/// above). The timeline is a step function: each point holds until the next;
/// the last holds until `to`, and nothing is counted before the first point.
/// Zero when the window is empty or there are no GPUs.
double fragmentation_share(const std::vector<TimelinePoint>& timeline, std::size_t total_gpus, Time from, Time to);

}  // namespace gcsim
