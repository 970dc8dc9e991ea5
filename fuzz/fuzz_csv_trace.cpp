// fuzz_csv_trace: the mapped CSV trace reader (traces/csv_trace.hpp) with its
// column mapping. The input's first line is the mapping as `--map` takes it
// ("submit=t,gpus=g,duration=d"), the rest the CSV. A first line opening with
// ';', '\t' or '|' sets that separator, and is followed by the mapping.
// A malformed mapping is rejected with std::invalid_argument, as documented.
#include <sstream>
#include <stdexcept>

#include "fuzz/fuzz_input.hpp"
#include "traces/csv_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = gcsim::fuzz::input_text(data, size);
  const std::size_t end = text.find('\n');
  std::string map = text.substr(0, end);
  const std::string csv = end == std::string::npos ? "" : text.substr(end + 1);
  gcsim::TraceReadOptions options;
  if (!map.empty() && (map[0] == ';' || map[0] == '\t' || map[0] == '|')) {
    options.delimiter = map[0];
    map.erase(0, 1);
  }
  try {
    options.columns = gcsim::parse_csv_column_map(map);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  for (const bool strict : {false, true}) {
    options.strict = strict;
    try {
      gcsim::fuzz::rejected([&] {
        std::istringstream in(csv);
        gcsim::parse_csv_trace(in, "jobs.csv", options);
      });
    } catch (const std::invalid_argument&) {
      // a mapping that lacks submit, gpus or a run time: documented
    }
  }
  return 0;
}
