#!/usr/bin/env python3
"""Simulated against measured: the plot of a `gcsim validate` run.

Reads validation.csv (experiment, configuration, reference, reference_kind,
simulated, ...) and draws, for every row whose reference was measured, the
simulated figure against the measured one on log-log axes, one marker per
experiment, with the y = x line and a +-5% band. The "-nominal" rows (the
same runs simulated with the links' nominal rate instead of their measured
goodput) are left out: they would cover the calibrated ones.

Usage: python3 scripts/plot_validation.py validation.csv validation.png
"""

import csv
import sys

from headless_pyplot import pyplot  # beside this script

plt = pyplot("plot_validation.py")


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: plot_validation.py validation.csv validation.png")
    series = {}
    with open(argv[1], newline="") as f:
        for row in csv.DictReader(f):
            if row["reference_kind"] != "measured" or row["experiment"].endswith("-nominal"):
                continue
            series.setdefault(row["experiment"], []).append((float(row["reference"]), float(row["simulated"])))
    fig, ax = plt.subplots(figsize=(7, 6))
    markers = "os^vD<>ph*"
    lo, hi = float("inf"), 0.0
    for i, (name, points) in enumerate(series.items()):
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        lo, hi = min(lo, *xs, *ys), max(hi, *xs, *ys)
        ax.scatter(xs, ys, marker=markers[i % len(markers)], label=f"{name} ({len(points)})", alpha=0.8)
    if hi > 0:
        line = [lo / 1.5, hi * 1.5]
        ax.plot(line, line, color="black", linewidth=1, label="y = x")
        ax.fill_between(line, [v * 0.95 for v in line], [v * 1.05 for v in line], color="grey", alpha=0.2,
                        label="within 5%")
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel("measured (s)")
    ax.set_ylabel("simulated by gcsim (s)")
    ax.set_title("gcsim against real runs")
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=120)


if __name__ == "__main__":
    main(sys.argv)
