#include "workloads/kinds/dag/frame_chain.hpp"

#include <vector>

namespace gcsim {

std::optional<FrameChainSchedule> parse_frame_chain_schedule(const std::string& name) {
  if (name == "serial") return FrameChainSchedule::kSerial;
  if (name == "parallel") return FrameChainSchedule::kParallel;
  if (name == "pipelined") return FrameChainSchedule::kPipelined;
  return std::nullopt;
}

DagWork frame_chain_work(const FrameChain& chain) {
  DagWork work;
  work.task_overhead = chain.task_overhead;
  work.wake_up = chain.wake_up;
  const bool serial = chain.schedule == FrameChainSchedule::kSerial;
  const std::uint32_t element_pool = 0;
  std::uint32_t render_pool = 0;
  if (serial) {
    work.pools.push_back({"worker", 1, false});
  } else {
    work.pools.push_back({"elements", chain.element_workers > 0 ? chain.element_workers : chain.elements, false});
    work.pools.push_back({"renderer", 1, false});
    render_pool = 1;
  }
  std::vector<std::size_t> previous_elements;
  std::optional<std::size_t> previous_render;
  for (std::uint32_t f = 0; f < chain.frames; ++f) {
    std::vector<std::size_t> elements;
    for (std::uint32_t e = 0; e < chain.elements; ++e) {
      DagTask task{"f" + std::to_string(f) + ".e" + std::to_string(e),
                   element_pool,
                   chain.element_seconds,
                   chain.element_flops,
                   {}};
      for (std::size_t p : previous_elements) task.after.push_back({p, chain.frame_bytes});
      if (chain.schedule == FrameChainSchedule::kParallel && previous_render)
        task.after.push_back({*previous_render, chain.frame_bytes});
      elements.push_back(work.tasks.size());
      work.tasks.push_back(std::move(task));
    }
    DagTask render{"f" + std::to_string(f) + ".render", render_pool, chain.render_seconds, chain.render_flops, {}};
    for (std::size_t e : elements) render.after.push_back({e, chain.frame_bytes});
    if (previous_render) render.after.push_back({*previous_render, chain.frame_bytes});
    previous_render = work.tasks.size();
    work.tasks.push_back(std::move(render));
    previous_elements = std::move(elements);
  }
  return work;
}

}  // namespace gcsim
