// fuzz_capacity_config: the capacity scheduler's configuration reader
// (policies/capacity/capacity_config_reader.hpp) on arbitrary text.
#include "fuzz/fuzz_input.hpp"
#include "policies/capacity/capacity_config_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = gcsim::fuzz::input_text(data, size);
  gcsim::fuzz::rejected([&] { gcsim::parse_capacity_config(text, "capacity.json"); });
  return 0;
}
