#!/usr/bin/env python3
"""Tabulates the PAI simulator against gcsim, pair by pair and job by job.

Each pair is NAME:PAI_DIR:GCSIM_DIR:PAI_WALL:GCSIM_WALL, where PAI_DIR holds
the summary.json and jobs.csv written by pai_sim_drive.py and GCSIM_DIR those
written by `gcsim run`. A pair whose PAI_DIR is "-" is a gcsim run alone.

For every pair it prints both wall times and their ratio, the average JCT,
average wait and makespan of both sides, then matches the jobs by id and
counts those whose JCTs agree within the tolerance (the simulator's tick,
1 s), with the largest difference. The PAI simulator averages over instances
(a job of k instances counts k times); the table gives that figure and the
average over jobs, which is what gcsim reports. Then it says where and why
the figures differ.

usage: pai_sim_compare.py --pair ... [--pair ...] [--tolerance 1] [--out FILE]
       [--workload FILE] [--arrivals FILE] [--whole-gpus NAME ...]
"""
import argparse
import csv
import json
import os
import sys

from pai_sim_convert import write_atomically  # this folder


def read_run(folder):
    """A run's summary.json and the rows of its jobs.csv."""
    with open(os.path.join(folder, "summary.json")) as fd:
        summary = json.load(fd)
    with open(os.path.join(folder, "jobs.csv")) as fd:
        return summary, list(csv.DictReader(fd))


def load_pai(folder):
    summary, rows = read_run(folder)
    # One row per instance; the instances of a job start and end together.
    return summary, {row["job_id"]: (float(row["jct"]), float(row["wait"])) for row in rows}


def load_gcsim(folder):
    summary, rows = read_run(folder)
    return summary, {row["id"]: (float(row["jct"]), float(row["wait"]), float(row["start"]))
                     for row in rows if row["state"] == "finished"}


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


def workload_facts(path, arrivals):
    if not path:
        return {}
    with open(path) as fd:
        jobs = json.load(fd)["jobs"]
    rounded = 0
    if arrivals:
        with open(arrivals) as fd:
            rounded = sum(1 for row in csv.DictReader(fd) if int(row["cpu_units"]) % 100)
    return {
        "cores_rounded": rounded,
        "jobs": len(jobs),
        "shared": sum(1 for j in jobs if "gpu_share" in j),
        "cpu_only": sum(1 for j in jobs if j.get("gpu_share") == 0.01),
        "fractional_multi": sum(1 for j in jobs if "gpu_share" in j and j["gpus"] > 1),
        "durations": {j["id"]: j["duration"]["seconds"] for j in jobs},
    }


def compare_pair(spec, tolerance, facts, whole_gpus):
    name, pai_dir, gcsim_dir, pai_wall, gcsim_wall = spec.split(":")
    gcsim_summary, gcsim_jobs = load_gcsim(gcsim_dir)
    out = {"name": name, "gcsim_wall": float(gcsim_wall),
           "gcsim_avg_jct": gcsim_summary["jct_s"]["mean"],
           "gcsim_avg_wait": gcsim_summary["queueing_delay_s"]["mean"],
           "gcsim_makespan": gcsim_summary["makespan_s"],
           "gcsim_finished": gcsim_summary["jobs"]["finished"], "gcsim_total": gcsim_summary["jobs"]["total"]}
    if pai_dir == "-":
        return out
    pai_summary, pai_jobs = load_pai(pai_dir)
    out.update({"pai_wall": float(pai_wall), "pai_avg_jct": pai_summary["avg_jct"],
                "pai_avg_wait": pai_summary["avg_wait"], "pai_makespan": pai_summary["makespan"],
                "pai_job_avg_jct": mean(v[0] for v in pai_jobs.values()),
                "pai_job_avg_wait": mean(v[1] for v in pai_jobs.values()), "pai_jobs": len(pai_jobs),
                "pai_instances": pai_summary["jobs_done"]})
    out["ratio"] = out["pai_wall"] / out["gcsim_wall"] if out["gcsim_wall"] > 0 else float("inf")
    common = sorted(set(pai_jobs) & set(gcsim_jobs))
    diffs = [(abs(pai_jobs[j][0] - gcsim_jobs[j][0]), j) for j in common]
    out["matched"] = len(common)
    out["equal"] = sum(1 for d, _ in diffs if d <= tolerance)
    worst = max(diffs) if diffs else (0.0, "-")
    out["max_diff"], out["max_diff_job"] = worst
    out["later_in_gcsim"] = sum(1 for j in common if gcsim_jobs[j][0] > pai_jobs[j][0] + tolerance)
    out["earlier_in_gcsim"] = sum(1 for j in common if gcsim_jobs[j][0] < pai_jobs[j][0] - tolerance)
    first = min(((gcsim_jobs[j][2], j) for d, j in diffs if d > tolerance), default=None)
    out["first_divergence"] = first
    out["whole_gpus"] = whole_gpus
    return out


