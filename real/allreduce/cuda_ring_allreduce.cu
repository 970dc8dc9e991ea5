// cuda_ring_allreduce: the ring allreduce of ring_schedule.hpp (reduce-scatter
// then all-gather, 2(N-1) steps of S/N bytes) run on GPUs: one rank per GPU
// when several are visible, else N ranks sharing the one GPU. At every step
// each rank copies its predecessor's chunk with cudaMemcpyPeerAsync (a plain
// device-to-device copy when both ranks share a GPU) into a receive buffer
// and adds it into its own buffer with a kernel (reduce-scatter), or copies it
// straight into place (all-gather). Each rank runs on its own stream; a rank
// starts step s+1 only once its predecessor finished step s (a CUDA event),
// which is the data dependency of the ring and keeps the ranks in lock-step.
// Timed with CUDA events, checked element by element against the exact sum
// (result_check.hpp); the same CSV columns as real_allreduce and
// nccl_allreduce (allreduce_report.hpp).
//
// It also calibrates what the simulation of these runs needs: the time of a
// one-element peer copy (hop_latency_s, the per-step latency) and the rate of
// one large copy alone (goodput_Bps).
//
//   cuda_ring_allreduce --ranks 2,4 --bytes 1MiB,64MiB --warmup 2 --iterations 10 --csv out.csv
//
// With no GPU it prints "skipped: ..." and exits 77, the status CTest reads
// as a skipped test.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "real/allreduce/allreduce_report.hpp"
#include "real/allreduce/cuda_support.hpp"
#include "real/allreduce/result_check.hpp"
#include "real/allreduce/ring_schedule.hpp"

namespace {

using namespace gcsim::real;

struct Options {
  std::vector<std::uint32_t> ranks;  // empty: one per GPU, or 4 on a single GPU
  MeasurementOptions measure{{1048576.0}, 2, 10, ""};
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + ": missing value");
    const std::string value = argv[++i];
    if (read_measurement_option(flag, value, o.measure)) continue;
    if (flag != "--ranks") throw std::invalid_argument("unknown option '" + flag + "'");
    for (const std::string& item : split(value)) {
      const int n = std::atoi(item.c_str());
      if (n < 2) throw std::invalid_argument("--ranks: '" + item + "' is not a rank count of at least 2");
      o.ranks.push_back(static_cast<std::uint32_t>(n));
    }
  }
  return o;
}

__global__ void add_into(float* dst, const float* src, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    dst[i] += src[i];
}

// The N ranks of one ring: buffers, streams and the per-step events, each on its rank's GPU.
class GpuRing {
 public:
  GpuRing(std::uint32_t ranks, int gpus, std::size_t count) : ranks_(ranks), count_(count) {
    const std::size_t max_chunk = count / ranks + 1;
    for (std::uint32_t r = 0; r < ranks; ++r) {
      Rank rank;
      rank.device = static_cast<int>(r) % gpus;
      cuda_check(cudaSetDevice(rank.device), "cudaSetDevice");
      cuda_check(cudaMalloc(&rank.data, count * sizeof(float)), "cudaMalloc");
      cuda_check(cudaMalloc(&rank.recv, max_chunk * sizeof(float)), "cudaMalloc");
      cuda_check(cudaStreamCreateWithFlags(&rank.stream, cudaStreamNonBlocking), "cudaStreamCreate");
      cuda_check(cudaEventCreate(&rank.start), "cudaEventCreate");
      cuda_check(cudaEventCreate(&rank.stop), "cudaEventCreate");
      rank.step_done.resize(ring_steps(ranks));
      for (cudaEvent_t& e : rank.step_done)
        cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
      ranks_data_.push_back(rank);
    }
  }
  GpuRing(const GpuRing&) = delete;
  GpuRing& operator=(const GpuRing&) = delete;
  ~GpuRing() {
    for (Rank& rank : ranks_data_) {
      cudaSetDevice(rank.device);
      for (cudaEvent_t e : rank.step_done) cudaEventDestroy(e);
      cudaEventDestroy(rank.start);
      cudaEventDestroy(rank.stop);
      cudaStreamDestroy(rank.stream);
      cudaFree(rank.recv);
      cudaFree(rank.data);
    }
  }

