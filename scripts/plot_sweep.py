#!/usr/bin/env python3
"""Draws DIR/sweep_METRIC_by_AXIS.png from DIR/sweep.csv (gcsim sweep): each
metric's mean over the runs of each value of each swept axis, the values in
the spec's order. Usage: plot_sweep.py DIR METRIC_COUNT"""
import csv
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name.strip("-")) or "axis"


def main():
    out_dir, metric_count = sys.argv[1], int(sys.argv[2])
    with open(os.path.join(out_dir, "sweep.csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    axes = header[1:len(header) - metric_count]
    metrics = header[len(header) - metric_count:]
    for a, axis in enumerate(axes, start=1):
        values = []
        for row in rows:
            if row[a] not in values:
                values.append(row[a])
        for m, metric in enumerate(metrics, start=1 + len(axes)):
            means = []
            for value in values:
                cells = [float(row[m]) for row in rows if row[a] == value and row[m] != ""]
                means.append(sum(cells) / len(cells) if cells else float("nan"))
            fig, ax = plt.subplots(figsize=(6, 3.5))
            ax.plot(range(len(values)), means, marker="o")
            ax.set_xticks(range(len(values)))
            ax.set_xticklabels(values, rotation=30 if max(len(v) for v in values) > 6 else 0)
            ax.set_xlabel(axis)
            ax.set_ylabel(metric + " (mean over runs)")
            ax.set_title(metric + " by " + axis)
            fig.tight_layout()
            path = os.path.join(out_dir, "sweep_%s_by_%s.png" % (safe(metric), safe(axis)))
            fig.savefig(path, dpi=90)
            plt.close(fig)
            print("  plot        " + path)


if __name__ == "__main__":
    main()
