// Capacity scheduler configuration: YARN property names in, a validated
// queue tree out; every mistake named by file, queue path and property.
#include <gtest/gtest.h>

#include "policies/capacity/capacity_config_reader.hpp"
#include "policies/capacity/capacity_policy.hpp"
#include "policies/capacity/queue_tree.hpp"
#include "policies/placement/pack_placement.hpp"
#include "sim/core/input_error.hpp"
#include "tests/support/capacity_bench.hpp"

namespace gcsim {
namespace {

using testing::CapacityBench;
using testing::crafted_cluster;
using testing::queued_job;

constexpr const char* kTwoLevels = R"({
  "yarn.scheduler.capacity.root.queues": "prod, research",
  "yarn.scheduler.capacity.root.prod.capacity": 60,
  "yarn.scheduler.capacity.root.prod.maximum-capacity": "100",
  "yarn.scheduler.capacity.root.prod.minimum-user-limit-percent": 25,
  "yarn.scheduler.capacity.root.prod.user-limit-factor": 2,
  "yarn.scheduler.capacity.root.prod.ordering-policy": "fifo",
  "yarn.scheduler.capacity.root.research.capacity": "40",
  "yarn.scheduler.capacity.root.research.maximum-capacity": 50,
  "yarn.scheduler.capacity.root.research.queues": "a,b",
  "yarn.scheduler.capacity.root.research.disable_preemption": true,
  "yarn.scheduler.capacity.root.research.a.capacity": 25,
  "yarn.scheduler.capacity.root.research.b.capacity": 75,
  "yarn.scheduler.capacity.root.research.b.disable_preemption": "false",
  "yarn.scheduler.capacity.resource-calculator": "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator",
  "yarn.resourcemanager.scheduler.monitor.enable": true,
  "yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval": 1000,
  "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill": 5000,
  "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round": 0.25,
  "yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity": 0.05,
  "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor": 1,
  "reservations": [{"id": "r1", "queue": "a", "user": "alice", "gpus": 2, "start": "1h", "end": "2h"}]
})";

TEST(CapacityConfig, ReadsTheQueueTreeWithAbsoluteShares) {
  const CapacityConfig config = parse_capacity_config(kTwoLevels, "test.json");
  const QueueTree tree(config);
  ASSERT_EQ(tree.size(), 5u);
  const std::vector<std::string> paths{"root", "root.prod", "root.research", "root.research.a", "root.research.b"};
  for (std::size_t i = 0; i < paths.size(); ++i) EXPECT_EQ(tree.queue(static_cast<int>(i)).path(), paths[i]);
  EXPECT_EQ(tree.leaves(), (std::vector<int>{1, 3, 4}));
  // Absolute capacity multiplies down the tree: research.a = 40% x 25% = 10%.
  EXPECT_DOUBLE_EQ(tree.queue(1).absolute_capacity, 0.6);
  EXPECT_DOUBLE_EQ(tree.queue(2).absolute_capacity, 0.4);
  EXPECT_DOUBLE_EQ(tree.queue(3).absolute_capacity, 0.1);
  EXPECT_DOUBLE_EQ(tree.queue(4).absolute_capacity, 0.3);
  // ... and so does the maximum: research.a may grow to 100% of research's 50%.
  EXPECT_DOUBLE_EQ(tree.queue(2).absolute_maximum_capacity, 0.5);
  EXPECT_DOUBLE_EQ(tree.queue(3).absolute_maximum_capacity, 0.5);
  EXPECT_DOUBLE_EQ(tree.queue(1).config.minimum_user_limit_percent, 25);
  EXPECT_DOUBLE_EQ(tree.queue(1).config.user_limit_factor, 2);
  EXPECT_DOUBLE_EQ(tree.queue(3).config.minimum_user_limit_percent, 100);  // YARN's defaults
  EXPECT_DOUBLE_EQ(tree.queue(3).config.user_limit_factor, 1);
  // disable_preemption is inherited unless a queue sets it.
  EXPECT_TRUE(tree.queue(3).config.disable_preemption);
  EXPECT_FALSE(tree.queue(4).config.disable_preemption);
  EXPECT_FALSE(tree.queue(1).config.disable_preemption);
}

