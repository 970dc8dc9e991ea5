// fuzz_pai_trace: the Alibaba PAI 2020 reader (traces/pai_trace.hpp) on a
// trace folder made of the input's four parts (fuzz_input.hpp): the task
// table, the job table, the machine spec and the instance table; an empty part
// leaves its table out. The machine spec is also turned into a cluster, and
// the instance table checked against it.
#include "fuzz/fuzz_input.hpp"
#include "traces/pai_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = gcsim::fuzz;
  const std::vector<std::string> tables = fuzz::parts(fuzz::input_text(data, size), 4);
  const char* names[] = {"pai/pai_task_table.csv", "pai/pai_job_table.csv", "pai/pai_machine_spec.csv",
                         "pai/pai_instance_table.csv"};
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (i == 0 || !tables[i].empty())
      fuzz::scratch().write(names[i], tables[i]);
    else
      fuzz::scratch().remove(names[i]);
  }
  const std::string folder = fuzz::scratch().path() + "/pai";
  for (const bool strict : {false, true}) {
    gcsim::TraceReadOptions options;
    options.strict = strict;
    fuzz::rejected([&] { gcsim::read_pai_trace(folder, options); });
    if (tables[2].empty()) continue;
    gcsim::PaiMachineSpec spec;
    if (fuzz::rejected([&] { spec = gcsim::read_pai_machine_spec(folder + "/pai_machine_spec.csv", strict); }))
      continue;
    fuzz::rejected([&] { gcsim::pai_cluster_json(spec, "pai", {}); });
    if (!tables[3].empty())
      fuzz::rejected([&] { gcsim::check_pai_instance_table(folder + "/pai_instance_table.csv", &spec, strict); });
  }
  return 0;
}
