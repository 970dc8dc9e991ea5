// fuzz_trace_stream.hpp: the body of a fuzz target for a trace reader of one
// stream: the input read as that trace in lenient and in strict mode, each
// rejection allowed (fuzz_input.hpp), anything else a finding.
//
//   extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
//     return fuzz::trace_stream(data, size, [](std::istream& in, const TraceReadOptions& options) {
//       parse_swf_trace(in, "log.swf", options);
//     });
//   }
#pragma once

#include <sstream>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "traces/trace_read.hpp"

namespace gcsim::fuzz {

template <typename Parse>
int trace_stream(const std::uint8_t* data, std::size_t size, Parse parse) {
  const std::string text = input_text(data, size);
  for (const bool strict : {false, true}) {
    TraceReadOptions options;
    options.strict = strict;
    rejected([&] {
      std::istringstream in(text);
      parse(in, options);
    });
  }
  return 0;
}

}  // namespace gcsim::fuzz
