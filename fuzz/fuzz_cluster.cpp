// fuzz_cluster: the cluster description reader (sim/topology/cluster_reader.hpp)
// on arbitrary text, as `gcsim run` reads a cluster file.
#include "fuzz/fuzz_input.hpp"
#include "sim/io/json_input.hpp"
#include "sim/topology/cluster_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = gcsim::fuzz::input_text(data, size);
  gcsim::fuzz::rejected(
      [&] { gcsim::parse_cluster_json(gcsim::parse_json_text(text, "cluster.json"), "cluster.json"); });
  return 0;
}
