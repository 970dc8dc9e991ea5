#include "policies/crux/link_loads.hpp"

#include <algorithm>
#include <limits>

#include "policies/kit/rank_traffic.hpp"

namespace gcsim {
namespace {

constexpr std::uint64_t kIndexBits = 32;

FabricHop hop_of(std::uint64_t key) {
  return FabricHop{static_cast<FabricLinkKind>(key >> (kIndexBits + 1)),
                   static_cast<std::uint32_t>((key >> 1) & 0xffffffffu), (key & 1) != 0};
}

}  // namespace

double JobTraffic::intensity() const {
  return seconds_alone > 0 ? flops / seconds_alone : std::numeric_limits<double>::infinity();
}

std::uint64_t LinkLoads::key(const FabricHop& hop) {
  return (static_cast<std::uint64_t>(hop.kind) << (kIndexBits + 1)) | (static_cast<std::uint64_t>(hop.index) << 1) |
         (hop.up ? 1u : 0u);
}

double LinkLoads::bandwidth(std::uint64_t key) const { return layout_.fabric().links().at(hop_of(key)).bandwidth; }

JobTraffic LinkLoads::traffic(const JobSpec& job, const std::vector<GpuId>& gpus) const {
  JobTraffic traffic;
  const FabricLayout& fabric = layout_.fabric();
  for (const RankTransfer& t : iteration_traffic(job.work, static_cast<std::uint32_t>(gpus.size())))
    for (const FabricHop& hop : fabric.route(fabric.gpu_place(gpus[t.from]), fabric.gpu_place(gpus[t.to])))
      traffic.bytes[key(hop)] += t.bytes;
  for (const auto& [link, bytes] : traffic.bytes)
    traffic.seconds_alone = std::max(traffic.seconds_alone, bytes / bandwidth(link));
  const double per_gpu = iteration_flops_per_rank(job.work);
  double slowest = std::numeric_limits<double>::infinity();
  for (GpuId g : gpus) slowest = std::min(slowest, layout_.gpu_type_of(g).flops);
  traffic.flops = per_gpu * static_cast<double>(gpus.size());
  traffic.iteration_seconds = (gpus.empty() ? 0 : per_gpu / slowest) + traffic.seconds_alone;
  return traffic;
}

void LinkLoads::add(const JobTraffic& job) {
  if (job.iteration_seconds <= 0) return;
  for (const auto& [link, bytes] : job.bytes) rates_[link] += bytes / job.iteration_seconds;
}

double LinkLoads::busiest_utilization(const JobTraffic& job) const {
  double busiest = 0;
  if (job.iteration_seconds <= 0) return busiest;
  for (const auto& [link, bytes] : job.bytes) {
    const auto others = rates_.find(link);
    const double rate = bytes / job.iteration_seconds + (others == rates_.end() ? 0 : others->second);
    busiest = std::max(busiest, rate / bandwidth(link));
  }
  return busiest;
}

double LinkLoads::rack_utilization(RackId rack) const {
  const FabricLayout& fabric = layout_.fabric();
  double busiest = 0;
  auto look = [&](FabricLinkKind kind, std::uint32_t index) {
    for (const bool up : {true, false}) {
      const std::uint64_t link = key(FabricHop{kind, index, up});
      if (const auto it = rates_.find(link); it != rates_.end())
        busiest = std::max(busiest, it->second / bandwidth(link));
    }
  };
  for (std::uint32_t leaf = 0; leaf < fabric.leaf_count(rack); ++leaf)
    look(FabricLinkKind::kLeafUplink, fabric.first_leaf(rack) + leaf);
  if (fabric.pod_count() > 1) look(FabricLinkKind::kPodUplink, fabric.pod_of_rack(rack));
  return busiest;
}

}  // namespace gcsim
