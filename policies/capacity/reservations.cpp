#include "policies/capacity/reservations.hpp"

#include <cmath>
#include <sstream>

#include "sim/core/input_error.hpp"

namespace gcsim {
namespace {

std::string format_number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

bool overlap(const Reservation& a, const Reservation& b) { return a.start < b.end && b.start < a.end; }

bool in_subtree(const QueueTree& tree, int leaf, int queue) {
  for (int q = leaf; q >= 0; q = tree.queue(q).parent)
    if (q == queue) return true;
  return false;
}

}  // namespace

ReservationBook ReservationBook::admit(const CapacityConfig& config, const QueueTree& tree, std::size_t cluster_gpus) {
  ReservationBook book;
  for (std::size_t i = 0; i < config.reservations.size(); ++i) {
    const ReservationConfig& c = config.reservations[i];
    Reservation r{c.id, tree.find_leaf(c.queue).index, c.user, c.gpus, c.start, c.end};
    const std::string where = "reservations[" + std::to_string(i) + "] (id '" + c.id + "')";
    if (r.leaf < 0) throw InputError(config.label(), where, "queue", tree.find_leaf(c.queue).problem);

    for (int queue : tree.path_to_root(r.leaf)) {
      const double limit =
          std::floor(tree.queue(queue).absolute_maximum_capacity * static_cast<double>(cluster_gpus) + 1e-9);
      // The booked total over r's window peaks at r's start or at the start of
      // an admitted reservation inside the window.
      std::vector<Time> instants{r.start};
      for (const Reservation& other : book.reservations_)
        if (overlap(other, r) && other.start > r.start) instants.push_back(other.start);
      for (Time t : instants) {
        double booked = r.gpus;
        std::string others;
        for (const Reservation& other : book.reservations_) {
          if (!other.active(t) || !in_subtree(tree, other.leaf, queue)) continue;
          booked += other.gpus;
          others += (others.empty() ? "" : ", ") + other.id;
        }
        if (booked <= limit) continue;
        const QueueNode& q = tree.queue(queue);
        throw InputError(config.label(), where, "gpus",
                         "booking " + std::to_string(r.gpus) + " GPUs in " + tree.queue(r.leaf).path() + " during [" +
                             format_number(r.start) + ", " + format_number(r.end) + ") s would book " +
                             format_number(booked) + " GPUs at t=" + format_number(t) + " s" +
                             (others.empty() ? "" : " (with " + others + ")") + " under " + q.path() +
                             ", more than its maximum-capacity of " + format_number(limit) + " GPUs (" +
                             format_number(q.absolute_maximum_capacity * 100) + "% of the cluster's " +
                             std::to_string(cluster_gpus) + ")");
      }
    }
    book.reservations_.push_back(r);
  }
  return book;
}

std::optional<Time> ReservationBook::next_edge_after(Time now) const {
  std::optional<Time> next;
  for (const Reservation& r : reservations_)
    for (Time edge : {r.start, r.end})
      if (edge > now && (!next || edge < *next)) next = edge;
  return next;
}

void ReservationBook::forget_stopped(const QueueView& jobs) {
  for (auto it = charged_.begin(); it != charged_.end();)
    it = jobs.runtime(it->first).state != JobState::kRunning ? charged_.erase(it) : std::next(it);
}

std::optional<std::size_t> ReservationBook::charged_to(JobIndex job) const {
  auto it = charged_.find(job);
  if (it == charged_.end()) return std::nullopt;
  return it->second;
}

std::uint32_t ReservationBook::unused_gpus(std::size_t r, const QueueView& jobs, Time now) const {
  const Reservation& res = reservations_[r];
  if (!res.active(now)) return 0;
  std::uint32_t used = 0;
  for (const auto& [job, charged] : charged_)
    if (charged == r) used += jobs.spec(job).gpus;
  return used >= res.gpus ? 0 : res.gpus - used;
}

}  // namespace gcsim
