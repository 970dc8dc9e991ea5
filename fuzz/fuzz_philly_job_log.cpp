// fuzz_philly_job_log: the reader of Philly's raw job log, cluster_job_log
// (traces/philly_job_log.hpp), on arbitrary text, in lenient and in strict mode.
#include "fuzz/fuzz_input.hpp"
#include "traces/philly_job_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = gcsim::fuzz::input_text(data, size);
  for (const bool strict : {false, true}) {
    gcsim::TraceReadOptions options;
    options.strict = strict;
    gcsim::fuzz::rejected([&] { gcsim::parse_philly_job_log(text, "cluster_job_log", options); });
  }
  return 0;
}
