// reservations.hpp: GPUs booked ahead for one user's jobs in one leaf queue.
//
// A reservation {id, queue, user, gpus: G, start, end} keeps G GPUs for the
// jobs of `user` in leaf `queue` during [start, end) (in the spirit of YARN's
// ReservationSystem, which gives a reservation its own capacity for a time
// window, here reduced to a GPU count). During the window:
//  - a waiting job of that user in that queue whose GPUs fit in the part of
//    the reservation its running jobs do not use starts against the
//    reservation, before any other job is served and without the queue's
//    maximum-capacity and user-limit checks;
//  - every other job may start only if the GPUs left free afterwards still
//    cover the unused parts of all active reservations: those GPUs are kept
//    free, whichever GPUs they are. GPUs busy when a window opens are kept as
//    they free up; nothing is preempted for a reservation, and jobs running
//    against a reservation are never preempted while it lasts (they keep
//    running after it ends).
// A reservation is admitted only if, at every instant, the reservations
// overlapping it in its queue and in each queue above it book no more GPUs
// than that queue's maximum-capacity (rounded down to whole GPUs), and all
// reservations together no more than the cluster; the cluster's size is known
// only when the policy first runs, so admit() is called then.
//
//   ReservationBook book = ReservationBook::admit(config, tree, layout.gpu_count());
//   book.unused_gpus(0, jobs, now);       // G minus what its running jobs hold, while active
//   book.next_edge_after(now);            // when to wake up
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "policies/capacity/capacity_config.hpp"
#include "policies/capacity/queue_tree.hpp"
#include "sim/core/queue_view.hpp"

namespace gcsim {

struct Reservation {
  std::string id;
  int leaf = -1;
  std::string user;
  std::uint32_t gpus = 0;
  Time start = 0, end = 0;

  bool active(Time now) const { return start <= now && now < end; }
};

class ReservationBook {
 public:
  ReservationBook() = default;
  /// Admits every reservation of `config` in order; InputError naming the
  /// configuration, the reservation and its `gpus` for the first that does
  /// not fit.
  static ReservationBook admit(const CapacityConfig& config, const QueueTree& tree, std::size_t cluster_gpus);

  const std::vector<Reservation>& reservations() const { return reservations_; }
  /// The earliest window start or end after `now`.
  std::optional<Time> next_edge_after(Time now) const;

  /// `job` started against reservation `r`.
  void charge(JobIndex job, std::size_t r) { charged_[job] = r; }
  /// Jobs that no longer run stop counting against their reservation.
  void forget_stopped(const QueueView& jobs);
  std::optional<std::size_t> charged_to(JobIndex job) const;
  /// G minus the GPUs of the running jobs charged to `r`, while `r` is active; 0 otherwise.
  std::uint32_t unused_gpus(std::size_t r, const QueueView& jobs, Time now) const;

 private:
  std::vector<Reservation> reservations_;
  std::map<JobIndex, std::size_t> charged_;
};

}  // namespace gcsim
