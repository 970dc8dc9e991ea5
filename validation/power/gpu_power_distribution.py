#!/usr/bin/env python3
"""The distribution of per-GPU power over a gcsim run, against a measured one.

gcsim charges a GPU one of three draws at any time (docs/simulation-model.md,
Energy): idle while no job holds it, communicating while a job holds it
without computing, busy while it computes. Over a run, the share of GPU time
at each draw follows from timeline.csv: at each step, busy_gpus GPUs draw the
busy figure, allocated_gpus - busy_gpus the communicating one, and the rest of
the cluster's GPUs (summary.json's gpus) the idle one. This script turns a
run's timeline into that distribution (time-weighted, per GPU) and compares
it with a measured distribution of per-GPU power samples, such as AcmeTrace's
(Hu et al., NSDI'24: gpu_power_kalos.pkl and gpu_power_seren.pkl in
github.com/InternLM/AcmeTrace, data/utilization/util_pkl/, each a pair of
arrays: watts at evenly spaced percentiles, and those percentiles), or a CSV
with the columns watts,percent.

It reports, for both: the share of GPU time in three bands (near idle, partly
loaded, near busy; the edges at idle + 12% and busy - 15% of the busy-idle
range unless --bands gives them), the mean watts per GPU, the median; the
Kolmogorov-Smirnov distance between the two; and the least KS distance any
run of this power model could reach against the measured distribution (the
share busy chosen freely: a two-level model puts no mass between its levels,
so the measured mass between them bounds how close it can come).

Usage:
  gpu_power_distribution.py RUN_DIR --watts IDLE,BUSY[,COMMUNICATING]
                            --measured FILE.pkl|FILE.csv [--bands LOW,HIGH]
                            [--plot OUT.png] [--json OUT.json]
Assumes one GPU type (its watts given) and whole GPUs.
"""

import argparse
import bisect
import csv
import json
import os
import pickle
import sys


def run_distribution(run_dir, idle, busy, communicating):
    """[(watts, share of GPU time)] over the run, from its timeline."""
    with open(os.path.join(run_dir, "summary.json")) as f:
        summary = json.load(f)
    gpus = float(summary["gpus"])
    end = float(summary["makespan_s"])
    with open(os.path.join(run_dir, "timeline.csv"), newline="") as f:
        rows = [(float(r["time"]), float(r["allocated_gpus"]), float(r["busy_gpus"])) for r in csv.DictReader(f)]
    seconds = {idle: 0.0, busy: 0.0, communicating: 0.0}
    for i, (time, allocated, computing) in enumerate(rows):
        until = rows[i + 1][0] if i + 1 < len(rows) else end
        span = max(0.0, min(until, end) - time)
        seconds[busy] += computing * span
        seconds[communicating] += (allocated - computing) * span
        seconds[idle] += (gpus - allocated) * span
    total = sum(seconds.values())
    if total <= 0:
        raise ValueError(f"{run_dir}: the run holds no GPU time")
    return sorted((w, s / total) for w, s in seconds.items() if s > 0)


def measured_distribution(path):
    """(watts, cumulative share) pairs of the measured per-GPU power, ascending."""
    if path.endswith(".pkl"):
        with open(path, "rb") as f:
            watts, percent = pickle.load(f)  # AcmeTrace: numpy arrays, trusted input
        pairs = list(zip((float(w) for w in watts), (float(p) / 100.0 for p in percent)))
    else:
        with open(path, newline="") as f:
            pairs = [(float(r["watts"]), float(r["percent"]) / 100.0) for r in csv.DictReader(f)]
    pairs.sort()
    if len(pairs) < 2:
        raise ValueError(f"{path}: fewer than two points")
    return pairs


def measured_cdf(pairs, x):
    """The measured share of samples at or below x (linear between points)."""
    watts = [w for w, _ in pairs]
    if x < watts[0]:
        return 0.0
    if x >= watts[-1]:
        return 1.0
    i = bisect.bisect_right(watts, x)
    (w0, p0), (w1, p1) = pairs[i - 1], pairs[i]
    return p0 if w1 == w0 else p0 + (p1 - p0) * (x - w0) / (w1 - w0)


def model_cdf(atoms, x):
    return sum(share for watts, share in atoms if watts <= x)


def ks_distance(atoms, pairs):
    """sup |F_measured - F_model|: checked at every measured point and on both sides of every atom."""
    points = [w for w, _ in pairs] + [w for w, _ in atoms]
    worst = 0.0
    for x in points:
        below = x - 1e-9 * max(1.0, abs(x))
        worst = max(worst, abs(measured_cdf(pairs, x) - model_cdf(atoms, x)),
                    abs(measured_cdf(pairs, below) - model_cdf(atoms, below)))
    return worst


def best_two_level_ks(pairs, idle, busy):
    """The least KS distance of {idle: 1-b, busy: b} over b in [0, 1]: the model's
    CDF is 1-b between its levels, so b is best where 1-b halves the measured
    CDF's range there; also checked against the tails."""
    low = measured_cdf(pairs, idle)
    high = measured_cdf(pairs, busy - 1e-9 * busy)
    candidates = [min(1.0, max(0.0, 1.0 - (low + high) / 2.0))] + [k / 1000.0 for k in range(1001)]
    best = min(candidates, key=lambda b: ks_distance([(idle, 1.0 - b), (busy, b)], pairs))
    return ks_distance([(idle, 1.0 - best), (busy, best)], pairs), best


def bands_of_atoms(atoms, low, high):
    return (sum(s for w, s in atoms if w < low), sum(s for w, s in atoms if low <= w <= high),
            sum(s for w, s in atoms if w > high))


