#include "sim/core/phased_work.hpp"

namespace gcsim {

std::vector<Transfer> exchange_transfers(const PhaseExchange& exchange, std::uint32_t ranks) {
  std::vector<Transfer> transfers;
  const std::uint32_t size = exchange.groups.size, stride = exchange.groups.stride;
  if (size < 2) return transfers;
  for (std::uint32_t r = 0; r < ranks; ++r) {
    const std::uint32_t digit = (r / stride) % size;
    const std::uint32_t first = r - digit * stride;  // the group's rank of digit 0
    switch (exchange.exchange) {
      case Exchange::kRingStep:
        transfers.push_back({r, first + ((digit + 1) % size) * stride});
        break;
      case Exchange::kAllToAll:
        for (std::uint32_t k = 1; k < size; ++k) transfers.push_back({r, first + ((digit + k) % size) * stride});
        break;
      case Exchange::kChainNext:
      case Exchange::kBroadcast:  // the chain a pipelined broadcast's chunks follow
        if (digit + 1 < size) transfers.push_back({r, r + stride});
        break;
      case Exchange::kChainPrev:
        if (digit > 0) transfers.push_back({r, r - stride});
        break;
    }
  }
  return transfers;
}

std::uint32_t latencies_per_message(const PhaseExchange& exchange) {
  // A broadcast's chunks reach the last rank of the chain one hop at a time.
  if (exchange.exchange == Exchange::kBroadcast && exchange.groups.size > 1) return exchange.groups.size - 1;
  return 1;
}

}  // namespace gcsim
