#include "traces/trace_row.hpp"

#include "traces/trace_text.hpp"

namespace gcsim {

void RowCheck::malformed(const std::string& field, const std::string& reason, const std::string& detail) {
  malformed_if(true, field, reason, detail);
}

void RowCheck::not_replayable(const std::string& field, const std::string& reason, const std::string& detail) {
  not_replayable_if(true, field, reason, detail);
}

bool RowCheck::malformed_if(bool fault, const std::string& field, const std::string& reason,
                            const std::string& detail) {
  return skip_if(fault, true, field, reason, detail);
}

bool RowCheck::not_replayable_if(bool fault, const std::string& field, const std::string& reason,
                                 const std::string& detail) {
  return skip_if(fault, false, field, reason, detail);
}

bool RowCheck::starts_after_submit(double submit, double start, const std::string& start_field) {
  return malformed_if(start < submit, start_field, "starts before it was submitted",
                      "starts " + describe_number(submit - start) + " s before it is submitted");
}

bool RowCheck::skip_if(bool fault, bool malformed, const std::string& field, const std::string& reason,
                       const std::string& detail) {
  if (!ok_ || !fault) return ok_;
  ok_ = false;
  if (malformed)
    log_.malformed(file_, line_, field, reason, detail);
  else
    log_.not_replayable(file_, line_, field, reason, detail);
  return false;
}

TraceRow::TraceRow(SkipLog& log, std::string file, std::size_t line, std::vector<std::string> fields,
                   std::size_t expected, Spaces spaces)
    : RowCheck(log, std::move(file), line), fields_(std::move(fields)) {
  if (!malformed_if(fields_.size() != expected, "", "wrong number of fields",
                    "expected " + std::to_string(expected) + ", got " + std::to_string(fields_.size()))) {
    fields_.assign(expected, std::string());
    return;
  }
  if (spaces == Spaces::kTrimmed)
    for (std::string& field : fields_) field = std::string(trim(field));
}

const std::string& TraceRow::text(const TraceColumn& column) const { return fields_.at(column.index); }

std::string TraceRow::trimmed(const TraceColumn& column) const { return std::string(trim(text(column))); }

std::optional<double> TraceRow::parse(const TraceColumn& column) const { return parse_trace_number(text(column)); }

double TraceRow::number(const TraceColumn& column, const std::string& reason) {
  return number_if(
      column, [](double) { return true; }, reason);
}

double TraceRow::calendar_time(const TraceColumn& column, const std::string& reason) {
  if (!*this) return 0;
  const std::optional<double> value = parse_calendar_time(text(column));
  return malformed_if(!value, column.name, reason, got(column)) ? *value : 0;
}

std::optional<std::size_t> TimeFormats::other_format_line(std::size_t column, bool calendar, std::size_t line) {
  const First& first = first_.emplace(column, First{calendar, line}).first->second;
  if (first.calendar == calendar) return std::nullopt;
  return first.line;
}

double TraceRow::time(const TraceColumn& column, double unit_s, const std::string& reason, TimeFormats& formats) {
  if (!*this) return 0;
  const std::optional<double> calendar = parse_calendar_time(text(column));
  const std::optional<double> value = calendar ? calendar : parse_trace_number(text(column));
  if (!malformed_if(!value, column.name, reason, got(column))) return 0;
  if (const auto other = formats.other_format_line(column.index, calendar.has_value(), line())) {
    const char* here = calendar ? "a calendar time" : "a number";
    const char* there = calendar ? "a number" : "a calendar time";
    malformed(column.name, "mixed time formats in one column",
              got(column) + ": " + here + " here, " + there + " on line " + std::to_string(*other));
    return 0;
  }
  return calendar ? *value : *value * unit_s;
}

double TraceRow::submit_time(const TraceColumn& column, double unit_s, const std::string& reason,
                             TimeFormats& formats) {
  const double seconds = time(column, unit_s, reason, formats);
  const bool negative = seconds < 0 && !parse_calendar_time(text(column));
  return malformed_if(negative, column, "negative submit time", got(column)) ? seconds : 0;
}

}  // namespace gcsim
