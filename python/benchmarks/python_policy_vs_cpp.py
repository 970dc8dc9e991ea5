#!/usr/bin/env python3
"""Wall time of a run under a FIFO written in Python against the C++ `fifo`,
and what one call into Python costs.

    python3 python/benchmarks/python_policy_vs_cpp.py CLUSTER WORKLOAD [--repeats 3]

Runs gcsim.run under "fifo" and under examples/python/policies/fifo.py's
Fifo, alternately (the first of each a warm-up), and checks that their
jobs.csv are the same bytes. Then one more run of the Python FIFO counts its
calls and the time spent inside them (in memory shared with the simulation's
process), which gives the calls per run, the time per call spent in the
policy's body, and the whole added cost per call: (Python run - C++ run) /
calls, the binding's crossing and views included.
"""

import argparse
import mmap
import os
import statistics
import struct
import sys
import time

import gcsim

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../examples/python/policies"))
from fifo import Fifo  # noqa: E402


class CountedFifo(Fifo):
    """Fifo that adds its calls and their seconds into a shared page."""

    def __init__(self, page):
        self.page = page
        self.calls = 0
        self.seconds = 0.0

    def schedule(self, cluster, queue, plan):
        start = time.perf_counter()
        super().schedule(cluster, queue, plan)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        struct.pack_into("qd", self.page, 0, self.calls, self.seconds)


def timed(cluster, workload, policy):
    start = time.perf_counter()
    result = gcsim.run(cluster, workload, policy, wall_time=False)
    return time.perf_counter() - start, result.files["jobs.csv"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cluster")
    parser.add_argument("workload")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cpp, python = [], []
    for repeat in range(args.repeats + 1):
        cpp_seconds, cpp_jobs = timed(args.cluster, args.workload, "fifo")
        python_seconds, python_jobs = timed(args.cluster, args.workload, Fifo())
        if python_jobs != cpp_jobs:
            sys.exit("the Python FIFO's jobs.csv differs from fifo's")
        print(f"{'warm-up' if repeat == 0 else repeat}: fifo {cpp_seconds:.2f} s, Python Fifo {python_seconds:.2f} s",
              flush=True)
        if repeat > 0:
            cpp.append(cpp_seconds)
            python.append(python_seconds)
    c, p = statistics.median(cpp), statistics.median(python)
    print(f"median: fifo {c:.2f} s, Python Fifo {p:.2f} s, ratio {p / c:.2f} (jobs.csv identical)")

    page = mmap.mmap(-1, mmap.PAGESIZE)  # shared with the forked simulation
    gcsim.run(args.cluster, args.workload, CountedFifo(page), wall_time=False)
    calls, inside = struct.unpack_from("qd", page, 0)
    print(f"calls into Python per run: {calls}; inside schedule(): {inside:.2f} s, "
          f"{inside / calls * 1e6:.2f} us per call; added cost per call, (Python - C++) / calls: "
          f"{(p - c) / calls * 1e6:.2f} us")


if __name__ == "__main__":
    main()
