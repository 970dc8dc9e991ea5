// The engine's events (sim/engine/engine_events.hpp) as a listener given to
// simulate() receives them, in order, for a run counted by hand: FIFO on one
// node of 4 GPUs; job "a" (2 GPUs, 100 s) submitted at 0, job "b" (4 GPUs,
// 50 s) at 10. "b" waits until "a" finishes at 100 and ends at 150. A
// measured run is one computation, a timer ending on each GPU at once.
//
// One SimGrid engine per process: this program holds a single test.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "policies/fifo/fifo_policy.hpp"
#include "policies/placement/pack_placement.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/engine/engine_events.hpp"
#include "sim/engine/simulation.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/flat_locality.hpp"

namespace gcsim {
namespace {

// Writes each event as a line: the time, the event and its figures.
class EventLog : public EngineListener {
 public:
  std::vector<std::string> lines;

  void on_submitted(const JobSubmitted& e) override { add(e.now, "submitted " + job(e.job)); }
  void on_started(const RunStarted& e) override {
    add(e.now, "started " + job(e.job) + " on " + std::to_string(e.gpus.size()) + " GPUs");
  }
  void on_preempted(const RunPreempted& e) override { add(e.now, "preempted " + job(e.job)); }
  void on_stopped(const RunStopped& e) override { add(e.now, "stopped " + job(e.job)); }
  void on_finished(const JobFinished& e) override {
    add(e.now, "finished " + job(e.job) + " held " + number(e.held_gpu_seconds) + " GPU-s");
  }
  void on_failed(const JobFailed& e) override { add(e.now, "failed " + job(e.job)); }
  void on_retired(const JobRetired& e) override { add(e.now, "retired " + job(e.job)); }
  void on_busy(const BusyInterval& e) override {
    add(e.start, "busy " + std::to_string(e.gpus) + " GPUs until " + number(e.end));
  }
  void on_busy_cut(const BusyCut& e) override { add(e.now, "busy cut"); }
  void on_events_handled(std::uint64_t count) override { lines.push_back("handled " + std::to_string(count)); }
  void on_allocation_changed(const AllocationChange& e) override {
    add(e.now, "allocated " + number(e.allocated_delta) + " queued " + std::to_string(e.queued_delta));
  }
  void on_node_down(const NodeDown& e) override { add(e.now, "node down"); }
  void on_node_up(const NodeUp& e) override { add(e.now, "node up"); }
  void on_plan_applied(const PlanApplied& e) override { add(e.now, "plan"); }
  void on_settled(const StateSettled& e) override { add(e.now, std::string("settled after ") + e.after); }
  void on_stopped_early(const EarlyStop&) override { lines.push_back("stopped early"); }

 private:
  static std::string number(double x) {
    std::ostringstream out;
    out << x;
    return out.str();
  }
  static std::string job(JobIndex j) { return j == 0 ? "a" : "b"; }
  void add(Time t, const std::string& what) { lines.push_back("t=" + number(t) + " " + what); }
};

JobSpec measured(const std::string& id, Time submit, std::uint32_t gpus, Time seconds) {
  JobSpec spec;
  spec.id = id;
  spec.submit = submit;
  spec.gpus = gpus;
  spec.work = MeasuredWork{seconds, "g"};
  return spec;
}

TEST(EngineEvents, AListenerHearsEachEventOnceInTheOrderItHappens) {
  ClusterSpec spec;
  spec.name = "one-node";
  spec.gpu_types = {GpuType{"g", 1e12, 16e9}};
  spec.node_groups = {testing::crafted_node_group("n", 1, 4, "g")};
  spec.fabric.nodes_per_rack = 1;
  const ClusterLayout layout(spec);
  const testing::FlatLocality locality;
  const std::vector<JobSpec> jobs = {measured("a", 0, 2, 100), measured("b", 10, 4, 50)};
  FifoPolicy fifo(std::make_unique<PackPlacement>());
  EventLog log;
  SimulationOptions options;
  options.listeners = {&log};

  const RunRecord record = simulate({layout, locality, jobs, fifo, options});

  const std::vector<std::string> expected = {
      // "a" arrives and starts at once, computing on its 2 GPUs until 100.
      "t=0 submitted a",
      "t=0 settled after the arrivals, timers and failures",
      "t=0 allocated 2 queued -1",
      "t=0 plan",
      "t=0 started a on 2 GPUs",
      "t=0 busy 2 GPUs until 100",
      "t=0 settled after the policy's plan",
      // "b" arrives: 2 GPUs free, it needs 4 and waits; the plan changes nothing.
      "t=10 submitted b",
      "t=10 settled after the arrivals, timers and failures",
      "t=10 allocated 0 queued 0",
      "t=10 plan",
      "t=10 settled after the policy's plan",
      // "a"'s computation ends on both GPUs (two events), it finishes, "b" starts.
      "handled 2",
      "t=100 settled after the arrivals, timers and failures",
      "t=100 finished a held 200 GPU-s",
      "t=100 settled after the jobs' ends",
      "t=100 allocated 4 queued -1",
      "t=100 plan",
      "t=100 started b on 4 GPUs",
      "t=100 busy 4 GPUs until 150",
      "t=100 settled after the policy's plan",
      "handled 4",
      "t=150 settled after the arrivals, timers and failures",
      "t=150 finished b held 200 GPU-s",
      "t=150 settled after the jobs' ends",
      "t=150 allocated 0 queued 0",
      "t=150 plan",
      "t=150 settled after the policy's plan",
  };
  EXPECT_EQ(log.lines, expected);
  // The recorder heard the same: 2 submissions and 6 GPU ends.
  EXPECT_EQ(record.events, 8u);
  EXPECT_DOUBLE_EQ(record.run_gpu_seconds, 400);
}

}  // namespace
}  // namespace gcsim
