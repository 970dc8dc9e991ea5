#!/usr/bin/env python3
"""Plots of a `gcsim compare` output directory.

Reads only what compare wrote: DIR/comparison.csv (the policies, in order)
and each policy's DIR/runs/POLICY/{summary.json,jobs.csv,timeline.csv}.
Writes, next to them:

  jct_cdf.png         CDF of job completion time (end - submit), finished jobs, per policy
  wait_cdf.png        CDF of queueing delay (first start - submit), finished jobs, per policy
  utilization.png     GPUs allocated to jobs over time, per policy (step plot)
  gantt_POLICY.png    one row per GPU (labels from jobs.csv's placement), a bar from
                      first start to end for each job on each GPU of its last
                      placement, one colour per job; only for runs of at most 200 jobs
  power.png           with --energy: the cluster's IT power over time, per policy
                      (step plot of each run's power.csv), its peak marked
  contention_POLICY.png  for a run with --contention (its contention.csv and
                      link_utilization.csv): the share of its run each job lost
                      to contention (its seconds_lost over end - start in jobs.csv),
                      and a heatmap of the busiest links' use over time

Usage: python3 scripts/plot_comparison.py DIR
"""

import os
import re
import sys

from headless_pyplot import pyplot  # beside this script

plt = pyplot("plot_comparison.py")

from comparison_runs import number, runs_of_arguments  # noqa: E402

GANTT_MAX_JOBS = 200
DPI = 100
# Policies often tie; a line style per policy keeps curves that coincide visible.
LINE_STYLES = ["-", "--", ":", "-."]


def style(index):
    return {"linestyle": LINE_STYLES[index % len(LINE_STYLES)], "linewidth": 2.0 if index % 2 == 0 else 1.6}


def plot_cdf(runs, values_of, title, xlabel, unit, path):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    name, seconds = unit
    every = [v for r in runs for v in values_of(r)]
    for index, r in enumerate(runs):
        values = values_of(r)
        if not values:
            ax.plot([], [], label=f"{r.policy} (no finished jobs)", **style(index))
            continue
        xs = [v / seconds for v in values]
        ys = [(i + 1) / len(xs) for i in range(len(xs))]
        # A run that left jobs unfinished (a deadlock, --until) is judged on fewer jobs: say so.
        label = r.policy if len(values) == len(r.jobs) else f"{r.policy} ({len(values)}/{len(r.jobs)} finished)"
        ax.step([xs[0]] + xs, [0.0] + ys, where="post", label=label, **style(index))
    # Completion times often span orders of magnitude; a log axis keeps the short ones visible.
    if every and min(every) > 0 and max(every) / min(every) > 100:
        ax.set_xscale("log")
    ax.set_xlabel(f"{xlabel} ({name})")
    ax.set_ylabel("fraction of finished jobs")
    ax.set_ylim(0, 1.02)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def step_curves(ax, runs, points_of, label_of, seconds):
    """One step curve per run of its (time, value) points, held to the run's end."""
    for index, r in enumerate(runs):
        points = [(t, v) for (t, v) in points_of(r) if t <= r.end]
        if not points:
            continue
        xs = [t / seconds for t, _ in points] + [r.end / seconds]
        ys = [v for _, v in points] + [points[-1][1]]
        ax.step(xs, ys, where="post", label=label_of(r), **style(index))


def finish_over_time(fig, ax, unit, ylabel, title, path):
    ax.set_xlabel(f"simulated time ({unit[0]})")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def plot_utilization(runs, unit, path):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    total = max(int(r.summary["gpus"]) for r in runs)
    step_curves(ax, runs, lambda r: [(t, a) for (t, a, _, _) in r.timeline], lambda r: r.policy, unit[1])
    ax.axhline(total, color="grey", linestyle="--", linewidth=1, label=f"cluster ({total} GPUs)")
    ax.set_ylim(0, total * 1.08)
    finish_over_time(fig, ax, unit, "GPUs allocated to jobs", "GPU allocation over time", path)


def plot_power(runs, unit, path):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    step_curves(ax, runs, lambda r: [(t, w / 1000.0) for (t, w) in r.power],
                lambda r: f"{r.policy} (peak {float(r.summary['energy']['peak_kw']):.4g} kW)", unit[1])
    ax.set_ylim(bottom=0)
    finish_over_time(fig, ax, unit, "IT power (kW)", "Cluster power over time (GPUs and node bases, before PUE)",
                     path)


