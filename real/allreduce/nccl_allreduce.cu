// nccl_allreduce: NCCL's ncclAllReduce (sum of floats) over every visible
// GPU from one process, timed with CUDA events and checked element by
// element; the same CSV columns as real_allreduce (allreduce_report.hpp).
//
//   nccl_allreduce --bytes 1MiB,64MiB --warmup 2 --iterations 10 --csv out.csv
//
// With no GPU it prints "skipped: ..." and exits 77, the status CTest reads
// as a skipped test.
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "real/allreduce/allreduce_report.hpp"
#include "real/allreduce/cuda_support.hpp"
#include "real/allreduce/result_check.hpp"

namespace {

using namespace gcsim::real;

void nccl_check(ncclResult_t res, const char* what) {
  if (res != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(res));
}

MeasurementOptions parse(int argc, char** argv) {
  MeasurementOptions o;
  o.warmup = 2;
  o.iterations = 10;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + ": missing value");
    if (!read_measurement_option(flag, argv[++i], o)) throw std::invalid_argument("unknown option '" + flag + "'");
  }
  return o;
}

AllreduceRow measure(const std::vector<ncclComm_t>& comms, const std::vector<cudaStream_t>& streams, std::size_t bytes,
                     int warmup, int iterations) {
  const int gpus = static_cast<int>(comms.size());
  const std::size_t count = bytes / sizeof(float);
  std::vector<float*> buffers(gpus);
  std::vector<cudaEvent_t> start(gpus), stop(gpus);
  std::vector<std::vector<float>> host(gpus, std::vector<float>(count));
  for (int g = 0; g < gpus; ++g) {
    cuda_check(cudaSetDevice(g), "cudaSetDevice");
    cuda_check(cudaMalloc(&buffers[g], count * sizeof(float)), "cudaMalloc");
    cuda_check(cudaEventCreate(&start[g]), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop[g]), "cudaEventCreate");
    fill_rank_input(static_cast<std::uint32_t>(g), host[g]);
  }
  AllreduceRow row;
  row.impl = "nccl";
  row.transport = "cuda";
  row.ranks = static_cast<std::uint32_t>(gpus);
  row.bytes = static_cast<double>(bytes);
  row.warmup = warmup;
  row.iterations = iterations;
  std::vector<float> result(count);
  std::vector<std::size_t> wrong(gpus, 0);  // per GPU, over all iterations
  for (int i = 0; i < warmup + iterations; ++i) {
    for (int g = 0; g < gpus; ++g) {
      cuda_check(cudaSetDevice(g), "cudaSetDevice");
      fill_rank_input(static_cast<std::uint32_t>(g), host[g]);
      cuda_check(cudaMemcpy(buffers[g], host[g].data(), count * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
      cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
    for (int g = 0; g < gpus; ++g) {
      cuda_check(cudaSetDevice(g), "cudaSetDevice");
      cuda_check(cudaEventRecord(start[g], streams[g]), "cudaEventRecord");
    }
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (int g = 0; g < gpus; ++g)
      nccl_check(ncclAllReduce(buffers[g], buffers[g], count, ncclFloat, ncclSum, comms[g], streams[g]),
                 "ncclAllReduce");
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
    double slowest = 0;
    for (int g = 0; g < gpus; ++g) {
      cuda_check(cudaSetDevice(g), "cudaSetDevice");
      cuda_check(cudaEventRecord(stop[g], streams[g]), "cudaEventRecord");
      cuda_check(cudaStreamSynchronize(streams[g]), "cudaStreamSynchronize");
      float ms = 0;
      cuda_check(cudaEventElapsedTime(&ms, start[g], stop[g]), "cudaEventElapsedTime");
      slowest = std::max(slowest, ms / 1e3);
    }
    if (i >= warmup) row.seconds.push_back(slowest);
    for (int g = 0; g < gpus; ++g) {
      cuda_check(cudaSetDevice(g), "cudaSetDevice");
      cuda_check(cudaMemcpy(result.data(), buffers[g], count * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
      wrong[g] += check_allreduce_result(static_cast<std::uint32_t>(gpus), result).mismatches;
    }
  }
  row.errors = *std::max_element(wrong.begin(), wrong.end());
  for (int g = 0; g < gpus; ++g) {
    cudaSetDevice(g);
    cudaFree(buffers[g]);
    cudaEventDestroy(start[g]);
    cudaEventDestroy(stop[g]);
  }
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  MeasurementOptions o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "nccl_allreduce: " << e.what() << "\nusage: nccl_allreduce [--bytes LIST] [--warmup W] "
              << "[--iterations K] [--csv FILE]\n";
    return 2;
  }
  const int gpus = visible_gpus();
  if (gpus == 0) {
    std::cout << "skipped: no CUDA GPU visible\n";
    return kExitSkipped;
  }
  try {
    std::vector<ncclComm_t> comms(gpus);
    std::vector<int> devices(gpus);
    for (int g = 0; g < gpus; ++g) devices[g] = g;
    nccl_check(ncclCommInitAll(comms.data(), gpus, devices.data()), "ncclCommInitAll");
    std::vector<cudaStream_t> streams(gpus);
    for (int g = 0; g < gpus; ++g) {
      cuda_check(cudaSetDevice(g), "cudaSetDevice");
      cuda_check(cudaStreamCreate(&streams[g]), "cudaStreamCreate");
    }
    std::vector<AllreduceRow> rows;
    std::size_t errors = 0;
    for (double size : o.sizes) {
      rows.push_back(measure(comms, streams, static_cast<std::size_t>(size), o.warmup, o.iterations));
      std::cerr << allreduce_summary_line(rows.back()) << '\n';
      errors += rows.back().errors;
    }
    for (int g = 0; g < gpus; ++g) {
      ncclCommDestroy(comms[g]);
      cudaSetDevice(g);
      cudaStreamDestroy(streams[g]);
    }
    write_allreduce_csv(o.csv, rows);
    return errors == 0 ? 0 : 3;
  } catch (const std::exception& e) {
    std::cerr << "nccl_allreduce: " << e.what() << '\n';
    return 1;
  }
}
