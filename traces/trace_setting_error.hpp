// trace_setting_error.hpp: an error in a trace's input that a reading
// setting fixes, naming the setting, not a command line's flag.
//
// The readers serve commands that spell one setting in different ways
// (`gcsim run --trace-opt memory_unit=GiB`, `gcsim trace stats --memory-unit
// GiB`). So an error that a setting fixes carries which setting and what to
// give it (TraceSettingFix), and its own text says "setting memory_unit=UNIT";
// the command that reports it puts its own words for the fix at that place
// (app/trace_setting_flags.hpp).
//
//   throw TraceSettingError(path, "line 2", "mem", "a plain number needs the column's unit: declare it with ",
//                           {"memory_unit", "UNIT"}, " or in the mapping");
//   // what(): "PATH: line 2: field 'mem': ... declare it with setting memory_unit=UNIT or in the mapping"
#pragma once

#include <string>
#include <utility>

#include "sim/core/input_error.hpp"

namespace gcsim {

/// A reading setting and what to give it: a key of the trace settings
/// (TraceReadOptions, trace_read.hpp: "memory_unit", "gpu_type"), or
/// "format", the reader of the file.
struct TraceSettingFix {
  std::string setting;
  std::string value;  // "UNIT", "philly"; empty when the setting alone is named
};

/// The fix in the library's words: "setting memory_unit=UNIT", "setting gpu_type".
inline std::string setting_text(const TraceSettingFix& fix) {
  return "setting " + fix.setting + (fix.value.empty() ? "" : "=" + fix.value);
}

/// An InputError whose problem reads `before`, the fix, `after`.
class TraceSettingError : public InputError {
 public:
  TraceSettingError(std::string file, std::string where, std::string field, std::string before, TraceSettingFix fix,
                    std::string after)
      : InputError(std::move(file), std::move(where), std::move(field), before + setting_text(fix) + after),
        before_(std::move(before)),
        fix_(std::move(fix)),
        after_(std::move(after)) {}

  const TraceSettingFix& fix() const { return fix_; }

  /// The same error with its fix in `fix_words`, as a command line gives it.
  InputError worded(const std::string& fix_words) const {
    return InputError(file(), where(), field(), before_ + fix_words + after_);
  }

 private:
  std::string before_;
  TraceSettingFix fix_;
  std::string after_;
};

}  // namespace gcsim
