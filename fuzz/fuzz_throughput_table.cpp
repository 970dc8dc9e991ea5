// fuzz_throughput_table: the throughput table readers (traces/throughput_table.hpp).
// An input opening with '{' is a Gavel throughputs file; any other is a
// Pollux folder of one model (its two parts, fuzz_input.hpp: placements.csv
// and scalability.csv) and, the same files named for a machine, a Sia folder.
// A table read is looked up for every model, GPU type and a few GPU counts.
#include "fuzz/fuzz_input.hpp"
#include "traces/throughput_table.hpp"

namespace {

void look_up_everything(const gcsim::ThroughputTable& table) {
  for (const std::string& model : table.models())
    for (const std::string& type : table.gpu_types(model))
      for (const std::uint32_t gpus : {0u, 1u, 3u, 64u, 4294967295u}) table.lookup(model, type, gpus);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = gcsim::fuzz;
  const std::string text = fuzz::input_text(data, size);
  gcsim::ThroughputTable table;
  if (!text.empty() && text[0] == '{') {
    const std::string path = fuzz::scratch().write("gavel_throughputs.json", text);
    if (!fuzz::rejected([&] { table = gcsim::read_gavel_throughputs(path); })) look_up_everything(table);
    return 0;
  }
  const std::vector<std::string> files = fuzz::parts(text, 2);
  fuzz::scratch().write("pollux/model/placements.csv", files[0]);
  fuzz::scratch().write("pollux/model/scalability.csv", files[1]);
  if (!fuzz::rejected([&] {
        table = gcsim::read_step_time_throughputs(fuzz::scratch().path() + "/pollux", gcsim::ThroughputSource::kPollux);
      }))
    look_up_everything(table);
  fuzz::scratch().write("sia/model/placements-azure.csv", files[0]);
  fuzz::scratch().write("sia/model/scalability-azure.csv", files[1]);
  if (!fuzz::rejected([&] {
        table = gcsim::read_step_time_throughputs(fuzz::scratch().path() + "/sia", gcsim::ThroughputSource::kSia);
      }))
    look_up_everything(table);
  return 0;
}
