// cuda_support.hpp: what the CUDA allreduce tools share: errors as
// exceptions, and the skip status when no GPU is visible.
//
//   const int gpus = visible_gpus();
//   if (gpus == 0) { std::cout << "skipped: no CUDA GPU visible\n"; return kExitSkipped; }
//   cuda_check(cudaSetDevice(0), "cudaSetDevice");
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace gcsim::real {

/// The status CTest reads as a skipped test.
constexpr int kExitSkipped = 77;

inline void cuda_check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

/// GPUs the CUDA runtime sees; 0 when none (or no driver).
inline int visible_gpus() {
  int gpus = 0;
  return cudaGetDeviceCount(&gpus) == cudaSuccess ? gpus : 0;
}

}  // namespace gcsim::real
