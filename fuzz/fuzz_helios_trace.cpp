// fuzz_helios_trace: the reader of the Helios cluster_log.csv (traces/helios_trace.hpp) on
// arbitrary text, in lenient and in strict mode.
#include <sstream>

#include "fuzz/fuzz_input.hpp"
#include "traces/helios_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = gcsim::fuzz::input_text(data, size);
  for (const bool strict : {false, true}) {
    gcsim::TraceReadOptions options;
    options.strict = strict;
    gcsim::fuzz::rejected([&] {
      std::istringstream in(text);
      gcsim::parse_helios_trace(in, "cluster_log.csv", options);
    });
  }
  return 0;
}
