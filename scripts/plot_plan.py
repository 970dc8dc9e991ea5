#!/usr/bin/env python3
"""Draws DIR/slo_N.png from DIR/plan.json (gcsim plan): each SLO's metric against
the nodes tried (in all, for a mix of node types), its 95% interval as error bars, the bound as a line and the
answer marked. Identical runs (ci95_half_width null) have no interval: no bar. Usage: plot_plan.py DIR"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    out_dir = sys.argv[1]
    with open(os.path.join(out_dir, "plan.json")) as f:
        plan = json.load(f)
    answer = plan["answer"]["mix"] if plan["answer"] else None
    for i, slo in enumerate(plan["slos"]):
        points = [(s["nodes"], s["metrics"][slo["slo"]], s["mix"]) for s in plan["sizes"] if slo["slo"] in s["metrics"]]
        fig, ax = plt.subplots(figsize=(7, 4))
        if points:
            ax.errorbar([p[0] for p in points], [p[1]["mean"] for p in points],
                        yerr=[p[1]["ci95_half_width"] or 0 for p in points], fmt="o", capsize=3, label="sizes tried")
        ax.axhline(slo["bound"], color="red", linestyle="--", label="bound (" + slo["slo"] + ")")
        for nodes, metrics, mix in points:
            if mix == answer:
                ax.plot([nodes], [metrics["mean"]], marker="*", markersize=16, color="green", linestyle="",
                        label="answer: %d nodes" % nodes)
        ax.set_xlabel("nodes")
        ax.set_ylabel(slo["metric"])
        ax.set_title("gcsim plan: " + slo["slo"])
        ax.legend()
        fig.tight_layout()
        path = os.path.join(out_dir, "slo_%d.png" % (i + 1))
        fig.savefig(path, dpi=100)
        plt.close(fig)
        print("  plot        " + path)


if __name__ == "__main__":
    main()
