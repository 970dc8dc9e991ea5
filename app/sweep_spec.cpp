#include "app/sweep_spec.hpp"

#include <set>

#include "sim/io/json_input.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kSpecFields = {"cluster", "workload", "policy", "options", "axes", "metrics"};
const std::set<std::string> kAxisFields = {"name", "values"};
constexpr std::size_t kMostRuns = 1000000;

std::vector<std::string> strings(const JsonObject& owner, std::string_view field) {
  std::vector<std::string> out;
  for (const nlohmann::json& value : owner.required_array(field)) {
    if (value.is_string())
      out.push_back(value.get<std::string>());
    else if (value.is_number())
      out.push_back(value.dump());
    else
      owner.fail(field, "expected strings (or numbers), got " + value.dump());
  }
  return out;
}

}  // namespace

SweepSpec read_sweep_spec(const std::string& path) {
  const nlohmann::json document = read_json_file(path);
  const JsonObject spec(document, {path, ""});
  spec.reject_unknown_fields(kSpecFields);
  SweepSpec out;
  const auto slash = path.rfind('/');
  out.folder = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  out.cluster = spec.optional_string("cluster", "");
  out.workload = spec.optional_string("workload", "");
  out.policy = spec.optional_string("policy", "");
  if (spec.has("options")) out.options = strings(spec, "options");
  const nlohmann::json& axes = spec.required_array("axes");
  std::size_t runs = 1;
  std::set<std::string> names;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const JsonObject axis = element_of(spec, "axes", i, axes[i]);
    axis.reject_unknown_fields(kAxisFields);
    SweepAxis a{axis.required_string("name"), strings(axis, "values")};
    const bool input = a.name == "cluster" || a.name == "workload" || a.name == "policy";
    if (!input && a.name.rfind("--", 0) != 0)
      axis.fail("name", "expected 'cluster', 'workload', 'policy' or a `gcsim run` option such as '--seed', got '" +
                            a.name + "'");
    if (a.name == "--out" || a.name == "--cluster" || a.name == "--workload" || a.name == "--policy")
      axis.fail("name", "'" + a.name + "' is the sweep's to give: name the axis '" +
                            (a.name == "--out" ? std::string("...") : a.name.substr(2)) + "'");
    if (!names.insert(a.name).second && a.name.rfind("--", 0) != 0) axis.fail("name", "'" + a.name + "' twice");
    if (a.values.empty()) axis.fail("values", "expected at least one value");
    runs *= a.values.size();
    if (runs > kMostRuns) axis.fail("values", "the grid has more than " + std::to_string(kMostRuns) + " runs");
    out.axes.push_back(std::move(a));
  }
  auto given = [&](const std::string& name, const std::string& base) {
    if (!base.empty()) return;
    for (const SweepAxis& a : out.axes)
      if (a.name == name) return;
    spec.fail(name, "missing: give a " + name + " or an axis of them");
  };
  given("cluster", out.cluster);
  given("workload", out.workload);
  given("policy", out.policy);
  out.metrics = strings(spec, "metrics");
  if (out.metrics.empty()) spec.fail("metrics", "expected at least one summary.json metric, e.g. \"jct_s.mean\"");
  return out;
}

std::vector<SweepRun> sweep_runs(const SweepSpec& spec) {
  std::size_t count = 1;
  for (const SweepAxis& a : spec.axes) count *= a.values.size();
  std::vector<SweepRun> runs(count);
  for (std::size_t i = 0; i < count; ++i) {
    SweepRun& run = runs[i];
    run.index = i;
    std::string cluster = spec.cluster, workload = spec.workload, policy = spec.policy;
    std::vector<std::string> extra;
    std::size_t rest = i;
    run.values.resize(spec.axes.size());
    for (std::size_t a = spec.axes.size(); a-- > 0;) {  // the last axis changes fastest
      const SweepAxis& axis = spec.axes[a];
      run.values[a] = axis.values[rest % axis.values.size()];
      rest /= axis.values.size();
    }
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
      const std::string& name = spec.axes[a].name;
      if (name == "cluster")
        cluster = run.values[a];
      else if (name == "workload")
        workload = run.values[a];
      else if (name == "policy")
        policy = run.values[a];
      else
        extra.insert(extra.end(), {name, run.values[a]});
    }
    run.args = {"--cluster", cluster, "--workload", workload, "--policy", policy};
    run.args.insert(run.args.end(), spec.options.begin(), spec.options.end());
    run.args.insert(run.args.end(), extra.begin(), extra.end());
  }
  return runs;
}

std::string sweep_run_name(std::size_t index, std::size_t count) {
  std::string digits = std::to_string(index);
  const std::size_t width = std::max<std::size_t>(4, std::to_string(count > 0 ? count - 1 : 0).size());
  return "run-" + std::string(width - std::min(width, digits.size()), '0') + digits;
}

}  // namespace gcsim
