// trace_setting_flags.hpp: the fix a trace error names, in the words of the
// command line.
//
// The trace library names the setting that fixes an error and what to give
// it (TraceSettingError, traces/trace_setting_error.hpp: memory_unit=UNIT).
// The commands take those settings as `--trace-opt KEY=VALUE` (gcsim run,
// gcsim compare) or as `gcsim trace`'s flags, `--KEY VALUE` with '-' for
// '_'. The guarded runner (command_runner.cpp) reports every such error with
// its fix in these words.
//
//   catch (const TraceSettingError& e) { std::cerr << command_line_error(e).what(); }
//   // "... declare it with --trace-opt memory_unit=UNIT (gcsim trace: --memory-unit UNIT) or in the mapping ..."
#pragma once

#include <string>

#include "sim/core/input_error.hpp"
#include "traces/trace_setting_error.hpp"

namespace gcsim {

/// `gcsim trace`'s flag for the fix: "--memory-unit UNIT", "--gpu-type", "--format philly".
std::string trace_command_flag(const TraceSettingFix& fix);

/// The fix as the user gives it. A column's unit is declared to every
/// command that reads a mapped CSV, so both ways are named: "--trace-opt
/// memory_unit=UNIT (gcsim trace: --memory-unit UNIT)". A GPU model's mapping
/// (machine lists, which `gcsim trace cluster` and `convert` read) and a
/// format (which `gcsim trace` takes as --format, `gcsim run` as FORMAT:FILE)
/// are named as `gcsim trace`'s flags.
std::string command_line_fix(const TraceSettingFix& fix);

/// `error` with its fix in command_line_fix's words.
InputError command_line_error(const TraceSettingError& error);

}  // namespace gcsim