TEST(CapacityConfig, ReadsPreemptionSettingsAndReservations) {
  const CapacityConfig config = parse_capacity_config(kTwoLevels, "test.json");
  EXPECT_EQ(config.source, "test.json");
  EXPECT_TRUE(config.preemption.enabled);
  EXPECT_DOUBLE_EQ(config.preemption.monitoring_interval_ms, 1000);
  EXPECT_DOUBLE_EQ(config.preemption.max_wait_before_kill_ms, 5000);
  EXPECT_DOUBLE_EQ(config.preemption.total_preemption_per_round, 0.25);
  EXPECT_DOUBLE_EQ(config.preemption.max_ignored_over_capacity, 0.05);
  EXPECT_DOUBLE_EQ(config.preemption.natural_termination_factor, 1);
  ASSERT_EQ(config.reservations.size(), 1u);
  const ReservationConfig& r = config.reservations[0];
  EXPECT_EQ(r.id, "r1");
  EXPECT_EQ(r.queue, "root.research.a");  // a short name resolved to the leaf's path
  EXPECT_EQ(r.user, "alice");
  EXPECT_EQ(r.gpus, 2u);
  EXPECT_DOUBLE_EQ(r.start, 3600);
  EXPECT_DOUBLE_EQ(r.end, 7200);
}

TEST(CapacityConfig, MonitorDefaultsAreYarns) {
  const CapacityConfig config = parse_capacity_config(
      R"({"yarn.scheduler.capacity.root.queues": "default", "yarn.scheduler.capacity.root.default.capacity": 100})",
      "test.json");
  EXPECT_FALSE(config.preemption.enabled);
  EXPECT_DOUBLE_EQ(config.preemption.monitoring_interval_ms, 3000);
  EXPECT_DOUBLE_EQ(config.preemption.max_wait_before_kill_ms, 15000);
  EXPECT_DOUBLE_EQ(config.preemption.total_preemption_per_round, 0.1);
  EXPECT_DOUBLE_EQ(config.preemption.max_ignored_over_capacity, 0.1);
  EXPECT_DOUBLE_EQ(config.preemption.natural_termination_factor, 0.2);
  EXPECT_DOUBLE_EQ(config.queues[1].maximum_capacity, 100);
}

TEST(CapacityConfig, WithoutAFileOneDefaultQueueHasTheWholeCluster) {
  auto policy = CapacityPolicy::create({}, std::make_unique<PackPlacement>());
  const auto& tree = static_cast<CapacityPolicy&>(*policy).queues();
  ASSERT_EQ(tree.leaves().size(), 1u);
  EXPECT_EQ(tree.queue(tree.leaves()[0]).path(), "root.default");
  EXPECT_DOUBLE_EQ(tree.queue(tree.leaves()[0]).absolute_capacity, 1.0);
  EXPECT_FALSE(static_cast<CapacityPolicy&>(*policy).config().preemption.enabled);
}

struct BadConfig {
  const char* name;
  std::string json;
  std::string where;    // InputError::where()
  std::string field;    // InputError::field()
  std::string problem;  // a part of InputError::problem()
};

std::string two_queues(const std::string& extra, const char* a = "60", const char* b = "40") {
  return std::string(R"({"yarn.scheduler.capacity.root.queues": "a,b", "yarn.scheduler.capacity.root.a.capacity": )") +
         a + R"(, "yarn.scheduler.capacity.root.b.capacity": )" + b + (extra.empty() ? "" : ", " + extra) + "}";
}

const std::string kQ = "yarn.scheduler.capacity.root.";
const std::string kMonitor = "yarn.resourcemanager.monitor.capacity.preemption.";

class CapacityConfigErrors : public ::testing::TestWithParam<BadConfig> {};

