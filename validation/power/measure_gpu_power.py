#!/usr/bin/env python3
"""One GPU's power draw under a few loads, sampled through NVML.

What the power model's figures for a GPU type (docs/cluster-format.md: idle,
busy) stand for, read off a real GPU: it samples GPU 0's power, utilization
and SM clock every 50 ms through NVML (nvidia-ml-py's pynvml) while the GPU
  - idles (10 s),
  - multiplies 8192 x 8192 bf16 matrices in a loop (20 s): compute-bound,
  - copies a 2 GiB buffer device to device in a loop (15 s): memory-bound,
  - trains a 12-layer, 2048-wide transformer (bf16, sequence 2048, micro-batch
    8, AdamW) step after step (20 s), the host launching every kernel,
  - idles again (10 s),
and writes every sample (power-samples.csv: time_s, phase, watts,
util_percent, sm_mhz) and per phase the samples' mean, 5th, 50th and 95th
percentiles and maximum, with the loads' rates (power-summary.json). It
changes no setting of the GPU (no power limit, no clock lock): it reads.

Needs a CUDA GPU, PyTorch and nvidia-ml-py; the recorded run on an H200 is in
validation/recorded/ (h200-power-summary.json, h200-power-samples.csv).

Usage: measure_gpu_power.py OUT_DIR [--prefix NAME-]
"""
import argparse
import json
import statistics
import threading
import time

PHASES = ["idle-before", "matmul-bf16", "copy-d2d", "train-transformer", "idle-after"]


class Sampler:
    """Samples GPU 0 every `period` seconds on a thread, labelled with the current phase."""

    def __init__(self, period=0.05):
        import pynvml

        pynvml.nvmlInit()
        self.nvml = pynvml
        self.handle = pynvml.nvmlDeviceGetHandleByIndex(0)
        self.period = period
        self.phase = PHASES[0]
        self.samples = []
        self.stopped = False
        self.thread = threading.Thread(target=self.run)

    def run(self):
        nvml, h = self.nvml, self.handle
        while not self.stopped:
            self.samples.append((time.time(), self.phase, nvml.nvmlDeviceGetPowerUsage(h) / 1000.0,
                                 nvml.nvmlDeviceGetUtilizationRates(h).gpu,
                                 nvml.nvmlDeviceGetClockInfo(h, nvml.NVML_CLOCK_SM)))
            time.sleep(self.period)


def loop_for(seconds, body, sync):
    """Runs body() until `seconds` have passed; returns (calls, elapsed seconds)."""
    calls, start = 0, time.time()
    while time.time() < start + seconds:
        body()
        sync()
        calls += 1
    return calls, time.time() - start


def measure(sampler):
    import torch

    dev = torch.device("cuda")
    sync = torch.cuda.synchronize
    rates = {"gpu": torch.cuda.get_device_name(0)}
    time.sleep(10)

    sampler.phase = "matmul-bf16"
    n = 8192
    a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn_like(a)
    calls, elapsed = loop_for(20, lambda: [a @ b for _ in range(20)], sync)
    rates["matmul_bf16_tflops"] = calls * 20 * 2 * n**3 / elapsed / 1e12
    del a, b

    sampler.phase = "copy-d2d"
    x = torch.empty(2 * 1024**3, dtype=torch.uint8, device=dev)
    y = torch.empty_like(x)
    calls, elapsed = loop_for(15, lambda: [y.copy_(x) for _ in range(10)], sync)
    rates["copy_tb_per_s_read_plus_write"] = calls * 10 * 2 * x.numel() / elapsed / 1e12
    del x, y

    sampler.phase = "train-transformer"
    layers, hidden, seq, micro_batch = 12, 2048, 2048, 8

    def layer():
        return torch.nn.TransformerEncoderLayer(hidden, 16, 4 * hidden, batch_first=True, norm_first=True,
                                                dropout=0.0)

    model = torch.nn.Sequential(*[layer() for _ in range(layers)]).to(dev, torch.bfloat16)
    params = sum(p.numel() for p in model.parameters())
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    batch = torch.randn(micro_batch, seq, hidden, device=dev, dtype=torch.bfloat16)

    def step():
        model(batch).float().pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()

    for _ in range(3):  # warm-up
        step()
    sync()
    steps, elapsed = loop_for(20, step, sync)
    step_s = elapsed / steps
    # 6 x parameters x tokens, and the attention's scores and values (2 x 2 x s^2 x h a layer forward, x 3 with backward).
    flops = 6 * params * micro_batch * seq + 12 * layers * seq * seq * hidden * micro_batch
    rates["train"] = {"layers": layers, "hidden": hidden, "seq": seq, "micro_batch": micro_batch, "params": params,
                      "step_s": step_s, "model_tflops": flops / step_s / 1e12, "steps": steps}
    del model, optimizer, batch
    torch.cuda.empty_cache()

    sampler.phase = "idle-after"
    time.sleep(10)
    return rates


def summarize(samples):
    out = {}
    for phase in PHASES:
        rows = [s for s in samples if s[1] == phase]
        if not rows:
            continue
        watts = sorted(s[2] for s in rows)

        def at(q):
            return watts[min(len(watts) - 1, int(q * len(watts)))]

        out[phase] = {"samples": len(watts), "mean_w": statistics.mean(watts), "p5_w": at(0.05), "p50_w": at(0.5),
                      "p95_w": at(0.95), "max_w": watts[-1], "mean_util": statistics.mean(s[3] for s in rows),
                      "mean_sm_mhz": statistics.mean(s[4] for s in rows)}
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--prefix", default="")
    args = parser.parse_args()
    sampler = Sampler()
    sampler.thread.start()
    try:
        rates = measure(sampler)
    finally:
        sampler.stopped = True
        sampler.thread.join()
    summary = {**rates, **summarize(sampler.samples)}
    with open(f"{args.out_dir}/{args.prefix}power-summary.json", "w") as f:
        json.dump(summary, f, indent=1)
    with open(f"{args.out_dir}/{args.prefix}power-samples.csv", "w") as f:
        f.write("time_s,phase,watts,util_percent,sm_mhz\n")
        start = sampler.samples[0][0]
        for t, phase, watts, util, mhz in sampler.samples:
            f.write(f"{t - start:.3f},{phase},{watts:.1f},{util},{mhz}\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
