// capacity_config.hpp: the capacity scheduler's configuration as plain data,
// and the YARN property names it is read from.
//
// A CapacityConfig is what capacity-scheduler.xml (and the preemption
// monitor's yarn-site.xml properties) would hold, restricted to what the
// capacity policy honours; capacity_config_reader.hpp fills one from a JSON
// file and validates it. Without a file the policy uses
// CapacityConfig::single_default_queue(): one leaf root.default at 100%.
//
//   CapacityConfig config = read_capacity_config("yarn.json");
//   config.queues[0].path;  // "root"
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/ids.hpp"

namespace gcsim {

/// The properties named here, in the spelling of capacity-scheduler.xml and yarn-site.xml.
namespace yarn_property {
inline constexpr const char* kQueuePrefix = "yarn.scheduler.capacity.";  // + queue path + "." + queue property
// Queue properties (after the queue path).
inline constexpr const char* kQueues = "queues";
inline constexpr const char* kCapacity = "capacity";
inline constexpr const char* kMaximumCapacity = "maximum-capacity";
inline constexpr const char* kMinimumUserLimitPercent = "minimum-user-limit-percent";
inline constexpr const char* kUserLimitFactor = "user-limit-factor";
inline constexpr const char* kOrderingPolicy = "ordering-policy";
inline constexpr const char* kDisablePreemption = "disable_preemption";
// Scheduler-wide.
inline constexpr const char* kResourceCalculator = "yarn.scheduler.capacity.resource-calculator";
inline constexpr const char* kDominantResourceCalculator =
    "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator";
inline constexpr const char* kMonitorEnable = "yarn.resourcemanager.scheduler.monitor.enable";
inline constexpr const char* kMonitoringInterval =
    "yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval";
inline constexpr const char* kMaxWaitBeforeKill =
    "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill";
inline constexpr const char* kTotalPreemptionPerRound =
    "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round";
inline constexpr const char* kMaxIgnoredOverCapacity =
    "yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity";
inline constexpr const char* kNaturalTerminationFactor =
    "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor";
// Not a YARN property: advance reservations (see reservations.hpp).
inline constexpr const char* kReservations = "reservations";
}  // namespace yarn_property

/// One queue of the hierarchy. Percentages are of the parent queue.
struct QueueConfig {
  std::string path;                   // "root", "root.research", "root.research.a"
  std::vector<std::string> children;  // short names, in the order `queues` lists them; empty for a leaf
  double capacity = 100;              // guaranteed share of the parent, percent
  double maximum_capacity = 100;      // elastic limit, percent of the parent
  double minimum_user_limit_percent = 100;
  double user_limit_factor = 1;  // -1: no per-user cap beyond the queue's maximum
  bool disable_preemption = false;

  bool is_leaf() const { return children.empty(); }
  /// The last component of the path ("a" for "root.research.a").
  std::string name() const;
};

/// ProportionalCapacityPreemptionPolicy's settings (times in milliseconds, as YARN gives them).
struct PreemptionConfig {
  bool enabled = false;
  double monitoring_interval_ms = 3000;
  double max_wait_before_kill_ms = 15000;
  double total_preemption_per_round = 0.1;
  double max_ignored_over_capacity = 0.1;
  double natural_termination_factor = 0.2;
};

/// GPUs booked for one user's jobs in one leaf queue during [start, end).
struct ReservationConfig {
  std::string id;
  std::string queue;  // the leaf's full path
  std::string user;
  std::uint32_t gpus = 0;
  Time start = 0;
  Time end = 0;
};

struct CapacityConfig {
  /// The file it was read from; empty for the built-in default. Errors found
  /// later (a job naming an unknown queue, a reservation over capacity) name it.
  std::string source;
  std::vector<QueueConfig> queues;  // "root" first; every parent before its children
  PreemptionConfig preemption;
  std::vector<ReservationConfig> reservations;

  /// One leaf, root.default, with 100% of the cluster, and no preemption:
  /// YARN's shipped capacity-scheduler.xml.
  static CapacityConfig single_default_queue();
  /// Without a file, for a workload naming queues: one leaf root.NAME per
  /// name, in the order given, equal guaranteed capacities summing to 100%,
  /// each elastic to the whole cluster (maximum-capacity 100) with no per-user
  /// cap (user-limit-factor -1), no preemption. Names must hold no '.'.
  static CapacityConfig one_queue_per_name(const std::vector<std::string>& names);
  /// How errors name the configuration: the file, or "capacity (built-in ...)".
  std::string label() const;
};

/// Which leaf queue a job's (or a reservation's) queue name designates: a
/// full path ("root.research.a") or the short name of exactly one leaf ("a").
struct LeafLookup {
  int index = -1;       // into CapacityConfig::queues; -1 when not found
  std::string problem;  // why not, when index is -1
};
LeafLookup find_leaf_queue(const std::vector<QueueConfig>& queues, const std::string& name);

}  // namespace gcsim
