#include "policies/capacity/capacity_config_reader.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"

namespace gcsim {
namespace {

namespace yp = yarn_property;

constexpr double kCapacitySumTolerance = 1e-6;

std::string describe(const nlohmann::json& v) {
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

std::string format_number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\n\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\n\r") - first + 1);
}

const char* const kQueueProperties[] = {
    yp::kQueues,          yp::kCapacity,       yp::kMaximumCapacity,  yp::kMinimumUserLimitPercent,
    yp::kUserLimitFactor, yp::kOrderingPolicy, yp::kDisablePreemption};
const char* const kGlobalProperties[] = {
    yp::kResourceCalculator,      yp::kMonitorEnable,          yp::kMonitoringInterval,      yp::kMaxWaitBeforeKill,
    yp::kTotalPreemptionPerRound, yp::kMaxIgnoredOverCapacity, yp::kNaturalTerminationFactor};

template <std::size_t N>
std::string list(const char* const (&names)[N]) {
  std::string text;
  for (const char* name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

// The flat property map of one file, read key by key; remembers which keys were used.
class PropertyReader {
 public:
  PropertyReader(const nlohmann::json& doc, std::string file) : doc_(doc), file_(std::move(file)) {}

  const std::string& file() const { return file_; }
  bool has(const std::string& key) {
    if (!doc_.contains(key) || doc_.at(key).is_null()) return false;
    used_.insert(key);
    return true;
  }
  [[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& problem) const {
    throw InputError(file_, where, key, problem);
  }

  /// A JSON number, or a string holding one (as capacity-scheduler.xml does).
  double number(const std::string& where, const std::string& key) {
    const nlohmann::json& v = doc_.at(key);
    used_.insert(key);
    if (v.is_number()) return v.get<double>();
    if (v.is_string())
      if (auto parsed = parse_quantity(v.get<std::string>(), Quantity::kPlain)) return *parsed;
    fail(where, key, "expected a number, got " + describe(v));
  }
  double number_in(const std::string& where, const std::string& key, double low, double high, bool low_open,
                   const std::string& expected) {
    const double x = number(where, key);
    if (x < low || x > high || (low_open && x == low))
      fail(where, key, "expected " + expected + ", got " + format_number(x));
    return x;
  }
  bool boolean(const std::string& where, const std::string& key) {
    const nlohmann::json& v = doc_.at(key);
    used_.insert(key);
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_string() && (v.get<std::string>() == "true" || v.get<std::string>() == "false"))
      return v.get<std::string>() == "true";
    fail(where, key, "expected true or false, got " + describe(v));
  }
  std::string string(const std::string& where, const std::string& key) {
    const nlohmann::json& v = doc_.at(key);
    used_.insert(key);
    if (!v.is_string()) fail(where, key, "expected a string, got " + describe(v));
    return v.get<std::string>();
  }
  bool used(const std::string& key) const { return used_.count(key) > 0; }

 private:
  const nlohmann::json& doc_;
  std::string file_;
  std::set<std::string> used_;
};

std::string queue_key(const std::string& path, const char* property) {
  return std::string(yp::kQueuePrefix) + path + "." + property;
}

void read_queue(PropertyReader& in, const std::string& path, bool parent_disables_preemption,
                std::vector<QueueConfig>& out) {
  const std::string where = "queue " + path;
  QueueConfig queue;
  queue.path = path;
  const bool is_root = path == "root";

  const std::string queues_key = queue_key(path, yp::kQueues);
  if (in.has(queues_key)) {
    std::set<std::string> seen;
    std::stringstream names(in.string(where, queues_key));
    for (std::string name; std::getline(names, name, ',');) {
      name = trim(name);
      if (name.empty()) in.fail(where, queues_key, "a queue name is empty");
      if (name.find('.') != std::string::npos)
        in.fail(where, queues_key, "queue name '" + name + "' contains a '.' (paths are built from the names)");
      if (!seen.insert(name).second) in.fail(where, queues_key, "queue '" + name + "' is listed twice");
      queue.children.push_back(name);
    }
    if (queue.children.empty()) in.fail(where, queues_key, "lists no queue");
  } else if (is_root) {
    in.fail(where, queues_key, "missing (required): the queues under root");
  }

  const std::string capacity_key = queue_key(path, yp::kCapacity);
  if (is_root) {
    if (in.has(capacity_key) && std::fabs(in.number(where, capacity_key) - 100) > kCapacitySumTolerance)
      in.fail(where, capacity_key, "root's capacity is 100 (the whole cluster)");
  } else {
    if (!in.has(capacity_key)) in.fail(where, capacity_key, "missing (required): the queue's percentage of its parent");
    queue.capacity = in.number_in(where, capacity_key, 0, 100, false, "a percentage in [0, 100]");
  }

  const std::string maximum_key = queue_key(path, yp::kMaximumCapacity);
  if (in.has(maximum_key)) {
    const double maximum = in.number(where, maximum_key);
    if (maximum == -1) {
      queue.maximum_capacity = 100;  // YARN's "undefined": the whole parent
    } else if (!(maximum > 0 && maximum <= 100)) {
      in.fail(where, maximum_key, "expected a percentage in (0, 100] (or -1 for 100), got " + format_number(maximum));
    } else {
      queue.maximum_capacity = maximum;
    }
    if (is_root && queue.maximum_capacity != 100) in.fail(where, maximum_key, "root's maximum-capacity is 100");
  }
  if (queue.maximum_capacity < queue.capacity - kCapacitySumTolerance)
    in.fail(where, maximum_key,
            "maximum-capacity " + format_number(queue.maximum_capacity) + " is below capacity " +
                format_number(queue.capacity));

  auto leaf_only = [&](const char* property) {
    const std::string key = queue_key(path, property);
    if (!in.has(key)) return false;
    if (!queue.is_leaf())
      in.fail(where, key, std::string(property) + " applies to leaf queues only; " + path + " has children");
    return true;
  };
  if (leaf_only(yp::kMinimumUserLimitPercent))
    queue.minimum_user_limit_percent =
        in.number_in(where, queue_key(path, yp::kMinimumUserLimitPercent), 0, 100, true, "a percentage in (0, 100]");
  if (leaf_only(yp::kUserLimitFactor)) {
    const std::string key = queue_key(path, yp::kUserLimitFactor);
    const double factor = in.number(where, key);
    if (!(factor > 0) && factor != -1)
      in.fail(where, key, "expected a factor > 0 (or -1: no per-user cap), got " + format_number(factor));
    queue.user_limit_factor = factor;
  }
  if (leaf_only(yp::kOrderingPolicy)) {
    const std::string key = queue_key(path, yp::kOrderingPolicy);
    const std::string policy = in.string(where, key);
    if (policy != "fifo") in.fail(where, key, "only the 'fifo' ordering policy is supported, got '" + policy + "'");
  }
  queue.disable_preemption = parent_disables_preemption;
  if (in.has(queue_key(path, yp::kDisablePreemption)))
    queue.disable_preemption = in.boolean(where, queue_key(path, yp::kDisablePreemption));

  out.push_back(queue);
  const std::vector<std::string> children = queue.children;
  const bool disables = queue.disable_preemption;
  double sum = 0;
  std::string terms;
  for (const std::string& child : children) {
    const std::size_t index = out.size();
    read_queue(in, path + "." + child, disables, out);
    sum += out[index].capacity;
    terms += (terms.empty() ? "" : " + ") + child + " " + format_number(out[index].capacity);
  }
  if (!children.empty() && std::fabs(sum - 100) > kCapacitySumTolerance)
    in.fail(where, queues_key,
            "the capacities of the children of " + path + " sum to " + format_number(sum) + " (" + terms +
                "), expected 100");
}

// Explains a property under yarn.scheduler.capacity. that no queue read.
[[noreturn]] void reject_queue_property(PropertyReader& in, const std::string& key,
                                        const std::vector<QueueConfig>& queues) {
  const std::string rest = key.substr(std::string(yp::kQueuePrefix).size());
  const QueueConfig* owner = nullptr;  // the longest configured path that prefixes the rest
  for (const QueueConfig& q : queues)
    if (rest.compare(0, q.path.size() + 1, q.path + ".") == 0 && (!owner || q.path.size() > owner->path.size()))
      owner = &q;
  if (!owner)
    in.fail("", key,
            "unsupported property (scheduler-wide properties supported: " + list(kGlobalProperties) +
                "; queue properties start with yarn.scheduler.capacity.root.)");
  const std::string tail = rest.substr(owner->path.size() + 1);
  // "root.foo.capacity" where root does not list foo, or an unknown property of a known queue.
  const auto dot = tail.find('.');
  if (dot != std::string::npos && !owner->is_leaf()) {
    std::string siblings;
    for (const std::string& c : owner->children) siblings += (siblings.empty() ? "" : ", ") + c;
    in.fail("queue " + owner->path + "." + tail.substr(0, dot), key,
            "no such queue: " + owner->path + "'s queues are " + (siblings.empty() ? "none (it is a leaf)" : siblings) +
                " (" + queue_key(owner->path, yp::kQueues) + ")");
  }
  in.fail("queue " + owner->path, key,
          "unknown queue property '" + tail + "' (supported: " + list(kQueueProperties) + ")");
}

void read_preemption(PropertyReader& in, PreemptionConfig& p) {
  if (in.has(yp::kMonitorEnable)) p.enabled = in.boolean("", yp::kMonitorEnable);
  if (in.has(yp::kMonitoringInterval))
    p.monitoring_interval_ms =
        in.number_in("", yp::kMonitoringInterval, 0, 1e15, true, "a positive number of milliseconds");
  if (in.has(yp::kMaxWaitBeforeKill))
    p.max_wait_before_kill_ms = in.number_in("", yp::kMaxWaitBeforeKill, 0, 1e15, false, "milliseconds >= 0");
  if (in.has(yp::kTotalPreemptionPerRound))
    p.total_preemption_per_round =
        in.number_in("", yp::kTotalPreemptionPerRound, 0, 1, true, "a fraction of the cluster in (0, 1]");
  if (in.has(yp::kMaxIgnoredOverCapacity))
    p.max_ignored_over_capacity = in.number_in("", yp::kMaxIgnoredOverCapacity, 0, 1e6, false, "a fraction >= 0");
  if (in.has(yp::kNaturalTerminationFactor))
    p.natural_termination_factor = in.number_in("", yp::kNaturalTerminationFactor, 0, 1, true, "a fraction in (0, 1]");
}

std::vector<ReservationConfig> read_reservations(const nlohmann::json& array, const std::string& file,
                                                 const std::vector<QueueConfig>& queues) {
  if (!array.is_array()) throw InputError(file, "", yp::kReservations, "expected an array, got " + describe(array));
  std::vector<ReservationConfig> out;
  std::map<std::string, std::size_t> ids;
  for (std::size_t i = 0; i < array.size(); ++i) {
    std::string where = "reservations[" + std::to_string(i) + "]";
    const JsonObject first(array[i], {file, where});
    if (first.has("id") && first.raw("id").is_string()) where += " (id '" + first.raw("id").get<std::string>() + "')";
    const JsonObject object(array[i], {file, where});
    object.reject_unknown_fields({"id", "queue", "user", "gpus", "start", "end"});
    ReservationConfig r;
    r.id = object.required_string("id");
    if (auto [it, fresh] = ids.emplace(r.id, i); !fresh)
      object.fail("id", "duplicate reservation id '" + r.id + "' (first used by reservations[" +
                            std::to_string(it->second) + "])");
    const LeafLookup leaf = find_leaf_queue(queues, object.required_string("queue"));
    if (leaf.index < 0) object.fail("queue", leaf.problem);
    r.queue = queues[leaf.index].path;
    r.user = object.required_string("user");
    const std::uint64_t gpus = object.required_uint("gpus", 1);
    if (gpus > std::numeric_limits<std::uint32_t>::max())
      object.fail("gpus", "expected at most " + std::to_string(std::numeric_limits<std::uint32_t>::max()) +
                              " GPUs, got " + std::to_string(gpus));
    r.gpus = static_cast<std::uint32_t>(gpus);
    r.start = object.required_quantity("start", Quantity::kTime);
    r.end = object.required_quantity("end", Quantity::kTime);
    if (!(r.end > r.start))
      object.fail("end", "the window must end after it starts (start " + format_number(r.start) + " s, end " +
                             format_number(r.end) + " s)");
    out.push_back(r);
  }
  return out;
}

CapacityConfig parse_document(const nlohmann::json& doc, const std::string& file) {
  if (!doc.is_object())
    throw InputError(file, "", "", "expected a JSON object of capacity-scheduler properties, got " + describe(doc));
  PropertyReader in(doc, file);
  CapacityConfig config;
  config.source = file;
  read_queue(in, "root", false, config.queues);
  read_preemption(in, config.preemption);
  if (in.has(yp::kResourceCalculator)) {
    const std::string calculator = in.string("", yp::kResourceCalculator);
    if (calculator != yp::kDominantResourceCalculator)
      in.fail("", yp::kResourceCalculator,
              std::string("only ") + yp::kDominantResourceCalculator +
                  " is supported (GPUs, CPU cores and memory are all accounted), got '" + calculator + "'");
  }
  if (in.has(yp::kReservations))
    config.reservations = read_reservations(doc.at(yp::kReservations), file, config.queues);

  for (const auto& [key, value] : doc.items()) {
    if (in.used(key) || value.is_null()) continue;
    if (key.compare(0, std::string(yp::kQueuePrefix).size(), yp::kQueuePrefix) == 0)
      reject_queue_property(in, key, config.queues);
    if (key.compare(0, 5, "yarn.") == 0)
      in.fail("", key, "unsupported property (supported: " + list(kGlobalProperties) + ", and queue properties)");
    in.fail("", key, "unknown field (expected YARN property names, or 'reservations')");
  }
  return config;
}

}  // namespace

CapacityConfig read_capacity_config(const std::string& path) { return parse_document(read_json_file(path), path); }

CapacityConfig parse_capacity_config(const std::string& text, const std::string& file) {
  return parse_document(parse_json_text(text, file), file);
}

}  // namespace gcsim
