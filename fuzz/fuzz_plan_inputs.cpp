// fuzz_plan_inputs: what `gcsim plan` reads: its SLOs (sim/report/capacity_plan.hpp,
// one a line in the input's first part; a malformed one is rejected with
// std::invalid_argument, as documented) and its node templates
// (app/node_template.hpp, the second and third parts, fuzz_input.hpp), and the
// cluster of a mix of the templates read, read back by the cluster reader.
#include <sstream>
#include <stdexcept>

#include "app/node_template.hpp"
#include "fuzz/fuzz_input.hpp"
#include "sim/report/capacity_plan.hpp"
#include "sim/topology/cluster_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = gcsim::fuzz;
  const std::vector<std::string> parts = fuzz::parts(fuzz::input_text(data, size), 3);
  std::istringstream slos(parts[0]);
  for (std::string line; std::getline(slos, line);) {
    try {
      gcsim::parse_slo(line);
    } catch (const std::invalid_argument&) {
    }
  }
  std::vector<gcsim::NodeTemplate> templates;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (i > 1 && parts[i].empty()) continue;
    const std::string path = fuzz::scratch().write("plan/template-" + std::to_string(i) + ".json", parts[i]);
    fuzz::rejected([&] { templates.push_back(gcsim::read_node_template(path)); });
  }
  if (templates.empty()) return 0;
  std::vector<int> counts;
  for (std::size_t i = 0; i < templates.size(); ++i) counts.push_back(static_cast<int>(i) + 1);
  const nlohmann::json mix = gcsim::mixed_cluster(templates, counts);
  fuzz::rejected([&] { gcsim::parse_cluster_json(mix, "mix.json"); });
  return 0;
}
