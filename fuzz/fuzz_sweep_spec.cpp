// fuzz_sweep_spec: the reader of `gcsim sweep` specs (app/sweep_spec.hpp), and
// the runs of the grid it reads when there are at most 4096 of them.
#include "app/sweep_spec.hpp"
#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = gcsim::fuzz;
  const std::string path = fuzz::scratch().write("sweep/spec.json", fuzz::input_text(data, size));
  gcsim::SweepSpec spec;
  if (fuzz::rejected([&] { spec = gcsim::read_sweep_spec(path); })) return 0;
  std::size_t runs = 1;
  for (const gcsim::SweepAxis& axis : spec.axes) runs *= axis.values.size();
  if (runs <= 4096) gcsim::sweep_runs(spec);
  return 0;
}