def bands_of_measured(pairs, low, high):
    a, b = measured_cdf(pairs, low), measured_cdf(pairs, high)
    return a, b - a, 1.0 - b


def mean_of_measured(pairs):
    """The mean of the piecewise-linear CDF: each segment's mass at its midpoint."""
    mean = pairs[0][0] * pairs[0][1]
    for (w0, p0), (w1, p1) in zip(pairs, pairs[1:]):
        mean += (p1 - p0) * (w0 + w1) / 2.0
    return mean


def median_of_measured(pairs):
    for (w0, p0), (w1, p1) in zip(pairs, pairs[1:]):
        if p1 >= 0.5:
            return w0 if p1 == p0 else w0 + (w1 - w0) * (0.5 - p0) / (p1 - p0)
    return pairs[-1][0]


def median_of_atoms(atoms):
    cumulative = 0.0
    for watts, share in atoms:
        cumulative += share
        if cumulative >= 0.5:
            return watts
    return atoms[-1][0]


def compare(run_dir, idle, busy, communicating, measured_path, bands=None):
    atoms = run_distribution(run_dir, idle, busy, communicating)
    pairs = measured_distribution(measured_path)
    low, high = bands or (idle + 0.12 * (busy - idle), busy - 0.15 * (busy - idle))
    best_ks, best_share = best_two_level_ks(pairs, idle, busy)
    return {
        "run": run_dir,
        "measured": measured_path,
        "bands_watts": [low, high],
        "run_bands": bands_of_atoms(atoms, low, high),
        "measured_bands": bands_of_measured(pairs, low, high),
        "run_mean_watts": sum(w * s for w, s in atoms),
        "measured_mean_watts": mean_of_measured(pairs),
        "run_median_watts": median_of_atoms(atoms),
        "measured_median_watts": median_of_measured(pairs),
        "ks": ks_distance(atoms, pairs),
        "least_two_level_ks": best_ks,
        "least_two_level_ks_busy_share": best_share,
        "run_distribution": atoms,
    }


def markdown(r):
    low, high = r["bands_watts"]
    lines = [f"| | below {low:.4g} W | {low:.4g}-{high:.4g} W | above {high:.4g} W | mean W | median W |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, bands, mean, median in (("gcsim", r["run_bands"], r["run_mean_watts"], r["run_median_watts"]),
                                      ("measured", r["measured_bands"], r["measured_mean_watts"],
                                       r["measured_median_watts"])):
        lines.append(f"| {name} | {100 * bands[0]:.1f}% | {100 * bands[1]:.1f}% | {100 * bands[2]:.1f}% | "
                     f"{mean:.1f} | {median:.1f} |")
    lines.append("")
    lines.append(f"KS distance {r['ks']:.3f}; the least any busy share could give with this power model "
                 f"{r['least_two_level_ks']:.3f} (at a busy share of {r['least_two_level_ks_busy_share']:.3f}).")
    return "\n".join(lines)


def plot(r, pairs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot([w for w, _ in pairs], [p for _, p in pairs], label="measured")
    xs, ys, cumulative = [pairs[0][0]], [0.0], 0.0
    for watts, share in r["run_distribution"]:
        xs += [watts, watts]
        ys += [cumulative, cumulative + share]
        cumulative += share
    xs.append(max(pairs[-1][0], xs[-1]))
    ys.append(1.0)
    ax.plot(xs, ys, linestyle="--", label="gcsim")
    ax.set_xlabel("GPU power (W)")
    ax.set_ylabel("share of GPU time at or below")
    ax.set_ylim(0, 1.02)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right")
    ax.set_title(f"Per-GPU power: KS {r['ks']:.3f}")
    fig.tight_layout()
    staged = path + ".tmp.png"
    fig.savefig(staged, dpi=100)
    plt.close(fig)
    os.replace(staged, path)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir")
    parser.add_argument("--watts", required=True, help="IDLE,BUSY[,COMMUNICATING] of the run's GPU type")
    parser.add_argument("--measured", required=True, help="AcmeTrace's gpu_power_*.pkl, or a CSV watts,percent")
    parser.add_argument("--bands", help="LOW,HIGH band edges, watts")
    parser.add_argument("--plot")
    parser.add_argument("--json")
    args = parser.parse_args(argv[1:])
    try:
        watts = [float(w) for w in args.watts.split(",")]
        if len(watts) not in (2, 3) or any(w < 0 for w in watts) or watts[1] < watts[0]:
            raise ValueError
    except ValueError:
        parser.error("--watts: IDLE,BUSY[,COMMUNICATING], numbers >= 0, BUSY >= IDLE")
    idle, busy = watts[0], watts[1]
    communicating = watts[2] if len(watts) == 3 else idle
    bands = None
    if args.bands:
        try:
            bands = tuple(float(b) for b in args.bands.split(","))
            if len(bands) != 2 or bands[0] >= bands[1]:
                raise ValueError
        except ValueError:
            parser.error("--bands: LOW,HIGH in watts, LOW < HIGH")
    try:
        r = compare(args.run_dir, idle, busy, communicating, args.measured, bands)
    except (OSError, KeyError, ValueError) as e:
        print(f"gpu_power_distribution.py: error: {e}", file=sys.stderr)
        return 1
    print(markdown(r))
    if args.json:
        staged = args.json + ".tmp"
        with open(staged, "w") as f:
            json.dump(r, f, indent=2)
        os.replace(staged, args.json)
    if args.plot:
        plot(r, measured_distribution(args.measured), args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
