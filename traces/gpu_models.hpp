// gpu_models.hpp: the GPU models traces name, the figures gcsim knows for
// them, and the user's mapping of other models onto gcsim GPU types.
//
// Machine lists name GPU models (PAI's pai_machine_spec "V100M32", a
// Kubernetes node list's "A10", anonymised ones such as "G2"); a gcsim
// cluster needs each type's FLOP/s and memory. Known models, at their
// nominal FP32 peak and device memory:
//
//   P100     9.3 TFLOP/s  16 GB       V100M16  15.7 TFLOP/s  16 GB
//   T4       8.1 TFLOP/s  16 GB       V100M32  15.7 TFLOP/s  32 GB
//   V100    15.7 TFLOP/s  16 GB       A10      31.2 TFLOP/s  24 GB
//   MISC     4.37 TFLOP/s 12 GB (PAI's older K40m/K80/M60, taken as a K80 die)
//
// Any other model must be mapped, setting gpu_type=MODEL=NAME[:FLOPS[:MEMORY]]
// (`gcsim trace --gpu-type`, `gcsim run --trace-opt gpu_type=`):
// machines of MODEL become GPUs of type NAME, with NAME's known figures, or
// FLOPS (and MEMORY) as given in the cluster format's quantity syntax. NAME
// unknown needs FLOPS; its memory, when not given, is taken as 16 GB and said
// so. A trace's jobs measured on MODEL are measured on NAME.
//
//   GpuModelMap models;
//   add_gpu_model_mapping(models, parse_gpu_model_mapping("G2=G2:31.2TFLOPS"));
//   std::optional<GpuFigures> g2 = resolve_gpu_model("G2", models);  // 31.2e12 FLOP/s, 16 GB assumed
#pragma once

#include <map>
#include <optional>
#include <string>

#include "traces/trace_setting_error.hpp"

namespace gcsim {

struct GpuFigures {
  std::string name;             // the gcsim GPU type name
  double flops = 0;             // FLOP/s
  double memory = 0;            // bytes
  bool memory_assumed = false;  // not given for a mapped model gcsim has no figures for
  bool nvlink = false;          // 8-GPU machines of this model have NVLink (V100s)
  std::string note;             // what the figures stand for, where the name does not say
};

/// `MODEL=NAME[:FLOPS[:MEMORY]]` as given.
struct GpuModelMapping {
  std::string model;
  std::string name;
  std::optional<double> flops;   // FLOP/s
  std::optional<double> memory;  // bytes
};

/// Mappings by model.
using GpuModelMap = std::map<std::string, GpuModelMapping>;

/// The figures gcsim knows for a model, or nothing.
std::optional<GpuFigures> known_gpu_model(const std::string& model);
/// "A10, MISC, P100, T4, V100, V100M16, V100M32".
std::string known_gpu_model_list();

/// Parses `MODEL=NAME[:FLOPS[:MEMORY]]`; throws std::invalid_argument saying
/// what is wrong (no '=', an empty part, a malformed quantity, an unknown
/// NAME without FLOPS).
GpuModelMapping parse_gpu_model_mapping(const std::string& text);
/// Adds a mapping; throws std::invalid_argument when MODEL is mapped twice.
void add_gpu_model_mapping(GpuModelMap& models, GpuModelMapping mapping);

/// The gcsim type name of a model: its mapping's NAME, else the model itself.
std::string gpu_type_name(const std::string& model, const GpuModelMap& models);
/// The figures of a model's GPUs: its mapping, else the known table; nothing
/// for a model neither knows.
std::optional<GpuFigures> resolve_gpu_model(const std::string& model, const GpuModelMap& models);
/// The error for a model gcsim has no figures for, at `where` in `file`: the
/// models it knows, and the setting that maps it, "gcsim has no figures for
/// GPU model 'G2' (it knows ...); map it to a GPU type with setting
/// gpu_type=G2=NAME[:FLOPS]: ...".
TraceSettingError unknown_gpu_model_error(const std::string& file, const std::string& where, const std::string& field,
                                          const std::string& model);

}  // namespace gcsim