TEST_P(CapacityConfigErrors, NameFileQueueAndProperty) {
  const BadConfig& c = GetParam();
  try {
    parse_capacity_config(c.json, "test.json");
    FAIL() << "accepted: " << c.json;
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "test.json");
    EXPECT_EQ(e.where(), c.where) << e.what();
    EXPECT_EQ(e.field(), c.field) << e.what();
    EXPECT_NE(e.problem().find(c.problem), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, CapacityConfigErrors,
    ::testing::Values(
        BadConfig{"SiblingsNotSumming", two_queues("", "60", "30"), "queue root", kQ + "queues",
                  "sum to 90 (a 60 + b 30), expected 100"},
        BadConfig{"MaximumBelowCapacity", two_queues("\"" + kQ + "a.maximum-capacity\": 50"), "queue root.a",
                  kQ + "a.maximum-capacity", "maximum-capacity 50 is below capacity 60"},
        BadConfig{"CapacityOutOfRange", two_queues("", "120", "-20"), "queue root.a", kQ + "a.capacity",
                  "expected a percentage in [0, 100], got 120"},
        BadConfig{"MissingCapacity",
                  R"({"yarn.scheduler.capacity.root.queues": "a,b", "yarn.scheduler.capacity.root.a.capacity": 100})",
                  "queue root.b", kQ + "b.capacity", "missing (required)"},
        BadConfig{"MissingRootQueues", R"({"yarn.scheduler.capacity.root.default.capacity": 100})", "queue root",
                  kQ + "queues", "missing (required)"},
        BadConfig{"UnknownQueue", two_queues("\"" + kQ + "c.capacity\": 10"), "queue root.c", kQ + "c.capacity",
                  "no such queue: root's queues are a, b"},
        BadConfig{"UnknownQueueProperty", two_queues("\"" + kQ + "a.capacityy\": 10"), "queue root.a",
                  kQ + "a.capacityy", "unknown queue property 'capacityy'"},
        BadConfig{"NotANumber", two_queues("", "\"sixty\""), "queue root.a", kQ + "a.capacity",
                  "expected a number, got \"sixty\""},
        BadConfig{"UserLimitOnAParent",
                  R"({"yarn.scheduler.capacity.root.queues": "p", "yarn.scheduler.capacity.root.p.capacity": 100,
                      "yarn.scheduler.capacity.root.p.queues": "x",
                      "yarn.scheduler.capacity.root.p.x.capacity": 100,
                      "yarn.scheduler.capacity.root.p.user-limit-factor": 2})",
                  "queue root.p", kQ + "p.user-limit-factor", "leaf queues only"},
        BadConfig{"UserLimitFactorZero", two_queues("\"" + kQ + "a.user-limit-factor\": 0"), "queue root.a",
                  kQ + "a.user-limit-factor", "expected a factor > 0"},
        BadConfig{"FairOrdering", two_queues("\"" + kQ + "a.ordering-policy\": \"fair\""), "queue root.a",
                  kQ + "a.ordering-policy", "only the 'fifo' ordering policy"},
        BadConfig{"DuplicateQueueName",
                  R"({"yarn.scheduler.capacity.root.queues": "a,a", "yarn.scheduler.capacity.root.a.capacity": 100})",
                  "queue root", kQ + "queues", "queue 'a' is listed twice"},
        BadConfig{
            "DefaultResourceCalculator",
            two_queues(
                R"("yarn.scheduler.capacity.resource-calculator": "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator")"),
            "", "yarn.scheduler.capacity.resource-calculator",
            "only org.apache.hadoop.yarn.util.resource.DominantResourceCalculator"},
        BadConfig{"UnsupportedSchedulerProperty", two_queues(R"("yarn.scheduler.capacity.maximum-applications": 100)"),
                  "", "yarn.scheduler.capacity.maximum-applications", "unsupported property"},
        BadConfig{"MonitorNotABoolean", two_queues(R"("yarn.resourcemanager.scheduler.monitor.enable": "yes")"), "",
                  "yarn.resourcemanager.scheduler.monitor.enable", "expected true or false"},
        BadConfig{"PreemptionPerRoundAboveOne", two_queues("\"" + kMonitor + "total_preemption_per_round\": 1.5"), "",
                  kMonitor + "total_preemption_per_round", "a fraction of the cluster in (0, 1]"},
        BadConfig{"NotAYarnProperty", two_queues(R"("capacity": 10)"), "", "capacity", "unknown field"},
        BadConfig{
            "ReservationInAParentQueue",
            two_queues(
                R"("reservations": [{"id": "r", "queue": "root", "user": "u", "gpus": 1, "start": 0, "end": 10}])"),
            "reservations[0] (id 'r')", "queue", "'root' is a parent queue"},
        BadConfig{"ReservationEndingBeforeItStarts",
                  two_queues(
                      R"("reservations": [{"id": "r", "queue": "a", "user": "u", "gpus": 1, "start": 20, "end": 10}])"),
                  "reservations[0] (id 'r')", "end", "must end after it starts"},
        BadConfig{
            "ReservationDuplicateId",
            two_queues(R"("reservations": [{"id": "r", "queue": "a", "user": "u", "gpus": 1, "start": 0, "end": 10},
                                                 {"id": "r", "queue": "b", "user": "u", "gpus": 1, "start": 0, "end": 10}])"),
            "reservations[1] (id 'r')", "id", "duplicate reservation id 'r'"},
        BadConfig{"ReservationOfMoreGpusThanACountHolds",
                  two_queues(R"("reservations": [{"id": "r", "queue": "a", "user": "u", "gpus": 4294967297,)"
                             R"( "start": 0, "end": 10}])"),
                  "reservations[0] (id 'r')", "gpus", "at most 4294967295 GPUs"},
        BadConfig{
            "ReservationUnknownField",
            two_queues(R"("reservations": [{"id": "r", "queue": "a", "user": "u", "gpu": 1, "start": 0, "end": 10}])"),
            "reservations[0] (id 'r')", "gpu", "unknown field"}),
    [](const ::testing::TestParamInfo<BadConfig>& info) { return std::string(info.param.name); });

