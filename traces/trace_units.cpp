#include "traces/trace_units.hpp"

#include <stdexcept>

#include "sim/io/json_input.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

struct Suffix {
  const char* text;
  double scale;
};

// Kubernetes' quantity suffixes for sizes, binary ones first so that "Gi" is not read as "G".
constexpr Suffix kKubernetesSizes[] = {{"Ki", 1024.0},
                                       {"Mi", 1048576.0},
                                       {"Gi", 1073741824.0},
                                       {"Ti", 1099511627776.0},
                                       {"Pi", 1125899906842624.0},
                                       {"Ei", 1152921504606846976.0},
                                       {"k", 1e3},
                                       {"M", 1e6},
                                       {"G", 1e9},
                                       {"T", 1e12},
                                       {"P", 1e15},
                                       {"E", 1e18}};

// The number before `suffix`, when `text` ends with it and what precedes is a number.
std::optional<double> number_before(std::string_view text, std::string_view suffix) {
  if (text.size() <= suffix.size() || text.substr(text.size() - suffix.size()) != suffix) return std::nullopt;
  return parse_trace_number(text.substr(0, text.size() - suffix.size()));
}

}  // namespace

double parse_cpu_unit(const std::string& text) {
  if (text == "cores") return 1;
  if (text == "millicores" || text == "milli") return 1e-3;
  throw std::invalid_argument("expected " + cpu_unit_list() + ", got '" + text + "'");
}

double parse_memory_unit(const std::string& text) {
  static const char* const kUnits[] = {"B", "kB", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"};
  for (const char* unit : kUnits)
    if (text == unit) return *parse_quantity(std::string("1") + unit, Quantity::kBytes);
  throw std::invalid_argument("expected one of " + memory_unit_list() + ", got '" + text + "'");
}

std::string cpu_unit_list() { return "'cores' or 'millicores' ('milli', thousandths of a core)"; }

std::string memory_unit_list() { return "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB"; }

std::optional<double> parse_bytes_with_unit(std::string_view raw) {
  const std::string_view text = trim(raw);
  if (text.empty() || parse_trace_number(text)) return std::nullopt;
  if (const std::optional<double> bytes = parse_quantity(std::string(text), Quantity::kBytes)) return bytes;
  for (const Suffix& suffix : kKubernetesSizes)
    if (const std::optional<double> value = number_before(text, suffix.text)) return *value * suffix.scale;
  return std::nullopt;
}

std::optional<double> parse_cores_with_unit(std::string_view raw) {
  const std::optional<double> millicores = number_before(trim(raw), "m");
  if (!millicores) return std::nullopt;
  return *millicores * 1e-3;
}

}  // namespace gcsim
