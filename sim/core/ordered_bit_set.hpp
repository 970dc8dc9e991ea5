// ordered_bit_set.hpp: a set of indices below a fixed bound, one bit each:
// O(1) insert and erase, and members visited in increasing order, 64
// absent ones skipped at a time.
//
// The scheduler state keeps the free GPUs of each node and the nodes of
// each free-GPU count in such sets: each GPU taken or given back changes a
// bit or two, where a balanced tree allocated and rebalanced a node.
//
//   OrderedBitSet free(8);
//   free.insert(3);
//   for (std::size_t i = free.first(); i != OrderedBitSet::kNone; i = free.next(i + 1)) ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gcsim {

class OrderedBitSet {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  explicit OrderedBitSet(std::size_t bound = 0) : words_((bound + 63) / 64, 0) {}

  void insert(std::size_t i) {
    std::uint64_t& word = words_[i / 64];
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    size_ += (word & bit) ? 0 : 1;
    word |= bit;
  }
  void erase(std::size_t i) {
    std::uint64_t& word = words_[i / 64];
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    size_ -= (word & bit) ? 1 : 0;
    word &= ~bit;
  }
  bool contains(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1u; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  /// The smallest member, or kNone.
  std::size_t first() const { return next(0); }
  /// The smallest member >= `from`, or kNone.
  std::size_t next(std::size_t from) const {
    std::size_t w = from / 64;
    if (w >= words_.size()) return kNone;
    std::uint64_t word = words_[w] & (~std::uint64_t{0} << (from % 64));
    while (word == 0) {
      if (++w == words_.size()) return kNone;
      word = words_[w];
    }
    return w * 64 + static_cast<std::size_t>(__builtin_ctzll(word));
  }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t size_ = 0;
};

}  // namespace gcsim
