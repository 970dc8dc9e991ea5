#include "traces/node_list.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

// What a node has when the list does not say (the node shape of vc_cluster.hpp).
constexpr std::uint32_t kAssumedCores = 96;
constexpr double kAssumedMemory = 512e9;

}  // namespace

const std::vector<std::string>& node_list_properties() {
  static const std::vector<std::string> properties = {"model", "gpus", "cpu", "memory"};
  return properties;
}

std::map<std::string, std::string> parse_node_column_map(const std::string& text) {
  std::map<std::string, std::string> columns = parse_column_map(text, node_list_properties());
  if (!columns.count("model") || !columns.count("gpus"))
    throw std::invalid_argument("the column mapping must name the 'model' and 'gpus' columns");
  return columns;
}

NodeList read_node_list(const std::string& path, const NodeListOptions& options) {
  const auto& columns = options.columns;
  if (!columns.count("model") || !columns.count("gpus"))
    throw std::invalid_argument("the column mapping must name the 'model' and 'gpus' columns");
  std::ifstream in = open_trace_file(path);
  CsvRecords records(in, path, options.delimiter);
  const CsvHeader header = read_csv_header(records);
  std::map<std::string, std::size_t> at;
  for (const auto& [property, column] : columns) at[property] = header.require(column);

  NodeList list;
  list.model_column = columns.at("model");
  std::size_t fractional_cores = 0;
  for (CsvRecord record; records.next(record);) {
    ++list.rows;
    const std::string where = "line " + std::to_string(record.line);
    std::vector<std::string>& fields = record.fields;
    if (fields.size() != header.size())
      throw InputError(path, where, "",
                       "expected " + std::to_string(header.size()) + " fields, got " + std::to_string(fields.size()));
    for (std::string& field : fields) field = std::string(trim(field));
    const auto field = [&](const std::string& property) -> const std::string& { return fields[at.at(property)]; };
    const auto number = [&](const std::string& property, const std::string& expected, auto accept) {
      const std::optional<double> value = parse_trace_number(field(property));
      if (!value || !accept(*value))
        throw InputError(path, where, columns.at(property), "expected " + expected + ", got '" + field(property) + "'");
      return *value;
    };

    TracedMachine node;
    node.line = record.line;
    node.gpu_model = field("model");
    node.gpus = static_cast<std::uint32_t>(number("gpus", "a whole number of GPUs >= 0",
                                                  [](double v) { return v >= 0 && v == std::floor(v) && v <= 1e6; }));
    node.cpu_cores = kAssumedCores;
    if (columns.count("cpu")) {
      const double cores =
          number("cpu", "a CPU amount >= 0", [](double v) { return v >= 0 && v <= 1e12; }) * options.cpu_unit;
      if (cores < 1)
        throw InputError(path, where, columns.at("cpu"),
                         "a node needs at least one core, got " + describe_number(cores) + " cores");
      if (cores != std::floor(cores)) ++fractional_cores;
      node.cpu_cores = static_cast<std::uint32_t>(std::min(std::floor(cores), 4294967295.0));
    }
    node.memory_bytes = kAssumedMemory;
    if (columns.count("memory"))
      node.memory_bytes =
          number("memory", "a memory size > 0", [](double v) { return v > 0 && v <= 1e30; }) * options.memory_unit;
    list.machines.push_back(std::move(node));
  }
  if (!columns.count("cpu"))
    list.notes.push_back("no cpu column: every node is given " + std::to_string(kAssumedCores) + " cores");
  if (!columns.count("memory")) list.notes.push_back("no memory column: every node is given 512 GB");
  if (fractional_cores > 0)
    list.notes.push_back(std::to_string(fractional_cores) + " nodes' CPU is not a whole number of cores: rounded down");
  return list;
}

}  // namespace gcsim
