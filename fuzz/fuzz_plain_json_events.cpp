// fuzz_plain_json_events: read_plain_json_events (sim/io/plain_json_events.hpp)
// against nlohmann's SAX parser on arbitrary bytes. Where the fast reader
// takes a document, nlohmann must read it too and give the same events, to
// the bit of every number; where it declines, nlohmann reads the document
// instead, so declining is always allowed. A difference aborts: a finding.
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fuzz/fuzz_input.hpp"
#include "fuzz/json_event_log.hpp"
#include "sim/io/plain_json_events.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = gcsim::fuzz::input_text(data, size);
  std::istringstream in(text);
  gcsim::JsonEventLog plain;
  if (!gcsim::read_plain_json_events(in, plain)) return 0;
  gcsim::JsonEventLog reference;
  if (!nlohmann::json::sax_parse(text, &reference)) {
    std::fprintf(stderr, "read_plain_json_events read a document nlohmann rejects\n");
    std::abort();
  }
  if (plain.lines != reference.lines) {
    std::fprintf(stderr, "read_plain_json_events gave other events than nlohmann\n");
    std::abort();
  }
  return 0;
}
