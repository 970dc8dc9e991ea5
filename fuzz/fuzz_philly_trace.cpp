// fuzz_philly_trace: the reader of the Philly derived per-job CSV (traces/philly_trace.hpp) on
// arbitrary text, in lenient and in strict mode.
#include "fuzz/fuzz_trace_stream.hpp"
#include "traces/philly_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gcsim::fuzz::trace_stream(data, size, [](std::istream& in, const gcsim::TraceReadOptions& options) {
    gcsim::parse_philly_trace(in, "philly_jobs.csv", options);
  });
}
