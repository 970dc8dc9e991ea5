// fuzz_philly_trace: the reader of the Philly derived per-job CSV (traces/philly_trace.hpp) on
// arbitrary text, in lenient and in strict mode.
#include <sstream>

#include "fuzz/fuzz_input.hpp"
#include "traces/philly_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = gcsim::fuzz::input_text(data, size);
  for (const bool strict : {false, true}) {
    gcsim::TraceReadOptions options;
    options.strict = strict;
    gcsim::fuzz::rejected([&] {
      std::istringstream in(text);
      gcsim::parse_philly_trace(in, "philly_jobs.csv", options);
    });
  }
  return 0;
}
