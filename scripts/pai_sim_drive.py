#!/usr/bin/env python3
"""Runs Alibaba's PAI simulator once, with the settings of its own scripts.

The PAI simulator is cluster-trace-gpu-v2020/simulator of
github.com/alibaba/clusterdata; its files are imported from the checkout
given, never changed. The settings are those of its run_simulator.py: one
pooled node of G GPUs and round(23.22 x G) cores (no heterogeneous node
list, no GPU type matching), capacity pattern 0 (always the whole cluster),
no spare node, random seed 42, arrivals R jobs per minute, preemption policy
"large GPU first" (which never fires: its guard is always true), and one
repeat. The allocation policy is its FIFO (8: pending jobs in (submit_time,
job_id) order) or its SJF (0: in (duration, job_id) order, the oracle run
time); both walk the order once per second and start every job that fits,
skipping those that do not.

Writes, atomically, OUT/summary.json (jobs done, average JCT, average wait,
makespan as the simulator reports them) and OUT/jobs.csv (job_id, submit,
duration, jct, wait for every finished job). The simulator's own log goes
to OUT/pai.log.

usage: pai_sim_drive.py --pai-sim DIR --csv FILE --policy fifo|sjf --jobs N
                        --arrival-rate R --gpus G --out DIR
"""
import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

from pai_sim_convert import write_atomically  # this folder

POLICIES = {"fifo": 8, "sjf": 0}  # the simulator's allocation policy numbers


def main(argv):
    parser = argparse.ArgumentParser(description="one run of the PAI simulator")
    parser.add_argument("--pai-sim", required=True)
    parser.add_argument("--csv", required=True)
    parser.add_argument("--policy", choices=sorted(POLICIES), required=True)
    parser.add_argument("--jobs", type=int, required=True)
    parser.add_argument("--arrival-rate", type=int, required=True)
    parser.add_argument("--gpus", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)

    sim_dir = os.path.abspath(args.pai_sim)
    if not os.path.isfile(os.path.join(sim_dir, "simulator.py")):
        print("pai_sim_drive: no PAI simulator at %s (simulator.py missing)" % sim_dir, file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    log_file = Path(os.path.abspath(args.out)) / "pai.log"
    logging.basicConfig(level=logging.WARNING, format="%(message)s", filename=str(log_file), filemode="w")
    sys.path.insert(0, sim_dir)
    from simulator import Simulator  # noqa: E402  (the checkout's module)

    started = time.time()
    simulator = Simulator(
        csv_file=Path(os.path.abspath(args.csv)), alloc_policy=POLICIES[args.policy], preempt_policy=2,
        sort_node_policy=3, num_nodes=1, random_seed=42, max_time=int(1e9), num_spare_node=0, pattern=0,
        hetero=False, num_gpus=args.gpus, num_cpus=round(23.22 * args.gpus), describe_file=None,
        log_file=log_file, export_job_stats=False, export_cluster_util=False, arrival_rate=args.arrival_rate,
        num_jobs_limit=args.jobs, gpu_type_matching=0, verbose=0)
    results = simulator.simulator_go(repeat=1)
    simulated = time.time() - started
    done, avg_jct, avg_wait, makespan = results[0]

    rows = ["job_id,submit,duration,jct,wait"]
    for job in sorted(simulator.cluster.job_history.job_done_list, key=lambda j: (j["submit_time"], j["job_id"])):
        rows.append("%s,%d,%d,%d,%d" % (job["job_id"], job["submit_time"], job["duration"], job["jct"],
                                        job["jct"] - job["duration"]))
    write_atomically(os.path.join(args.out, "jobs.csv"), "\n".join(rows) + "\n")
    # jobs_done counts instances, as the simulator's averages do.
    jobs = len({job["job_id"] for job in simulator.cluster.job_history.job_done_list})
    summary = {"policy": args.policy, "jobs_done": done, "jobs": jobs, "avg_jct": avg_jct,
               "avg_wait": avg_wait, "makespan": makespan, "simulate_seconds": simulated}
    write_atomically(os.path.join(args.out, "summary.json"), json.dumps(summary, indent=2) + "\n")
    print("PAI %s: %d jobs (%d instances) done, avg JCT %.2f s, avg wait %.2f s, makespan %d s (%.1f s simulating)"
          % (args.policy, jobs, done, avg_jct, avg_wait, makespan, simulated))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
