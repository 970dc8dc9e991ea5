// contention_recorder.hpp: the engine's side of "who slowed whom" (`gcsim
// run --contention`): a listener that follows every communication step of
// every job, the links each of its flows crosses and when each ends, and
// hands them to the contention ledger (sim/report/contention_ledger.hpp),
// which splits each job's loss against its time alone over the links and
// the jobs it shared them with.
//
// It hears the steps a runner starts and sees end (StepStarted, StepEnded):
// a step's flows are its activities that are host-to-host transfers (its
// computations are left out). On a step's start it asks SimGrid the route of
// each flow once (Host::route_to, cached per pair of hosts), the links
// numbered as SimGrid names them (a link's direction apart: "n-2-nic_UP");
// on its end it reads each flow's end (Activity::get_finish_time(), set by
// SimGrid when the flow finishes, not when the runner sees it). A step the
// run's stop cuts (a preemption, a failure, the simulation's end) ends its
// flows then. Unsubscribed, none of this runs: a run without --contention
// does no work per flow and no route lookup.
//
// A hop that stands for several ring hops inside a node (RunnerPool's
// merged transfers) is counted once: the ports it stands for carry only the
// job's own flows. The transfers of DAG jobs' workers are not followed.
//
//   ContentionRecorder contention(layout, jobs.size());
//   options.listeners.push_back(&contention);
//   RunRecord record = simulate({layout, locality, jobs, policy, options});
//   ContentionReport report = contention.report();
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/cluster_layout.hpp"
#include "sim/engine/engine_events.hpp"
#include "sim/report/contention_ledger.hpp"

namespace gcsim {

class ContentionRecorder : public EngineListener {
 public:
  ContentionRecorder(const ClusterLayout& layout, std::size_t job_count);

  void on_started(const RunStarted& e) override;
  void on_preempted(const RunPreempted& e) override { run_ended(e.job, e.now); }
  void on_stopped(const RunStopped& e) override {
    if (e.on_gpus) run_ended(e.job, e.now);
  }
  void on_finished(const JobFinished& e) override {
    if (!e.on_cpu) run_ended(e.job, e.now);
  }
  void on_failed(const JobFailed& e) override {
    if (e.ran()) run_ended(e.job, e.now);
  }
  void on_step_started(const StepStarted& e) override;
  void on_step_ended(const StepEnded& e) override;

  /// After the run (simulate() returned): every step taken. Call once.
  ContentionReport report();

 private:
  struct Route {
    std::vector<std::uint32_t> links;
    double latency = 0;
  };
  // The runner's activities hold the comm until the step ends or is cut:
  // none is held here, which would outlive SimGrid's engine.
  struct OpenFlow {
    const simgrid::s4u::Comm* comm;
    const Route* route;
    double bytes;
  };
  struct OpenStep {
    Time start = 0;
    std::vector<OpenFlow> flows;
  };

  const Route& route(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to);
  // The job's open step goes to the ledger, its flows ending when SimGrid
  // says, or at `now` for those a cut stops.
  void close_step(JobIndex job, Time now, bool complete);
  void run_ended(JobIndex job, Time now);

  ContentionLedger ledger_;
  std::vector<std::optional<OpenStep>> open_;  // by job
  std::multiset<Time> open_starts_;
  std::vector<Time> run_started_;  // by job; kNever while it does not run on GPUs
  std::unordered_map<const simgrid::s4u::Link*, std::uint32_t> link_ids_;
  std::map<std::pair<const simgrid::s4u::Host*, const simgrid::s4u::Host*>, Route> routes_;
};

}  // namespace gcsim
