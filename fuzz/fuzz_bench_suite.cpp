// fuzz_bench_suite: the readers of `gcsim bench` suites and baselines
// (app/bench_suite.hpp), each on the whole input.
#include "app/bench_suite.hpp"
#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = gcsim::fuzz;
  const std::string path = fuzz::scratch().write("bench/suite.json", fuzz::input_text(data, size));
  fuzz::rejected([&] { gcsim::read_bench_suite(path); });
  gcsim::BenchBaseline baseline;
  if (!fuzz::rejected([&] { baseline = gcsim::read_bench_baseline(path); })) gcsim::bench_baseline_json(baseline);
  return 0;
}
