// OrderedBitSet: membership, size and the in-order walk across word
// boundaries, against a std::set given the same changes.
#include "sim/core/ordered_bit_set.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

namespace gcsim {
namespace {

std::vector<std::size_t> walk(const OrderedBitSet& bits, std::size_t from = 0) {
  std::vector<std::size_t> members;
  for (std::size_t i = bits.next(from); i != OrderedBitSet::kNone; i = bits.next(i + 1)) members.push_back(i);
  return members;
}

TEST(OrderedBitSet, WalksItsMembersInOrderAcrossWords) {
  OrderedBitSet bits(200);
  EXPECT_TRUE(bits.empty());
  EXPECT_EQ(bits.first(), OrderedBitSet::kNone);
  for (std::size_t i : {199u, 0u, 63u, 64u, 130u}) bits.insert(i);
  bits.insert(64);  // again: no change
  EXPECT_EQ(bits.size(), 5u);
  EXPECT_EQ(walk(bits), (std::vector<std::size_t>{0, 63, 64, 130, 199}));
  EXPECT_EQ(walk(bits, 65), (std::vector<std::size_t>{130, 199}));
  EXPECT_EQ(bits.next(200), OrderedBitSet::kNone);
  bits.erase(0);
  bits.erase(0);  // again: no change
  EXPECT_EQ(bits.first(), 63u);
  EXPECT_EQ(bits.size(), 4u);
  EXPECT_TRUE(bits.contains(130));
  EXPECT_FALSE(bits.contains(131));
}

TEST(OrderedBitSet, AgreesWithAStdSetOverRandomChanges) {
  std::mt19937 random(7);
  const std::size_t bound = 517;
  OrderedBitSet bits(bound);
  std::set<std::size_t> reference;
  for (int k = 0; k < 20000; ++k) {
    const std::size_t i = random() % bound;
    if (random() % 2) {
      bits.insert(i);
      reference.insert(i);
    } else {
      bits.erase(i);
      reference.erase(i);
    }
    const std::size_t from = random() % (bound + 1);
    const auto expected = reference.lower_bound(from);
    ASSERT_EQ(bits.next(from), expected == reference.end() ? OrderedBitSet::kNone : *expected) << k;
    ASSERT_EQ(bits.size(), reference.size()) << k;
  }
  EXPECT_EQ(walk(bits), std::vector<std::size_t>(reference.begin(), reference.end()));
}

}  // namespace
}  // namespace gcsim
