#!/usr/bin/env python3
"""Steps per second of gcsim.env.SchedulingEnv under a trivial agent, for
several queue lengths K (the waiting jobs each observation shows).

    python3 python/benchmarks/env_steps.py CLUSTER WORKLOAD [--max-queue 8 32 128 512] [--repeats 3]

The agent takes the first allowed action (the first row that can start,
else wait), which costs next to nothing, so the figure is the environment's:
the step's round trip to the simulation's process, the observation of K rows
(each placed to fill the mask) and the simulation between decisions. Each
K's episode is run `repeats` times after a warm-up; prints the median steps
per second and the episode's steps.
"""

import argparse
import statistics
import time

import numpy as np

from gcsim.env import SchedulingEnv


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
    parser.add_argument("workload")
    parser.add_argument("--max-queue", type=int, nargs="+", default=[8, 32, 128, 512])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    for k in args.max_queue:
        env = SchedulingEnv(args.cluster, args.workload, max_queue=k)
        rates = []
        for repeat in range(args.repeats + 1):
            steps, seconds = episode(env)
            if repeat > 0:
                rates.append(steps / seconds)
        env.close()
        print(f"K={k}: {statistics.median(rates):,.0f} steps/s (median of {args.repeats}; "
              f"{', '.join(f'{r:,.0f}' for r in rates)}), {steps} steps per episode", flush=True)


if __name__ == "__main__":
    main()
