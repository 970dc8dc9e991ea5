#!/usr/bin/env python3
"""Ratio per benchmark between two Google Benchmark JSON files.

Prints, for every benchmark in both files (aggregates left out unless both
have them), the wall time in each and NEW / OLD: below 1 is faster. With
--cpu it compares CPU time instead, which other tenants' load inflates less
(cpu_time; for the whole runs measured in a child, the child's child_cpu_s,
as their cpu_time is the parent's wait). With --counter NAME it compares
that counter (e.g. events_per_second, jobs_per_second; above 1 is then
more per second). Benchmarks in only one
file are listed at the end. The files come from scripts/bench-reference.sh
or any `--benchmark_out=F --benchmark_out_format=json` run.

Usage: python3 scripts/bench_compare.py OLD.json NEW.json [--cpu | --counter NAME]
"""

import json
import sys

UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def read_runs(path):
    with open(path) as f:
        doc = json.load(f)
    runs = {}
    for run in doc.get("benchmarks", []):
        if run.get("error_occurred"):
            continue
        name = run["name"]
        if run.get("run_type") == "iteration" and name in runs:
            continue  # repetitions: keep the first; their mean is the "_mean" aggregate
        runs[name] = run
    return runs


def figure(run, counter, cpu):
    if counter:
        return run.get(counter)
    if cpu and "child_cpu_s" in run:
        return run["child_cpu_s"]
    return run["cpu_time" if cpu else "real_time"] * UNIT_SECONDS[run.get("time_unit", "ns")]


def main():
    args = sys.argv[1:]
    counter = None
    cpu = "--cpu" in args
    if cpu:
        args.remove("--cpu")
    if "--counter" in args:
        i = args.index("--counter")
        if i + 1 >= len(args):
            sys.exit("bench_compare.py: --counter needs a name")
        counter = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    old, new = read_runs(args[0]), read_runs(args[1])
    label = counter or ("CPU s" if cpu else "time (s)")
    width = max([len(n) for n in old if n in new] + [9])
    print(f"{'benchmark':<{width}}  {'old ' + label:>22}  {'new ' + label:>22}  {'new/old':>8}")
    for name, run in old.items():
        if name not in new:
            continue
        a, b = figure(run, counter, cpu), figure(new[name], counter, cpu)
        if a is None or b is None:
            continue
        ratio = f"{b / a:8.3f}" if a else "       -"
        print(f"{name:<{width}}  {a:22.6g}  {b:22.6g}  {ratio}")
    for name in old:
        if name not in new:
            print(f"only in {args[0]}: {name}")
    for name in new:
        if name not in old:
            print(f"only in {args[1]}: {name}")


if __name__ == "__main__":
    main()
