// frame_chain.hpp: the render farm's frame chain as a DAG job's work, the
// shorthand "frame_chain" of the workload format.
//
// F frames of E elements and one render each. Element e of frame n needs the
// state of frame n-1 (every element of frame n-1); the render of frame n
// needs every element of frame n and the render of frame n-1. Schedules:
//   serial     one worker runs everything:                          F (E + 1) units
//   parallel   W element workers and a renderer, the elements of frame n
//              also waiting for the render of frame n-1:            2F units (W >= E)
//   pipelined  W element workers and a renderer; the render of frame
//              n-1 overlaps the elements of frame n:                F + 1 units (W >= E)
// 10 frames x 3 elements of 1 unit: 40, 20 and 11. Tasks are listed frame
// by frame, elements before the render ("f3.e1", "f3.render"), as the real
// render farm (real/renderfarm/task_graph.hpp) lists them.
//
//   DagWork work = frame_chain_work({.frames = 10, .elements = 3, .schedule = FrameChainSchedule::kPipelined});
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/core/job_spec.hpp"

namespace gcsim {

enum class FrameChainSchedule { kSerial, kParallel, kPipelined };

/// "serial", "parallel", "pipelined"; nothing for anything else.
std::optional<FrameChainSchedule> parse_frame_chain_schedule(const std::string& name);

struct FrameChain {
  std::uint32_t frames = 10;
  std::uint32_t elements = 3;
  double element_seconds = 1;
  double render_seconds = 1;
  double element_flops = 0;  // on top of the seconds, at the worker's GPU speed
  double render_flops = 0;
  double frame_bytes = 0;  // data each task passes to each of its successors
  FrameChainSchedule schedule = FrameChainSchedule::kPipelined;
  std::uint32_t element_workers = 0;  // 0: one per element; ignored by the serial schedule
  double task_overhead = 0;
  double wake_up = 0;
};

DagWork frame_chain_work(const FrameChain& chain);

}  // namespace gcsim
