// fuzz_swf_trace: the reader of the Standard Workload Format (SWF) (traces/swf_trace.hpp) on
// arbitrary text, in lenient and in strict mode.
#include "fuzz/fuzz_trace_stream.hpp"
#include "traces/swf_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gcsim::fuzz::trace_stream(data, size, [](std::istream& in, const gcsim::TraceReadOptions& options) {
    gcsim::parse_swf_trace(in, "log.swf", options);
  });
}
