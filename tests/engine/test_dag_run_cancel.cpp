// A preempted DAG job's actors are killed wherever they wait, one of them in
// a condition variable's wait on the DAG's mutex. A killed actor that
// released that mutex on its way out made a simcall while dying: with
// SimGrid's actors on threads (a sanitized build's contexts) it waited
// forever, and the run with it. This program runs its actors on threads in
// every build, so a Release build checks it too.
//
// One SimGrid engine per process: this program holds a single test.
#include <gtest/gtest.h>

#include <simgrid/s4u.hpp>

#include <string>
#include <utility>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "sim/engine/actor_failure.hpp"
#include "sim/engine/dag_run.hpp"

namespace gcsim {
namespace {

namespace sg4 = simgrid::s4u;

TEST(DagRunCancel, KilledWorkersWaitingForWorkLetTheRunEndWithActorsOnThreads) {
  std::string program = "dag_run_cancel", log = "--log=root.thres:critical", contexts = "--cfg=contexts/factory:thread";
  char* argv[] = {program.data(), log.data(), contexts.data(), nullptr};
  int argc = 3;
  sg4::Engine engine(&argc, argv);
  auto* zone = sg4::create_full_zone("zone");
  sg4::Host* first = zone->create_host("first", 1e9);
  sg4::Host* second = zone->create_host("second", 1e9);
  zone->seal();

  // Two workers, one task ready: the second worker waits on the pool's
  // condition variable until "source" ends at t = 10, which it never does.
  DagWork work;
  work.pools = {DagPool{"gpu", 2, false}};
  work.tasks = {DagTask{"source", 0, 10, 0, {}}, DagTask{"left", 0, 5, 0, {DagInput{0, 0}}},
                DagTask{"right", 0, 5, 0, {DagInput{0, 0}}}};
  std::vector<std::pair<double, double>> busy;
  bool done = false;
  ActorFailure failure;
  sg4::Actor::create("scheduler", first, [&] {
    DagRun dag(
        work, {first, second}, first, "dag", [&](double start, double end) { busy.emplace_back(start, end); },
        [&] { done = true; }, failure);
    sg4::this_actor::sleep_for(4);
    dag.cancel();
    sg4::this_actor::sleep_for(1);
  });
  engine.run();

  EXPECT_FALSE(failure.first);
  EXPECT_FALSE(done);
  EXPECT_DOUBLE_EQ(sg4::Engine::get_clock(), 5);
  // The first worker's cut-short task, told at the preemption.
  ASSERT_EQ(busy.size(), 1u);
  EXPECT_DOUBLE_EQ(busy[0].first, 0);
  EXPECT_DOUBLE_EQ(busy[0].second, 4);
}

}  // namespace
}  // namespace gcsim
