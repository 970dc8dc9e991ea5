#include "traces/gpu_models.hpp"

#include <stdexcept>

#include "sim/io/json_input.hpp"

namespace gcsim {
namespace {

// Nominal FP32 peaks and device memory (vendor data sheets).
struct KnownModel {
  const char* name;
  double flops;
  double memory;
  bool nvlink;
  const char* note;
};
const KnownModel kKnownModels[] = {
    {"A10", 31.2e12, 24e9, false, ""},   {"MISC", 4.37e12, 12e9, false, "PAI's older K40m/K80/M60, taken as a K80 die"},
    {"P100", 9.3e12, 16e9, false, ""},   {"T4", 8.1e12, 16e9, false, ""},
    {"V100", 15.7e12, 16e9, true, ""},   {"V100M16", 15.7e12, 16e9, true, ""},
    {"V100M32", 15.7e12, 32e9, true, ""}};

// The memory of a mapped type whose memory nobody gave: the smallest of the
// data-centre models above (T4, P100, V100), so that no job is placed on
// memory the GPU may not have.
constexpr double kAssumedMemory = 16e9;

}  // namespace

std::optional<GpuFigures> known_gpu_model(const std::string& model) {
  for (const KnownModel& known : kKnownModels)
    if (model == known.name) return GpuFigures{known.name, known.flops, known.memory, false, known.nvlink, known.note};
  return std::nullopt;
}

std::string known_gpu_model_list() {
  std::string list;
  for (const KnownModel& known : kKnownModels) list += (list.empty() ? "" : ", ") + std::string(known.name);
  return list;
}

GpuModelMapping parse_gpu_model_mapping(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument("expected MODEL=NAME[:FLOPS[:MEMORY]] (e.g. G2=G2:31.2TFLOPS), got '" + text + "'");
  GpuModelMapping mapping;
  mapping.model = text.substr(0, eq);
  std::string rest = text.substr(eq + 1);
  const auto colon = rest.find(':');
  mapping.name = rest.substr(0, colon);
  if (mapping.name.empty()) throw std::invalid_argument("'" + text + "' maps '" + mapping.model + "' to an empty name");
  if (colon != std::string::npos) {
    rest = rest.substr(colon + 1);
    const auto second = rest.find(':');
    const std::string flops = rest.substr(0, second);
    mapping.flops = parse_quantity(flops, Quantity::kFlops);
    if (!mapping.flops || !(*mapping.flops > 0))
      throw std::invalid_argument("'" + text + "': expected " + quantity_hint(Quantity::kFlops) +
                                  " after the name, got '" + flops + "'");
    if (second != std::string::npos) {
      const std::string memory = rest.substr(second + 1);
      mapping.memory = parse_quantity(memory, Quantity::kBytes);
      if (!mapping.memory || !(*mapping.memory > 0))
        throw std::invalid_argument("'" + text + "': expected " + quantity_hint(Quantity::kBytes) +
                                    " after the FLOP rate, got '" + memory + "'");
    }
  }
  if (!mapping.flops && !known_gpu_model(mapping.name))
    throw std::invalid_argument("'" + text + "': gcsim has no figures for '" + mapping.name + "' (it knows " +
                                known_gpu_model_list() + "): give its FLOP/s, as in " + mapping.model + "=" +
                                mapping.name + ":31.2TFLOPS");
  return mapping;
}

void add_gpu_model_mapping(GpuModelMap& models, GpuModelMapping mapping) {
  const std::string model = mapping.model;
  if (!models.emplace(model, std::move(mapping)).second)
    throw std::invalid_argument("GPU model '" + model + "' is mapped twice");
}

std::string gpu_type_name(const std::string& model, const GpuModelMap& models) {
  const auto it = models.find(model);
  return it == models.end() ? model : it->second.name;
}

std::optional<GpuFigures> resolve_gpu_model(const std::string& model, const GpuModelMap& models) {
  const auto it = models.find(model);
  if (it == models.end()) return known_gpu_model(model);
  const GpuModelMapping& mapping = it->second;
  GpuFigures figures = known_gpu_model(mapping.name).value_or(GpuFigures{mapping.name, 0, 0, false, false, ""});
  if (mapping.flops) figures.flops = *mapping.flops;
  if (mapping.memory) figures.memory = *mapping.memory;
  if (figures.memory == 0) {
    figures.memory = kAssumedMemory;
    figures.memory_assumed = true;
  }
  return figures;
}

TraceSettingError unknown_gpu_model_error(const std::string& file, const std::string& where, const std::string& field,
                                          const std::string& model) {
  return TraceSettingError(
      file, where, field,
      "gcsim has no figures for GPU model '" + model + "' (it knows " + known_gpu_model_list() +
          "); map it to a GPU type with ",
      {"gpu_type", model + "=NAME[:FLOPS]"},
      ": " + model + "=T4 takes a known model's figures, " + model + "=" + model + ":20TFLOPS gives its own FLOP/s");
}

}  // namespace gcsim
