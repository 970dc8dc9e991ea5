#include "workloads/node_failures.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "sim/core/portable_random.hpp"
#include "sim/io/work_horizon.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kListFields = {"failures"};
const std::set<std::string> kFailureFields = {"node", "at", "duration"};
const std::set<std::string> kDrawFields = {"mtbf", "distribution", "shape", "repair", "horizon", "seed"};

std::vector<NodeFailure> listed(const JsonObject& top, const ClusterLayout& layout) {
  std::map<std::string, NodeId> node_of_name;
  for (NodeId n = 0; n < layout.node_count(); ++n) node_of_name.emplace(layout.node(n).name, n);
  std::vector<NodeFailure> failures;
  const nlohmann::json& list = top.required_array("failures");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonObject entry(list[i], {top.location().file, "failures[" + std::to_string(i) + "]"});
    entry.reject_unknown_fields(kFailureFields);
    const std::string name = entry.required_string("node");
    const auto node = node_of_name.find(name);
    if (node == node_of_name.end())
      entry.fail("node", "no node '" + name + "' in cluster '" + layout.spec().name + "' (nodes are named like '" +
                             layout.node(0).name + "')");
    NodeFailure failure{entry.required_quantity("at", Quantity::kTime), node->second,
                        entry.required_quantity("duration", Quantity::kTime, true)};
    for (const auto& [field, value] : {std::pair{"at", failure.at}, {"duration", failure.duration}})
      if (const auto problem = beyond_horizon(value, HorizonQuantity::kTime)) entry.fail(field, *problem);
    failures.push_back(failure);
  }
  return failures;
}

std::vector<NodeFailure> drawn(const JsonObject& top, const ClusterLayout& layout) {
  const Time mtbf = top.required_quantity("mtbf", Quantity::kTime);
  if (!(mtbf > 0)) top.fail("mtbf", "expected a mean time between failures > 0 (an MTBF of 0 fails nodes forever)");
  const std::string distribution = top.optional_string("distribution", "exponential");
  if (distribution != "exponential" && distribution != "weibull")
    top.fail("distribution", "expected \"exponential\" or \"weibull\", got \"" + distribution + "\"");
  const double shape = distribution == "weibull" ? top.required_quantity("shape", Quantity::kPlain, true) : 1.0;
  if (distribution != "weibull" && top.has("shape")) top.fail("shape", "only a \"weibull\" distribution has a shape");
  const Time repair = top.required_quantity("repair", Quantity::kTime, true);
  const Time horizon = top.required_quantity("horizon", Quantity::kTime, true);
  for (const auto& [field, value] : {std::pair{"mtbf", mtbf}, {"repair", repair}, {"horizon", horizon}})
    if (const auto problem = beyond_horizon(value, HorizonQuantity::kTime)) top.fail(field, *problem);
  // Failures beyond any run's length would only cost memory.
  constexpr double kMostFailures = 1e6;
  if (horizon / (mtbf + repair) * static_cast<double>(layout.node_count()) > kMostFailures)
    top.fail("mtbf", "draws more than 1000000 failures before the horizon: give a longer MTBF or a shorter horizon");
  // Weibull of mean mtbf: scale mtbf / Gamma(1 + 1/k).
  const double scale = mtbf / std::tgamma(1 + 1 / shape);
  PortableRandom random(top.optional_uint("seed", 0));
  std::vector<NodeFailure> failures;
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    Time at = 0;
    while (true) {
      // Weibull by inverse transform: scale x E^(1/k) for E exponential of mean 1.
      const double draw = random.exponential(1.0);
      at += shape == 1 || draw == 0 ? scale * draw : scale * portable_exp(portable_log(draw) / shape);
      if (at >= horizon) break;
      failures.push_back({at, n, repair});
      at += repair;
    }
  }
  return failures;
}

}  // namespace

std::vector<NodeFailure> read_node_failures_file(const std::string& path, const ClusterLayout& layout) {
  const nlohmann::json doc = read_json_file(path);
  const JsonObject top(doc, {path, ""});
  const bool list = top.has("failures");
  top.reject_unknown_fields(list ? kListFields : kDrawFields);
  std::vector<NodeFailure> failures = list ? listed(top, layout) : drawn(top, layout);
  std::sort(failures.begin(), failures.end(),
            [](const NodeFailure& a, const NodeFailure& b) { return std::tie(a.at, a.node) < std::tie(b.at, b.node); });
  // A node fails again only once it is repaired.
  std::map<NodeId, Time> repaired;
  for (const NodeFailure& f : failures) {
    const auto it = repaired.find(f.node);
    if (it != repaired.end() && f.at < it->second)
      throw InputError(path, "failures", "at",
                       "node '" + layout.node(f.node).name + "' fails at " + std::to_string(f.at) +
                           " s, before its repair from an earlier failure ends at " + std::to_string(it->second) +
                           " s");
    repaired[f.node] = f.at + f.duration;
  }
  return failures;
}

}  // namespace gcsim
