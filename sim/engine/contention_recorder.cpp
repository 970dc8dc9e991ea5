#include "sim/engine/contention_recorder.hpp"

#include <algorithm>

#include "sim/engine/running_job.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;

ContentionRecorder::ContentionRecorder(const ClusterLayout& layout, std::size_t job_count)
    : ledger_(job_count, layout.spec().network.bandwidth_factor, layout.spec().network.latency_factor),
      open_(job_count),
      run_started_(job_count, kNever) {}

void ContentionRecorder::on_started(const RunStarted& e) {
  if (e.nodes.empty()) run_started_[e.job] = e.now;
}

void ContentionRecorder::run_ended(JobIndex job, Time now) {
  if (open_[job]) close_step(job, now, /*complete=*/false);
  if (run_started_[job] != kNever) ledger_.add_run_seconds(job, now - run_started_[job]);
  run_started_[job] = kNever;
}

const ContentionRecorder::Route& ContentionRecorder::route(const sg4::Host* from, const sg4::Host* to) {
  const auto [at, added] = routes_.try_emplace({from, to});
  Route& route = at->second;
  if (!added) return route;
  std::vector<sg4::Link*> links;
  from->route_to(to, links, &route.latency);
  for (const sg4::Link* link : links) {
    const auto [id, fresh] = link_ids_.try_emplace(link, 0);
    if (fresh) id->second = ledger_.add_link(link->get_name(), link->get_bandwidth());
    route.links.push_back(id->second);
  }
  return route;
}

void ContentionRecorder::on_step_started(const StepStarted& e) {
  OpenStep step;
  step.start = sg4::Engine::get_clock();
  for (const sg4::ActivityPtr& activity : e.run.activities) {
    const auto* comm = dynamic_cast<const sg4::Comm*>(activity.get());
    if (!comm) continue;  // a computation
    step.flows.push_back({comm, &route(comm->get_source(), comm->get_destination()), comm->get_remaining()});
  }
  if (step.flows.empty()) return;
  open_starts_.insert(step.start);
  open_[e.job] = std::move(step);
}

void ContentionRecorder::on_step_ended(const StepEnded& e) {
  if (!open_[e.job]) return;
  close_step(e.job, e.now, /*complete=*/true);
  // No step still open, nor any to come, starts before the earliest open one's start or now.
  const Time now = sg4::Engine::get_clock();
  ledger_.advance(open_starts_.empty() ? now : std::min(now, *open_starts_.begin()));
}

void ContentionRecorder::close_step(JobIndex job, Time now, bool complete) {
  OpenStep& open = *open_[job];
  ContentionStep step{job, open.start, complete, {}};
  step.flows.reserve(open.flows.size());
  for (const OpenFlow& flow : open.flows) {
    const double finished = flow.comm->get_finish_time();
    const Time end = finished >= 0 ? finished : std::max(now, open.start);
    step.flows.push_back({flow.route->links, flow.route->latency, flow.bytes, end});
  }
  open_starts_.erase(open_starts_.find(open.start));
  open_[job].reset();
  ledger_.add_step(std::move(step));
}

ContentionReport ContentionRecorder::report() { return ledger_.finish(); }

}  // namespace gcsim