TEST(CapacityConfig, MissingFileIsNamed) {
  try {
    CapacityPolicy::create({{"config", "/no/such/yarn.json"}}, std::make_unique<PackPlacement>());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "/no/such/yarn.json");
  }
}

TEST(CapacityConfig, JobQueuesAreCheckedAtTheFirstCall) {
  // Jobs name leaves by short name or full path; a parent or unknown queue is
  // an InputError naming the configuration, the job and its queue.
  const std::string config = R"({"yarn.scheduler.capacity.root.queues": "p",
    "yarn.scheduler.capacity.root.p.capacity": 100, "yarn.scheduler.capacity.root.p.queues": "x,y",
    "yarn.scheduler.capacity.root.p.x.capacity": 50, "yarn.scheduler.capacity.root.p.y.capacity": 50})";
  {
    CapacityBench bench(crafted_cluster(1, 4),
                        {queued_job("ok-short", 1, 0, "x"), queued_job("ok-path", 1, 0, "root.p.y")});
    CapacityPolicy policy = testing::capacity_policy(config);
    bench.advance(0);
    EXPECT_EQ(bench.step(policy).started.size(), 2u);
  }
  struct Case {
    std::string queue, problem;
  };
  for (const Case& c :
       {Case{"z", "no queue 'z'; the leaf queues are: root.p.x, root.p.y"}, Case{"p", "'root.p' is a parent queue"}}) {
    // The job arrives late, yet the first call already rejects it.
    CapacityBench bench(crafted_cluster(1, 4), {queued_job("fine", 1, 0, "x"), queued_job("bad", 1, 50, c.queue)});
    CapacityPolicy policy = testing::capacity_policy(config);
    bench.advance(0);
    try {
      bench.schedule(policy);
      FAIL() << c.queue;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "test.json");
      EXPECT_EQ(e.where(), "job 'bad'");
      EXPECT_EQ(e.field(), "queue");
      EXPECT_NE(e.problem().find(c.problem), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gcsim
