#include "sim/report/contention_ledger.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

namespace gcsim {
namespace {

// A loss within this share of the step's time is the solver's rounding.
constexpr double kRounding = 1e-6;
// A share of a link below what a step needs by less than this is not below it.
constexpr double kShareSlack = 1e-9;

}  // namespace

ContentionLedger::ContentionLedger(std::size_t job_count, double bandwidth_factor, double latency_factor)
    : bandwidth_factor_(bandwidth_factor), latency_factor_(latency_factor), jobs_(job_count) {}

std::uint32_t ContentionLedger::add_link(std::string name, double bandwidth) {
  links_.push_back({std::move(name), bandwidth});
  state_.emplace_back();
  return static_cast<std::uint32_t>(links_.size() - 1);
}

void ContentionLedger::add_step(ContentionStep step) {
  if (step.flows.empty()) return;
  const std::uint64_t id = next_step_++;
  OpenStep& open = open_[id];
  // The closed form alone: the slowest latency, then the busiest link's bytes.
  std::map<std::uint32_t, double> bytes_on;
  double latency = 0;
  for (const ContentionFlow& flow : step.flows) {
    latency = std::max(latency, flow.latency * latency_factor_);
    for (std::uint32_t l : flow.links) bytes_on[l] += flow.bytes;
  }
  double transfer = 0;
  for (const auto& [l, bytes] : bytes_on)
    transfer = std::max(transfer, bytes / (links_[l].bandwidth * bandwidth_factor_));
  open.alone = latency + transfer;
  for (const auto& [l, bytes] : bytes_on) open.need.emplace_back(l, transfer > 0 ? bytes / transfer : 0.0);
  for (std::uint32_t f = 0; f < step.flows.size(); ++f) {
    const ContentionFlow& flow = step.flows[f];
    assert(flow.end >= step.start && "a flow ends after its step starts");
    events_.push({step.start, true, id, f});
    events_.push({flow.end, false, id, f});
  }
  open.flows_left = step.flows.size();
  open.step = std::move(step);
}

void ContentionLedger::advance(Time until) {
  while (!events_.empty() && events_.top().time <= until) {
    const Event event = events_.top();
    events_.pop();
    take(event);
  }
}

void ContentionLedger::take(const Event& event) {
  OpenStep& open = open_.at(event.step);
  const ContentionFlow& flow = open.step.flows[event.flow];
  const Time life = flow.end - open.step.start;
  const double rate = life > 0 ? flow.bytes / life : 0.0;
  cover(event.time);
  for (std::uint32_t l : flow.links) {
    integrate(l, event.time);
    std::vector<Presence>& present = state_[l].present;
    auto at = std::find_if(present.begin(), present.end(), [&](const Presence& p) { return p.step == event.step; });
    if (event.starts) {
      if (at == present.end()) {
        const auto need = std::lower_bound(open.need.begin(), open.need.end(), std::make_pair(l, 0.0),
                                           [](const auto& a, const auto& b) { return a.first < b.first; });
        present.push_back({event.step, open.step.job, 0, need->second, 0});
        at = present.end() - 1;
      }
      ++at->flows;
      at->rate += rate;
    } else {
      assert(at != present.end() && "a flow ends on a link it started on");
      if (--at->flows == 0) {
        present.erase(at);
      } else {
        at->rate -= rate;
      }
    }
  }
  if (!event.starts && --open.flows_left == 0) close(event.step);
}

void ContentionLedger::integrate(std::uint32_t l, Time t) {
  LinkState& link = state_[l];
  const Time dt = t - link.last;
  if (dt > 0 && !link.present.empty()) {
    const double capacity = links_[l].bandwidth * bandwidth_factor_;
    std::uint32_t all = 0;
    double rate = 0;
    for (const Presence& p : link.present) {
      all += p.flows;
      rate += p.rate;
    }
    for (const Presence& p : link.present) {
      OpenStep& open = open_.at(p.step);
      // The job's share of the link against what its flows there carry alone.
      const bool holds_back = p.flows * capacity / all < p.need * (1 - kShareSlack);
      for (const Presence& other : link.present) {
        if (other.job == p.job) continue;
        open.shared[{l, other.job}] += dt;
        if (holds_back) open.weight[{l, other.job}] += dt * other.flows / all;
      }
    }
    spread(link, link.last, t, rate);
  }
  link.last = std::max(link.last, t);
}

void ContentionLedger::close(std::uint64_t id) {
  OpenStep& open = open_.at(id);
  const ContentionStep& step = open.step;
  JobContention& job = jobs_[step.job];
  Time end = step.start;
  for (const ContentionFlow& flow : step.flows) end = std::max(end, flow.end);
  last_end_ = std::max(last_end_, end);
  for (const auto& [key, seconds] : open.shared) totals_[{step.job, key.second, key.first}].first += seconds;
  if (step.complete) {
    const Time actual = end - step.start;
    Time lost = actual - open.alone;
    if (std::abs(lost) <= kRounding * std::max(actual, open.alone)) lost = 0;
    ++job.steps;
    job.communication_seconds += actual;
    job.alone_seconds += open.alone;
    job.lost_seconds += lost;
    double weights = 0;
    for (const auto& [key, w] : open.weight) weights += w;
    if (lost > 0 && weights > 0) {
      for (const auto& [key, w] : open.weight) {
        const double part = lost * w / weights;
        totals_[{step.job, key.second, key.first}].second += part;
        state_[key.first].lost += part;
      }
    } else if (lost != 0) {
      totals_[{step.job, kNoJob, ContentionShare::kNoLink}].second += lost;
    }
  }
  open_.erase(id);
}

void ContentionLedger::cover(Time t) {
  while (t >= bin_width_ * kBins) {
    bin_width_ *= 2;
    for (LinkState& link : state_) {
      if (link.bytes.empty()) continue;
      for (std::size_t i = 0; i < kBins / 2; ++i) link.bytes[i] = link.bytes[2 * i] + link.bytes[2 * i + 1];
      std::fill(link.bytes.begin() + kBins / 2, link.bytes.end(), 0.0);
    }
  }
}

void ContentionLedger::spread(LinkState& link, Time from, Time to, double rate) {
  if (!(rate > 0)) return;
  if (link.bytes.empty()) link.bytes.assign(kBins, 0.0);
  link.total_bytes += rate * (to - from);
  auto bin = static_cast<std::size_t>(from / bin_width_);
  for (; bin < kBins; ++bin) {
    const Time lo = std::max(from, bin * bin_width_), hi = std::min(to, (bin + 1) * bin_width_);
    if (hi > lo) link.bytes[bin] += rate * (hi - lo);
    if ((bin + 1) * bin_width_ >= to) break;
  }
}

ContentionReport ContentionLedger::finish(std::size_t busiest, std::size_t most_lost) {
  advance(kNever);
  assert(open_.empty() && "every step added was taken");
  ContentionReport report;
  cover(last_end_);
  report.bin_width = bin_width_;
  report.bins = std::min<std::size_t>(kBins, static_cast<std::size_t>(std::floor(last_end_ / bin_width_)) + 1);
  for (const auto& [key, figures] : totals_) {
    const auto& [job, other, link] = key;
    if (figures.first == 0 && figures.second == 0) continue;
    report.shares.push_back({job, other, link, figures.first, figures.second});
  }
  // The row no link explains sorts with its job, last among them (kNoJob is the largest index).
  std::vector<LinkUse> uses;
  for (std::uint32_t l = 0; l < state_.size(); ++l) {
    const LinkState& link = state_[l];
    if (link.total_bytes == 0 && link.lost == 0) continue;
    uses.push_back({l, link.total_bytes / (links_[l].bandwidth * bandwidth_factor_), link.lost, {}});
  }
  std::vector<LinkUse> by_lost;
  for (const LinkUse& use : uses)
    if (use.lost_seconds > 0) by_lost.push_back(use);
  std::stable_sort(by_lost.begin(), by_lost.end(),
                   [](const LinkUse& a, const LinkUse& b) { return a.lost_seconds > b.lost_seconds; });
  if (by_lost.size() > most_lost) by_lost.resize(most_lost);
  report.most_lost = std::move(by_lost);
  std::stable_sort(uses.begin(), uses.end(),
                   [](const LinkUse& a, const LinkUse& b) { return a.busy_seconds > b.busy_seconds; });
  if (uses.size() > busiest) uses.resize(busiest);
  for (LinkUse& use : uses) {
    const LinkState& link = state_[use.link];
    const double per_bin = links_[use.link].bandwidth * bandwidth_factor_ * bin_width_;
    use.used.assign(report.bins, 0.0);
    if (!link.bytes.empty())
      for (std::size_t i = 0; i < report.bins; ++i) use.used[i] = link.bytes[i] / per_bin;
  }
  report.busiest = std::move(uses);
  report.links = links_;
  report.jobs = jobs_;
  return report;
}

}  // namespace gcsim
