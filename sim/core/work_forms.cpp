#include "sim/core/work_forms.hpp"

#include "sim/core/dag_work.hpp"
#include "sim/core/overloaded.hpp"

namespace gcsim {

std::string_view form_name(const JobWork& work) {
  return std::visit(
      Overloaded{[](const TrainingWork&) { return kFormNames[0]; }, [](const MeasuredWork&) { return kFormNames[1]; },
                 [](const DagWork&) { return kFormNames[2]; }, [](const NotebookWork&) { return kFormNames[3]; },
                 [](const ServingWork&) { return kFormNames[4]; }, [](const CpuWork&) { return kFormNames[5]; },
                 [](const PhasedWork&) { return kFormNames[6]; }},
      work);
}

const InputPipeline* input_pipeline_of(const JobWork& work) {
  using Pipeline = const InputPipeline*;
  return std::visit(Overloaded{[](const TrainingWork& training) -> Pipeline {
                                 return training.input_pipeline.enabled() ? &training.input_pipeline : nullptr;
                               },
                               [](const MeasuredWork&) -> Pipeline { return nullptr; },
                               [](const DagWork&) -> Pipeline { return nullptr; },
                               [](const NotebookWork&) -> Pipeline { return nullptr; },
                               [](const ServingWork&) -> Pipeline { return nullptr; },
                               [](const CpuWork&) -> Pipeline { return nullptr; },
                               [](const PhasedWork&) -> Pipeline { return nullptr; }},
                    work);
}

std::uint32_t cpu_workers_of(const JobWork& work) {
  using Workers = std::uint32_t;
  return std::visit(
      Overloaded{[](const TrainingWork&) -> Workers { return 0; }, [](const MeasuredWork&) -> Workers { return 0; },
                 [](const DagWork& dag) -> Workers { return dag_cpu_workers(dag); },
                 [](const NotebookWork&) -> Workers { return 0; }, [](const ServingWork&) -> Workers { return 0; },
                 [](const CpuWork&) -> Workers { return 0; }, [](const PhasedWork&) -> Workers { return 0; }},
      work);
}

const ServingWork* replica_of(const JobWork& work) {
  using Replica = const ServingWork*;
  return std::visit(Overloaded{[](const TrainingWork&) -> Replica { return nullptr; },
                               [](const MeasuredWork&) -> Replica { return nullptr; },
                               [](const DagWork&) -> Replica { return nullptr; },
                               [](const NotebookWork&) -> Replica { return nullptr; },
                               [](const ServingWork& serving) -> Replica { return &serving; },
                               [](const CpuWork&) -> Replica { return nullptr; },
                               [](const PhasedWork&) -> Replica { return nullptr; }},
                    work);
}

const NotebookWork* notebook_of(const JobWork& work) {
  using Notebook = const NotebookWork*;
  return std::visit(Overloaded{[](const TrainingWork&) -> Notebook { return nullptr; },
                               [](const MeasuredWork&) -> Notebook { return nullptr; },
                               [](const DagWork&) -> Notebook { return nullptr; },
                               [](const NotebookWork& notebook) -> Notebook { return &notebook; },
                               [](const ServingWork&) -> Notebook { return nullptr; },
                               [](const CpuWork&) -> Notebook { return nullptr; },
                               [](const PhasedWork&) -> Notebook { return nullptr; }},
                    work);
}

}  // namespace gcsim
