// fuzz_native_workload: the native workload reader (workloads/native_workload.hpp)
// on arbitrary text, both the streaming reader and the whole-document one;
// they must agree on whether the text is a workload, and on its jobs' ids.
#include <sstream>

#include "fuzz/fuzz_input.hpp"
#include "sim/io/json_input.hpp"
#include "workloads/native_workload.hpp"

namespace {

std::vector<std::string> ids(const std::vector<gcsim::JobSpec>& jobs) {
  std::vector<std::string> out;
  for (const gcsim::JobSpec& job : jobs) out.push_back(job.id);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = gcsim::fuzz::input_text(data, size);
  std::vector<gcsim::JobSpec> streamed, whole;
  const bool stream_rejects = gcsim::fuzz::rejected([&] {
    std::istringstream in(text);
    streamed = gcsim::read_native_workload(in, "workload.json");
  });
  const bool document_rejects = gcsim::fuzz::rejected(
      [&] { whole = gcsim::parse_native_workload(gcsim::parse_json_text(text, "workload.json"), "workload.json"); });
  if (stream_rejects != document_rejects)
    gcsim::fuzz::finding(std::string("the streaming reader ") + (stream_rejects ? "rejects" : "accepts") +
                         " a workload the whole-document reader " + (document_rejects ? "rejects" : "accepts"));
  if (ids(streamed) != ids(whole)) gcsim::fuzz::finding("the two workload readers read different jobs");
  return 0;
}