def gpu_sort_key(label):
    """node-10:3 after node-2:7: compare digit runs as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", label)]


def share_lanes(bars):
    """Per bar, where its band starts within its GPU's row (0 to 1): the
    lowest place no bar overlapping it in time holds (whole GPUs: 0)."""
    lanes = [0.0] * len(bars)
    by_gpu = {}
    for i, bar in enumerate(bars):
        by_gpu.setdefault(bar[0], []).append(i)
    for indices in by_gpu.values():
        placed = []  # (start, end, lane, share)
        for i in sorted(indices, key=lambda i: bars[i][1]):
            _, start, end, _, _, share = bars[i]
            busy = sorted((lane, lane + s) for (b, e, lane, s) in placed if b < end and start < e)
            lane = 0.0
            for low, high in busy:
                if lane + share <= low + 1e-9:
                    break
                lane = max(lane, high)
            if lane + share > 1 + 1e-9:
                lane = 0.0  # no room left in one piece: overlap rather than leave the row
            lanes[i] = lane
            placed.append((start, end, lane, share))
    return lanes


def plot_gantt(run, unit, path):
    name, seconds = unit
    bars = []  # (gpu label, start, end, job index, unfinished, share of the GPU)
    for index, job in enumerate(run.jobs):
        start = number(job["start"])
        # A CPU job holds no GPU (its placement is a node): the chart is of GPUs.
        if start is None or not job["placement"] or job.get("type") == "cpu":
            continue
        end = number(job["end"])
        unfinished = end is None
        if unfinished:
            end = max(run.end, start)
        share = number(job.get("gpu_share", "")) or 1.0
        for gpu in job["placement"].split(";"):
            bars.append((gpu, start, end, index, unfinished, share))
    gpus = sorted({b[0] for b in bars}, key=gpu_sort_key)
    row = {gpu: i for i, gpu in enumerate(gpus)}
    height = min(30.0, max(3.0, 0.28 * len(gpus) + 1.6))
    fig, ax = plt.subplots(figsize=(9, height))
    colours = plt.get_cmap("tab20")
    span = max((run.end - run.first_submit) / seconds, 1e-9)
    labelled = set()
    lanes = share_lanes(bars)
    for bar, lane in zip(bars, lanes):
        gpu, start, end, index, unfinished, share = bar
        width = (end - start) / seconds
        # A job sharing a GPU gets a band of the row as high as its share.
        centre = row[gpu] - 0.4 + 0.8 * (lane + share / 2)
        ax.barh(centre, width, left=start / seconds, height=0.8 * share, color=colours(index % 20),
                edgecolor="black", linewidth=0.3, hatch="//" if unfinished else None)
        if index not in labelled and width > 0.08 * span and len(gpus) <= 64 and share == 1.0:
            ax.text((start / seconds) + width / 2, centre, run.jobs[index]["id"], ha="center", va="center",
                    fontsize=7, clip_on=True)
            labelled.add(index)
    ax.set_yticks(range(len(gpus)))
    ax.set_yticklabels(gpus, fontsize=7 if len(gpus) <= 64 else 4)
    ax.invert_yaxis()
    ax.set_xlabel(f"simulated time ({name})")
    ax.set_ylabel("GPU (node:gpu)")
    note = " (hatched: not finished)" if any(b[4] for b in bars) else ""
    if any(b[5] < 1 for b in bars):
        note += "; a job sharing a GPU is a band as high as its share"
    ax.set_title(f"{run.policy}: jobs on GPUs, one colour per job{note}")
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def plot_contention(run, unit, path):
    lost = {}
    for row in run.contention:
        lost[row["job"]] = lost.get(row["job"], 0.0) + float(row["seconds_lost"])
    ran = {j["id"]: float(j["end"]) - float(j["start"]) for j in run.jobs if j["start"] and j["end"]}
    jobs = sorted(ran, key=lambda job: -lost.get(job, 0.0) / ran[job] if ran[job] > 0 else 0.0)[:40]
    shares = [100.0 * lost.get(job, 0.0) / ran[job] if ran[job] > 0 else 0.0 for job in jobs]
    links = []
    for row in run.link_use:
        if row["link"] not in links:
            links.append(row["link"])
    times = sorted({float(row["time"]) for row in run.link_use})
    grid = [[0.0] * len(times) for _ in links]
    column = {t: i for i, t in enumerate(times)}
    for row in run.link_use:
        grid[links.index(row["link"])][column[float(row["time"])]] = float(row["used"])
    fig, (bars, heat) = plt.subplots(1, 2, figsize=(13, 4.8), gridspec_kw={"width_ratios": [1, 1.6]})
    bars.barh(range(len(jobs)), shares, color="tab:red")
    bars.set_yticks(range(len(jobs)))
    bars.set_yticklabels(jobs, fontsize=7)
    bars.invert_yaxis()
    bars.set_xlabel("share of its run lost to contention (%)")
    bars.set_title(f"{run.policy}: slowdown per job")
    if links and times:
        width = times[1] - times[0] if len(times) > 1 else 1.0
        image = heat.imshow(grid, aspect="auto", interpolation="nearest", cmap="viridis", vmin=0.0, vmax=1.0,
                            extent=(times[0] / unit[1], (times[-1] + width) / unit[1], len(links) - 0.5, -0.5))
        heat.set_yticks(range(len(links)))
        heat.set_yticklabels(links, fontsize=7)
        fig.colorbar(image, ax=heat, label="share of bandwidth in use")
    heat.set_xlabel(f"time ({unit[0]})")
    heat.set_title("busiest links")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def main(argv):
    arguments = runs_of_arguments(argv, __doc__, "plot_comparison.py")
    if isinstance(arguments, int):
        return arguments
    directory, runs, unit = arguments
    written = []

    def out(name):
        path = os.path.join(directory, name)
        written.append(path)
        return path

    plot_cdf(runs, lambda r: r.jct, "Job completion time", "JCT", unit, out("jct_cdf.png"))
    plot_cdf(runs, lambda r: r.wait, "Queueing delay", "queueing delay", unit, out("wait_cdf.png"))
    plot_utilization(runs, unit, out("utilization.png"))
    if any(r.power is not None for r in runs):
        plot_power([r for r in runs if r.power is not None], unit, out("power.png"))
    for r in runs:
        if len(r.jobs) <= GANTT_MAX_JOBS:
            plot_gantt(r, unit, out(f"gantt_{r.policy}.png"))
    for r in runs:
        if r.contention is not None:
            plot_contention(r, unit, out(f"contention_{r.policy}.png"))
    for path in written:
        print(f"  plot        {path}")
    skipped = [r.policy for r in runs if len(r.jobs) > GANTT_MAX_JOBS]
    if skipped:
        print(f"  (no Gantt chart for {', '.join(skipped)}: more than {GANTT_MAX_JOBS} jobs)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
