// gpu_set.hpp: a set of GPU ids with O(1) insert and erase, and a walk over
// its members in no particular order.
//
// The scheduler state keeps the GPUs a fractional job may go to in such sets,
// so that a placement visits only them rather than every GPU.
//
//   GpuSet partly_free(gpu_count);
//   partly_free.set(g, true);
//   for (GpuId g : partly_free.members()) ...
#pragma once

#include <cstddef>
#include <vector>

#include "sim/core/ids.hpp"

namespace gcsim {

class GpuSet {
 public:
  explicit GpuSet(std::size_t gpu_count = 0) : place_(gpu_count, kAbsent) {}

  /// Puts the GPU in (true) or takes it out (false); nothing when it already is so.
  void set(GpuId gpu, bool member) {
    std::size_t& place = place_[gpu];
    if (member && place == kAbsent) {
      place = members_.size();
      members_.push_back(gpu);
    } else if (!member && place != kAbsent) {
      // The last member takes its place.
      members_[place] = members_.back();
      place_[members_.back()] = place;
      members_.pop_back();
      place = kAbsent;
    }
  }
  /// The members, in no particular order; valid until the next set().
  const std::vector<GpuId>& members() const { return members_; }

 private:
  static constexpr std::size_t kAbsent = static_cast<std::size_t>(-1);
  std::vector<GpuId> members_;
  std::vector<std::size_t> place_;  // per GPU: its index in members_, or kAbsent
};

}  // namespace gcsim