def reasons(row, facts, tolerance):
    lines = []
    if "pai_avg_jct" not in row:
        return lines
    if row["pai_instances"] != row["pai_jobs"]:
        lines.append("its averages count every instance of a multi-instance job (%d instances of %d jobs); "
                     "over jobs they are %.2f s JCT and %.2f s wait, the figures gcsim's compare with"
                     % (row["pai_instances"], row["pai_jobs"], row["pai_job_avg_jct"], row["pai_job_avg_wait"]))
    if row["name"].endswith("-fifo"):
        lines.append("a different policy: gcsim's fifo blocks the queue at the first job that does not fit, "
                     "the PAI FIFO skips it and starts later jobs that fit")
    if row["pai_makespan"] == row["gcsim_makespan"] + 1:
        lines.append("makespan: the PAI simulator reports the tick after the last job ends (last end + 1 s)")
    elif row["pai_makespan"] != row["gcsim_makespan"]:
        lines.append("makespan: the PAI simulator reports the tick after the last job ends (last end + 1 s); "
                     "the rest of the difference is the last job's start, which the schedules below move")
    if row["equal"] < row["matched"]:
        if row["whole_gpus"]:
            lines.append("gcsim's srtf does not share GPUs, so it runs with --whole-gpus: the %d jobs on a GPU "
                         "share (%d of them asking no GPU) hold whole GPUs there, while the PAI simulator "
                         "pools hundredths of a GPU" % (facts.get("shared", 0), facts.get("cpu_only", 0)))
        elif facts.get("shared"):
            lines.append("the PAI simulator pools GPUs in hundredths over the one node, so fractional jobs "
                         "fit wherever the total has room; gcsim places each share on one GPU (best fit, "
                         "shares on a GPU add up to at most 1) and gives a job asking no GPU a 0.01 share "
                         "(%d jobs shared, %d asking no GPU, %d fractional over several GPUs)"
                         % (facts["shared"], facts["cpu_only"], facts["fractional_multi"]))
        if row["name"].startswith("sjf"):
            lines.append("equal durations: the PAI SJF breaks ties by job id, gcsim's srtf by submit time "
                         "then workload order")
        if facts.get("cores_rounded"):
            lines.append("cores: gcsim asks whole cores, so %d jobs ask up to one core more than in the PAI "
                         "simulator, which counts hundredths" % facts["cores_rounded"])
        if row["first_divergence"]:
            start, job = row["first_divergence"]
            lines.append("the first job that differs starts at %.0f s in gcsim (job %s); every later start "
                         "can shift with it" % (start, job))
    return lines


def fmt(value, digits=2):
    if isinstance(value, float):
        return "%.*f" % (digits, value)
    return str(value)


def main(argv):
    parser = argparse.ArgumentParser(description="PAI simulator vs gcsim table")
    parser.add_argument("--pair", action="append", required=True)
    parser.add_argument("--tolerance", type=float, default=1.0)
    parser.add_argument("--workload")
    parser.add_argument("--arrivals", help="the converter's --order-out CSV (GPU and core requests in hundredths)")
    parser.add_argument("--whole-gpus", action="append", default=[], help="pair names run with --whole-gpus")
    parser.add_argument("--out", help="also write the table (and JSON next to it) here, atomically")
    args = parser.parse_args(argv)
    facts = workload_facts(args.workload, args.arrivals)
    rows = [compare_pair(p, args.tolerance, facts, p.split(":")[0] in args.whole_gpus) for p in args.pair]

    text = []
    text.append("| pair | PAI wall (s) | gcsim wall (s) | ratio | avg JCT PAI (s) | avg JCT PAI per job (s) | "
                "avg JCT gcsim (s) | avg wait PAI (s) | avg wait PAI per job (s) | avg wait gcsim (s) | "
                "makespan PAI (s) | makespan gcsim (s) |")
    text.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        if "pai_avg_jct" in r:
            text.append("| %s | %.2f | %.3f | %.0fx | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %d | %.0f |" % (
                r["name"], r["pai_wall"], r["gcsim_wall"], r["ratio"], r["pai_avg_jct"], r["pai_job_avg_jct"],
                r["gcsim_avg_jct"], r["pai_avg_wait"], r["pai_job_avg_wait"], r["gcsim_avg_wait"],
                r["pai_makespan"], r["gcsim_makespan"]))
        else:
            text.append("| %s | - | %.3f | - | - | - | %.2f | - | - | %.2f | - | %.0f |" % (
                r["name"], r["gcsim_wall"], r["gcsim_avg_jct"], r["gcsim_avg_wait"], r["gcsim_makespan"]))
    text.append("")
    text.append("Job by job (JCT, tolerance %g s):" % args.tolerance)
    text.append("| pair | jobs matched | equal | gcsim later | gcsim earlier | largest difference (s) | job |")
    text.append("|---|---:|---:|---:|---:|---:|---|")
    for r in rows:
        if "matched" in r:
            text.append("| %s | %d | %d (%.1f%%) | %d | %d | %.0f | %s |" % (
                r["name"], r["matched"], r["equal"], 100.0 * r["equal"] / max(1, r["matched"]),
                r["later_in_gcsim"], r["earlier_in_gcsim"], r["max_diff"], r["max_diff_job"]))
    for r in rows:
        why = reasons(r, facts, args.tolerance)
        if why:
            text.append("")
            text.append("Where %s differs:" % r["name"])
            text += ["  - " + line for line in why]
    below = [r["name"] for r in rows if "ratio" in r and r["ratio"] < 50]
    text.append("")
    text.append("Speed target (gcsim >= 50x faster per pair): %s" % (
        "met" if not below else "NOT met for " + ", ".join(below)))
    report = "\n".join(text) + "\n"
    sys.stdout.write(report)
    if args.out:
        write_atomically(args.out, report)
        write_atomically(os.path.splitext(args.out)[0] + ".json", json.dumps(rows, indent=2, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
