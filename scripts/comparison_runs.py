"""What the comparison scripts (plot_comparison.py, report_comparison.py)
read of a `gcsim compare` output directory: its CSV files, the time unit
comparison.md uses, and each policy's run (DIR/runs/POLICY/)."""

import csv
import json
import os
import sys


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    return float(text) if text not in ("", "n/a") else None


def time_unit(largest_seconds):
    """The unit to show times in: the same rule as comparison.md."""
    if largest_seconds >= 7200:
        return "h", 3600.0
    if largest_seconds >= 120:
        return "min", 60.0
    return "s", 1.0


class Run:
    """One policy's run: its summary, jobs and timeline, the finished jobs'
    sorted JCTs and waits, for a run with --contention who slowed whom, and
    for a run with --energy the cluster's IT power over time."""

    def __init__(self, directory, policy):
        base = os.path.join(directory, "runs", policy)
        self.policy = policy
        with open(os.path.join(base, "summary.json")) as f:
            self.summary = json.load(f)
        self.jobs = read_csv(os.path.join(base, "jobs.csv"))
        # GPU counts are fractional where jobs share GPUs (gpu_share below 1).
        self.timeline = [
            (float(r["time"]), float(r["allocated_gpus"]), float(r["busy_gpus"]), int(r["queued_jobs"]))
            for r in read_csv(os.path.join(base, "timeline.csv"))
        ]
        # A serving replica completes nothing (its deployment's latency is in summary.json), as in the table.
        finished = [j for j in self.jobs if j["state"] == "finished" and j.get("type") != "serving"]
        self.jct = sorted(float(j["jct"]) for j in finished)
        self.wait = sorted(float(j["wait"]) for j in finished)
        self.first_submit = min((float(j["submit"]) for j in self.jobs), default=0.0)
        self.end = self.first_submit + float(self.summary["makespan_s"])
        self.contention = None
        if os.path.isfile(os.path.join(base, "contention.csv")):
            self.contention = read_csv(os.path.join(base, "contention.csv"))
            self.link_use = read_csv(os.path.join(base, "link_utilization.csv"))
        # power.csv: the IT power, watts, from each time until the next row.
        self.power = None
        if os.path.isfile(os.path.join(base, "power.csv")):
            self.power = [(float(r["time"]), float(r["watts"])) for r in read_csv(os.path.join(base, "power.csv"))]


def runs_of_arguments(argv, doc, script):
    """The compare folder named on the command line (argv), its runs in the
    table's order and the time unit for them; or the exit status: 0 after
    --help (printing `doc`), 2 for bad usage, 1 for a folder compare did not
    write. `script` names the caller in its messages."""
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(doc.strip())
        return 0
    if len(argv) != 2:
        print(doc.strip(), file=sys.stderr)
        return 2
    directory = argv[1]
    table = os.path.join(directory, "comparison.csv")
    if not os.path.isfile(table):
        print(f"{script}: {table} not found (run gcsim compare first)", file=sys.stderr)
        return 1
    runs = [Run(directory, row["policy"]) for row in read_csv(table)]
    if not runs:
        print(f"{script}: {table} has no policies", file=sys.stderr)
        return 1
    largest = max([r.end - r.first_submit for r in runs] + [v for r in runs for v in r.jct] + [0.0])
    return directory, runs, time_unit(largest)
