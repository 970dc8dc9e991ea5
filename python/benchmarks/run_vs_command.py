#!/usr/bin/env python3
"""Wall time of one run through gcsim.run (the DataFrames built) and through
`gcsim run` (its files written), alternately, and their ratio.

    python3 python/benchmarks/run_vs_command.py CLUSTER WORKLOAD [--policy fifo] [--repeats 3]

Prints each run's seconds, then the medians and module / command.
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time

import gcsim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cluster")
    parser.add_argument("workload")
    parser.add_argument("--policy", default="fifo")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--gcsim", default=os.path.join(os.path.dirname(__file__), "../../build/app/gcsim"))
    args = parser.parse_args()
    module, command = [], []
    with tempfile.TemporaryDirectory() as out:
        for repeat in range(args.repeats + 1):  # the first of each is a warm-up
            start = time.perf_counter()
            result = gcsim.run(args.cluster, args.workload, args.policy)
            frames = len(result.jobs) + len(result.timeline)
            module_seconds = time.perf_counter() - start
            start = time.perf_counter()
            subprocess.run([args.gcsim, "run", "--quiet", "--cluster", args.cluster, "--workload", args.workload,
                            "--policy", args.policy, "--out", out], check=True)
            command_seconds = time.perf_counter() - start
            print(f"{'warm-up' if repeat == 0 else repeat}: gcsim.run {module_seconds:.2f} s ({frames} rows), "
                  f"gcsim run {command_seconds:.2f} s", flush=True)
            if repeat > 0:
                module.append(module_seconds)
                command.append(command_seconds)
    m, c = statistics.median(module), statistics.median(command)
    print(f"median: gcsim.run {m:.2f} s, gcsim run {c:.2f} s, ratio {m / c:.3f}")


if __name__ == "__main__":
    main()
