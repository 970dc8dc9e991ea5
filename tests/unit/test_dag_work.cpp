// The checks and shape of a DAG job's work (sim/core/dag_work.hpp).
#include <gtest/gtest.h>

#include "sim/core/dag_work.hpp"

namespace gcsim {
namespace {

// Pool "w" of `workers` GPU workers; tasks named and chained by predecessor lists.
DagWork dag(std::vector<std::pair<std::string, std::vector<std::size_t>>> tasks, std::uint32_t workers = 1) {
  DagWork work;
  work.pools.push_back({"w", workers, false});
  for (auto& [id, after] : tasks) {
    DagTask task{id, 0, 1.0, 0.0, {}};
    for (std::size_t p : after) task.after.push_back({p, 0});
    work.tasks.push_back(task);
  }
  return work;
}

TEST(DagWork, ValidDiamondHasNoError) {
  EXPECT_FALSE(dag_error(dag({{"a", {}}, {"b", {0}}, {"c", {0}}, {"d", {1, 2}}})));
}

TEST(DagWork, CycleIsNamedInDependencyOrder) {
  // a waits for c, b for a, c for b: a -> b -> c -> a (each runs before the next).
  const auto problem = dag_error(dag({{"a", {2}}, {"b", {0}}, {"c", {1}}}));
  ASSERT_TRUE(problem);
  EXPECT_EQ(*problem, "cycle: a -> b -> c -> a");
}

TEST(DagWork, CycleBehindAnAcyclicPrefixIsFound) {
  // start feeds x; x and y wait for each other.
  const auto problem = dag_error(dag({{"start", {}}, {"x", {0, 2}}, {"y", {1}}}));
  ASSERT_TRUE(problem);
  EXPECT_EQ(*problem, "cycle: x -> y -> x");
}

TEST(DagWork, StructuralProblems) {
  EXPECT_EQ(*dag_error(dag({{"a", {0}}})), "task 'a' waits for itself");
  EXPECT_EQ(*dag_error(dag({{"a", {}}}, 0)), "pool 'w' has no worker");
  EXPECT_EQ(*dag_error(dag({{"a", {5}}})), "task 'a': unknown predecessor");
  EXPECT_EQ(*dag_error(DagWork{}), "no worker pool");
  DagWork negative = dag({{"a", {}}});
  negative.tasks[0].seconds = -1;
  EXPECT_EQ(*dag_error(negative), "task 'a': negative cost");
  DagWork cpu_flops = dag({{"a", {}}});
  cpu_flops.pools[0].cpu = true;
  cpu_flops.tasks[0].flops = 1e9;
  EXPECT_EQ(*dag_error(cpu_flops), "task 'a': FLOPs on CPU pool 'w' (CPU tasks are given in seconds)");
}

TEST(DagWork, SuccessorsAreInTaskOrder) {
  const auto next = dag_successors(dag({{"a", {}}, {"b", {0}}, {"c", {0}}, {"d", {2, 1}}}));
  EXPECT_EQ(next[0], (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(next[1], (std::vector<std::size_t>{3}));
  EXPECT_EQ(next[2], (std::vector<std::size_t>{3}));
  EXPECT_TRUE(next[3].empty());
}

TEST(DagWork, WorkersCountByKind) {
  DagWork work = dag({{"a", {}}}, 3);
  work.pools.push_back({"io", 2, true});
  work.pools.push_back({"render", 1, false});
  EXPECT_EQ(dag_gpu_workers(work), 4u);
  EXPECT_EQ(dag_cpu_workers(work), 2u);
}

}  // namespace
}  // namespace gcsim
