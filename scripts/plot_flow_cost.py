#!/usr/bin/env python3
"""flow_cost.csv and flow_cost.png from BM_ConcurrentFlows' JSON (scripts/flow-cost-report.sh).

One row per size: flows started, SimGrid solver calls, engine.run() seconds,
seconds per flow and per solver call, peak RSS. The plot draws the two costs
against the flows running at once, log-log.

Usage: python3 scripts/plot_flow_cost.py BENCHMARK.json OUTDIR [--no-plot]
"""
import csv
import json
import os
import sys

FIELDS = ["flows", "solver_calls", "engine_s", "s_per_flow", "s_per_solver_call", "peak_rss_MB"]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1]) as f:
        runs = [b for b in json.load(f)["benchmarks"]
                if b["name"].startswith("BM_ConcurrentFlows/") and b.get("run_type", "iteration") == "iteration"]
    if not runs:
        sys.exit("plot_flow_cost.py: %s holds no BM_ConcurrentFlows run" % sys.argv[1])
    rows = sorted(({field: run[field] for field in FIELDS} for run in runs), key=lambda r: r["flows"])
    out_csv = os.path.join(sys.argv[2], "flow_cost.csv")
    with open(out_csv + ".tmp", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(out_csv + ".tmp", out_csv)
    if len(sys.argv) == 4:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    flows = [r["flows"] for r in rows]
    ax.plot(flows, [r["s_per_flow"] for r in rows], "o-", label="seconds per flow started")
    ax.plot(flows, [r["s_per_solver_call"] for r in rows], "s-", label="seconds per solver call")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("flows running at once")
    ax.set_ylabel("engine.run() seconds")
    ax.set_title("BM_ConcurrentFlows, 16,384-GPU H100 rail cluster")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    out_png = os.path.join(sys.argv[2], "flow_cost.png")
    fig.savefig(out_png + ".tmp.png")
    os.replace(out_png + ".tmp.png", out_png)


if __name__ == "__main__":
    main()