  void load_inputs(std::vector<float>& host) {
    for (std::uint32_t r = 0; r < ranks_; ++r) {
      fill_rank_input(r, host);
      cuda_check(cudaSetDevice(ranks_data_[r].device), "cudaSetDevice");
      cuda_check(cudaMemcpy(ranks_data_[r].data, host.data(), count_ * sizeof(float), cudaMemcpyHostToDevice),
                 "cudaMemcpy");
    }
    synchronize();
  }

  // One allreduce; returns the slowest rank's time from its start event to its stop event.
  double allreduce() {
    for (Rank& rank : ranks_data_) {
      cuda_check(cudaSetDevice(rank.device), "cudaSetDevice");
      cuda_check(cudaEventRecord(rank.start, rank.stream), "cudaEventRecord");
    }
    for (std::uint32_t step = 0; step < ring_steps(ranks_); ++step) {
      for (std::uint32_t r = 0; r < ranks_; ++r) {
        Rank& self = ranks_data_[r];
        const Rank& pred = ranks_data_[(r + ranks_ - 1) % ranks_];
        cuda_check(cudaSetDevice(self.device), "cudaSetDevice");
        // The predecessor's chunk is final once it finished the previous step.
        if (step > 0) cuda_check(cudaStreamWaitEvent(self.stream, pred.step_done[step - 1], 0), "cudaStreamWaitEvent");
        const RingStep what = ring_step(r, ranks_, step);
        const ChunkRange chunk = chunk_range(count_, ranks_, what.recv_chunk);
        if (chunk.size() > 0) {
          const std::size_t bytes = chunk.size() * sizeof(float);
          if (what.phase == RingPhase::kReduceScatter) {
            cuda_check(
                cudaMemcpyPeerAsync(self.recv, self.device, pred.data + chunk.begin, pred.device, bytes, self.stream),
                "cudaMemcpyPeerAsync");
            const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((chunk.size() + 255) / 256, 1024));
            add_into<<<blocks, 256, 0, self.stream>>>(self.data + chunk.begin, self.recv, chunk.size());
            cuda_check(cudaGetLastError(), "add_into");
          } else {
            cuda_check(cudaMemcpyPeerAsync(self.data + chunk.begin, self.device, pred.data + chunk.begin, pred.device,
                                           bytes, self.stream),
                       "cudaMemcpyPeerAsync");
          }
        }
        cuda_check(cudaEventRecord(self.step_done[step], self.stream), "cudaEventRecord");
      }
    }
    double slowest = 0;
    for (Rank& rank : ranks_data_) {
      cuda_check(cudaSetDevice(rank.device), "cudaSetDevice");
      cuda_check(cudaEventRecord(rank.stop, rank.stream), "cudaEventRecord");
    }
    for (Rank& rank : ranks_data_) {
      cuda_check(cudaSetDevice(rank.device), "cudaSetDevice");
      cuda_check(cudaEventSynchronize(rank.stop), "cudaEventSynchronize");
      float ms = 0;
      cuda_check(cudaEventElapsedTime(&ms, rank.start, rank.stop), "cudaEventElapsedTime");
      slowest = std::max(slowest, static_cast<double>(ms) / 1e3);
    }
    return slowest;
  }

  // The largest number of wrong elements on any one rank.
  std::size_t wrong_elements(std::vector<float>& host) {
    std::size_t worst = 0;
    for (const Rank& rank : ranks_data_) {
      cuda_check(cudaSetDevice(rank.device), "cudaSetDevice");
      cuda_check(cudaMemcpy(host.data(), rank.data, count_ * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
      worst = std::max(worst, check_allreduce_result(ranks_, host).mismatches);
    }
    return worst;
  }

  void synchronize() {
    for (const Rank& rank : ranks_data_) {
      cuda_check(cudaSetDevice(rank.device), "cudaSetDevice");
      cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
  }

 private:
  struct Rank {
    int device = 0;
    float* data = nullptr;
    float* recv = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    std::vector<cudaEvent_t> step_done;
  };
  std::uint32_t ranks_;
  std::size_t count_;
  std::vector<Rank> ranks_data_;
};

// Median time of a copy of `bytes` from GPU `from` to GPU `to` on one stream, alone.
double copy_seconds(int from, int to, std::size_t bytes, int repeats) {
  cuda_check(cudaSetDevice(to), "cudaSetDevice");
  void* dst = nullptr;
  void* src = nullptr;
  cuda_check(cudaMalloc(&dst, bytes), "cudaMalloc");
  cuda_check(cudaSetDevice(from), "cudaSetDevice");
  cuda_check(cudaMalloc(&src, bytes), "cudaMalloc");
  cuda_check(cudaSetDevice(to), "cudaSetDevice");
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  cuda_check(cudaEventCreate(&start), "cudaEventCreate");
  cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> times;
  for (int i = 0; i < repeats + 2; ++i) {
    cuda_check(cudaEventRecord(start, stream), "cudaEventRecord");
    cuda_check(cudaMemcpyPeerAsync(dst, to, src, from, bytes, stream), "cudaMemcpyPeerAsync");
    cuda_check(cudaEventRecord(stop, stream), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    if (i >= 2) times.push_back(static_cast<double>(ms) / 1e3);  // the first two warm up
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  cudaFree(dst);
  cudaSetDevice(from);
  cudaFree(src);
  return median(times);
}

AllreduceRow measure(std::uint32_t ranks, int gpus, std::size_t bytes, int warmup, int iterations, double hop_latency_s,
                     double goodput_Bps) {
  const std::size_t count = bytes / sizeof(float);
  GpuRing ring(ranks, gpus, count);
  std::vector<float> host(count);
  AllreduceRow row;
  row.impl = "cuda-ring";
  row.transport = gpus > 1 ? "cuda-peer" : "cuda-one-gpu";
  row.ranks = ranks;
  row.bytes = static_cast<double>(count * sizeof(float));
  row.warmup = warmup;
  row.iterations = iterations;
  row.hop_latency_s = hop_latency_s;
  row.goodput_Bps = goodput_Bps;
  for (int i = 0; i < warmup + iterations; ++i) {
    ring.load_inputs(host);
    const double seconds = ring.allreduce();
    if (i >= warmup) row.seconds.push_back(seconds);
    row.errors = std::max(row.errors, ring.wrong_elements(host));
  }
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "cuda_ring_allreduce: " << e.what() << "\nusage: cuda_ring_allreduce [--ranks LIST] [--bytes LIST] "
              << "[--warmup W] [--iterations K] [--csv FILE]\n";
    return 2;
  }
  const int gpus = visible_gpus();
  if (gpus == 0) {
    std::cout << "skipped: no CUDA GPU visible\n";
    return kExitSkipped;
  }
  try {
    if (o.ranks.empty()) o.ranks.push_back(gpus > 1 ? static_cast<std::uint32_t>(gpus) : 4u);
    for (int a = 0; a < gpus; ++a)
      for (int b = 0; b < gpus; ++b) {
        int can = 0;
        if (a != b && cudaDeviceCanAccessPeer(&can, a, b) == cudaSuccess && can) {
          cudaSetDevice(a);
          cudaDeviceEnablePeerAccess(b, 0);  // cudaErrorPeerAccessAlreadyEnabled is harmless
          cudaGetLastError();
        }
      }
    // Calibration between rank 0's GPU and rank 1's (the same GPU when only one exists).
    const int peer = gpus > 1 ? 1 : 0;
    const double hop_latency = copy_seconds(0, peer, sizeof(float), 50);
    const std::size_t bulk = 256u << 20;
    const double goodput = static_cast<double>(bulk) / copy_seconds(0, peer, bulk, 10);
    cudaDeviceProp prop{};
    cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::cerr << "cuda_ring_allreduce: " << gpus << " x " << prop.name << "; one-element copy " << hop_latency * 1e6
              << " us, 256 MiB copy " << goodput / 1e9 << " GB/s\n";

    std::vector<AllreduceRow> rows;
    std::size_t errors = 0;
    for (std::uint32_t ranks : o.ranks)
      for (double size : o.measure.sizes) {
        rows.push_back(measure(ranks, gpus, static_cast<std::size_t>(size), o.measure.warmup, o.measure.iterations,
                               hop_latency, goodput));
        std::cerr << allreduce_summary_line(rows.back()) << '\n';
        errors += rows.back().errors;
      }
    write_allreduce_csv(o.measure.csv, rows);
    return errors == 0 ? 0 : 3;
  } catch (const std::exception& e) {
    std::cerr << "cuda_ring_allreduce: " << e.what() << '\n';
    return 1;
  }
}
