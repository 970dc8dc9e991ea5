#!/usr/bin/env python3
"""Log-log plots of scripts/scaling-report.sh's CSV.

Writes, in OUTDIR:

  scaling_jobs.png   wall time and peak memory of `gcsim run` against job count
  scaling_gpus.png   the same against GPU count

Runs that hit the cap are drawn as open markers at the cap (their true time
is larger); skipped and failed runs are left out.

Usage: python3 scripts/plot_scaling.py scaling.csv OUTDIR
"""

import csv
import os
import sys

try:
    import matplotlib
except ImportError:
    sys.exit(f"plot_scaling.py: {sys.executable} cannot import matplotlib "
             "(Debian: apt-get install python3-matplotlib; or run it with a Python that has it)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)

DPI = 100
PANELS = [("wall_s", "wall time (s)"), ("peak_rss_mb", "peak RSS (MB)")]
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
    for ax, (field, label) in zip(axes, PANELS):
        for status, marker in (("ok", "o"), ("capped", "o")):
            pts = [(float(r[x_field]), float(r[field])) for r in rows if r["status"] == status]
            if pts:
                xs, ys = zip(*pts)
                face = None if status == "ok" else "none"
                ax.plot(xs, ys, marker=marker, linestyle="-" if status == "ok" else "none",
                        markerfacecolor=face, label="finished" if status == "ok" else "hit the cap")
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
