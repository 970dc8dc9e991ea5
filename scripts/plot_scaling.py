#!/usr/bin/env python3
"""Log-log plots of scripts/scaling-report.sh's CSV.

Writes, in OUTDIR:

  scaling_jobs.png   wall time, CPU time and peak memory of `gcsim run` against job count
  scaling_gpus.png   the same against GPU count

Runs that hit the cap are drawn as open markers at the cap (their true time
is larger; their CPU time and memory are what they had reached); skipped
and failed runs are left out. CPU time is drawn beside wall time because
on a shared machine wall time also counts waiting for a core.

Usage: python3 scripts/plot_scaling.py scaling.csv OUTDIR
"""

import csv
import os
import sys

from headless_pyplot import pyplot  # beside this script

plt = pyplot("plot_scaling.py")

DPI = 100
# Panel label, then (CSV field, series label) drawn in it.
PANELS = [("time (s)", [("wall_s", "wall"), ("cpu_s", "CPU (user + system)")]),
          ("peak RSS (MB)", [("peak_rss_mb", "peak RSS")])]
SWEEPS = [("jobs", "jobs", "job count", "scaling_jobs.png"), ("gpus", "gpus", "GPU count", "scaling_gpus.png")]


def read_rows(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["status"] in ("ok", "capped")]


def title_of(rows, sweep):
    first = rows[0]
    if sweep == "jobs":
        return f"{first['gpus']} GPUs, {first['mean_interarrival_s']} s mean gap, policy {first['policy']}"
    return f"{first['jobs']} jobs at a constant load, policy {first['policy']}"


def plot_sweep(rows, sweep, x_field, x_label, out_path):
    rows = sorted((r for r in rows if r["sweep"] == sweep), key=lambda r: float(r[x_field]))
    if not rows:
        return False
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), dpi=DPI)
    for ax, (label, series) in zip(axes, PANELS):
        for index, (field, name) in enumerate(series):
            for status in ("ok", "capped"):
                pts = [(float(r[x_field]), float(r[field])) for r in rows if r["status"] == status]
                if not pts:
                    continue
                xs, ys = zip(*pts)
                finished = status == "ok"
                ax.plot(xs, ys, marker="os"[index], color=f"C{index}", linestyle="-" if finished else "none",
                        markerfacecolor=None if finished else "none",
                        label=name + ("" if finished else ", stopped at the cap"))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(x_label)
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle(title_of(rows, sweep))
    fig.tight_layout()
    fig.savefig(out_path)
    plt.close(fig)
    return True


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_scaling.py scaling.csv OUTDIR")
    rows = read_rows(sys.argv[1])
    for sweep, x_field, x_label, name in SWEEPS:
        path = os.path.join(sys.argv[2], name)
        if plot_sweep(rows, sweep, x_field, x_label, path):
            print(f"plot_scaling.py: wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
