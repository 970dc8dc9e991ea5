#include "policies/kit/gpu_summed_set.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <tuple>
#include <vector>

namespace gcsim {
namespace {

struct Item {
  int key;
  int tie;
  std::size_t gpus;
  bool operator<(const Item& other) const { return std::tie(key, tie) < std::tie(other.key, other.tie); }
};

// What a walk over every entry would add up.
std::size_t walked(const std::vector<Item>& items, int above) {
  std::size_t gpus = 0;
  for (const Item& item : items)
    if (item.key > above) gpus += item.gpus;
  return gpus;
}

TEST(GpuSummedSet, SumsTheGpusPastAPointOfTheOrder) {
  GpuSummedSet<Item> set;
  set.insert({10, 0, 4});
  set.insert({20, 0, 1});
  set.insert({30, 0, 8});
  set.insert({20, 1, 2});
  EXPECT_EQ(set.gpus_of_suffix([](const Item& i) { return i.key > 15; }), 11u);
  EXPECT_EQ(set.gpus_of_suffix([](const Item& i) { return i.key > 20; }), 8u);
  EXPECT_EQ(set.gpus_of_suffix([](const Item& i) { return i.key > 5; }), 15u);
  EXPECT_EQ(set.gpus_of_suffix([](const Item& i) { return i.key > 30; }), 0u);
  set.erase({20, 0, 1});
  EXPECT_EQ(set.gpus_of_suffix([](const Item& i) { return i.key > 15; }), 10u);
  std::vector<int> keys;
  for (const Item& item : set) keys.push_back(item.key * 10 + item.tie);
  EXPECT_EQ(keys, (std::vector<int>{100, 201, 300}));
}

TEST(GpuSummedSet, AgreesWithAWalkAfterRandomInsertsAndErases) {
  std::mt19937 random(7);
  GpuSummedSet<Item> set;
  std::vector<Item> items;
  for (int step = 0; step < 3000; ++step) {
    if (items.empty() || random() % 3 != 0) {
      const Item item{static_cast<int>(random() % 200), step, 1 + random() % 16};
      set.insert(item);
      items.push_back(item);
    } else {
      const std::size_t at = random() % items.size();
      set.erase(items[at]);
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(at));
    }
    const int above = static_cast<int>(random() % 210) - 5;
    ASSERT_EQ(set.gpus_of_suffix([&](const Item& i) { return i.key > above; }), walked(items, above))
        << "step " << step;
  }
}

}  // namespace
}  // namespace gcsim
