#!/usr/bin/env python3
"""A replay scored against its recorded schedule: the plots of `gcsim validate --trace`.

Reads score_jobs.csv (id, user, queue, gpus, submit, recorded_wait,
simulated_wait, abs_error) and score_gpus.csv (time, simulated, recorded) from
DIR and writes into DIR:
  score_wait_cdf.png     the empirical CDFs of the simulated and recorded waits
                         side by side (log x axis, waits below 1 s at 1 s)
  score_scatter.png      each scored job's simulated wait against its recorded
                         one, log-log, with the y = x line
  score_gpus.png         allocated GPUs over time, simulated and recorded

Usage: python3 scripts/plot_replay_score.py DIR
"""

import csv
import os
import sys

from headless_pyplot import pyplot  # beside this script

plt = pyplot("plot_replay_score.py")


def scored_waits(path):
    simulated, recorded = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["recorded_wait"] and row["simulated_wait"]:
                simulated.append(float(row["simulated_wait"]))
                recorded.append(float(row["recorded_wait"]))
    return simulated, recorded


def cdf(values):
    ordered = sorted(max(v, 1.0) for v in values)
    n = len(ordered)
    return ordered, [(i + 1) / n for i in range(n)]


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: plot_replay_score.py DIR")
    folder = argv[1]
    simulated, recorded = scored_waits(os.path.join(folder, "score_jobs.csv"))

    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, values, title in ((axes[0], recorded, "recorded"), (axes[1], simulated, "simulated")):
        if values:
            x, y = cdf(values)
            ax.step(x, y, where="post")
        ax.set_xscale("log")
        ax.set_title(f"{title} waits ({len(values)} jobs)")
        ax.set_xlabel("wait (s; below 1 s drawn at 1 s)")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("share of jobs")
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "score_wait_cdf.png"), dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5, 5))
    xs = [max(v, 1.0) for v in recorded]
    ys = [max(v, 1.0) for v in simulated]
    ax.scatter(xs, ys, s=4, alpha=0.4)
    top = max(xs + ys + [10.0])
    ax.plot([1, top], [1, top], color="black", linewidth=0.8, label="y = x")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("recorded wait (s)")
    ax.set_ylabel("simulated wait (s)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "score_scatter.png"), dpi=120)
    plt.close(fig)

    times, sim_gpus, rec_gpus = [], [], []
    with open(os.path.join(folder, "score_gpus.csv"), newline="") as f:
        for row in csv.DictReader(f):
            times.append(float(row["time"]) / 3600)
            sim_gpus.append(float(row["simulated"]))
            rec_gpus.append(float(row["recorded"]))
    fig, ax = plt.subplots(figsize=(10, 4))
    ax.step(times, rec_gpus, where="post", label="recorded")
    ax.step(times, sim_gpus, where="post", label="simulated")
    ax.set_xlabel("time (h)")
    ax.set_ylabel("allocated GPUs")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "score_gpus.png"), dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    main(sys.argv)
