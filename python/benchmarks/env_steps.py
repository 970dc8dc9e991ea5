#!/usr/bin/env python3
"""Steps per second of gcsim.env.SchedulingEnv under a trivial agent, for
several queue lengths K (the waiting jobs each observation shows).

    python3 python/benchmarks/env_steps.py CLUSTER [WORKLOAD] [--max-queue 8 32 128 512] [--repeats 3]
        [--jobs 20000] [--mean-gap 1.5]

The agent takes the first allowed action (the first row that can start,
else wait), which costs next to nothing, so the figure is the environment's
and the simulation's: the step's round trip to the simulation's process, the
observation of K rows (each that may fit placed, to fill the mask), and the
simulation between decisions. Without WORKLOAD, `--jobs` jobs of measured
durations (cheap to simulate: the environment's own cost shows) arrive
every `--mean-gap` seconds on average (Poisson), 1 to 8 GPUs each (2.8 on
average), run times lognormal around 150 s (mean 245 s), drawn with a fixed
seed: on 512 GPUs a gap of 1.5 s loads them to 0.9, and 1.3 s to just over
1, where the queue grows long and K matters. Each K's episode is run `repeats` times after a
warm-up; prints the median steps per second, the steps per episode, and
for scale the same workload's whole run under the C++ fifo (the simulation
alone, no environment).
"""

import argparse
import random
import statistics
import time

import numpy as np

import gcsim
from gcsim.env import SchedulingEnv


def measured_jobs(count: int, mean_gap: float, seed: int = 1) -> dict:
    rng = random.Random(seed)
    jobs, submit = [], 0.0
    for i in range(count):
        submit += rng.expovariate(1 / mean_gap)
        jobs.append({"id": f"j{i}", "submit": round(submit, 3), "gpus": rng.choice([1, 1, 1, 2, 4, 8]),
                     "duration": {"seconds": round(rng.lognormvariate(5, 1), 3), "gpu_type": "V100"}})
    return {"jobs": jobs}


def episode(env: SchedulingEnv) -> tuple[int, float]:
    observation, info = env.reset()
    start = time.perf_counter()
    steps, done = 0, False
    while not done:
        action = int(np.argmax(info["action_mask"]))  # the first allowed
        observation, reward, terminated, truncated, info = env.step(action)
        steps += 1
        done = terminated or truncated
    return steps, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cluster")
    parser.add_argument("workload", nargs="?")
    parser.add_argument("--max-queue", type=int, nargs="+", default=[8, 32, 128, 512])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=20000)
    parser.add_argument("--mean-gap", type=float, default=1.5)
    args = parser.parse_args()
    workload = args.workload or measured_jobs(args.jobs, args.mean_gap)
    alone = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        gcsim.run(args.cluster, workload, "fifo", wall_time=False)
        alone.append(time.perf_counter() - start)
    print(f"the simulation alone (gcsim.run under fifo): {statistics.median(alone):.2f} s", flush=True)
    for k in args.max_queue:
        env = SchedulingEnv(args.cluster, workload, max_queue=k)
        rates = []
        for repeat in range(args.repeats + 1):
            steps, seconds = episode(env)
            if repeat > 0:
                rates.append(steps / seconds)
        env.close()
        print(f"K={k}: {statistics.median(rates):,.0f} steps/s (median of {args.repeats}: "
              f"{', '.join(f'{r:,.0f}' for r in rates)}), {steps} steps per episode, "
              f"{steps / statistics.median(rates):.2f} s", flush=True)


if __name__ == "__main__":
    main()
