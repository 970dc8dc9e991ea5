#include "app/trace_setting_flags.hpp"

#include <algorithm>

namespace gcsim {

std::string trace_command_flag(const TraceSettingFix& fix) {
  std::string flag = "--" + fix.setting;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return fix.value.empty() ? flag : flag + " " + fix.value;
}

std::string command_line_fix(const TraceSettingFix& fix) {
  const bool unit = fix.setting == "cpu_unit" || fix.setting == "memory_unit" || fix.setting == "gpu_memory_unit";
  if (!unit) return trace_command_flag(fix);
  return "--trace-opt " + fix.setting + "=" + fix.value + " (gcsim trace: " + trace_command_flag(fix) + ")";
}

InputError command_line_error(const TraceSettingError& error) { return error.worded(command_line_fix(error.fix())); }

}  // namespace gcsim
