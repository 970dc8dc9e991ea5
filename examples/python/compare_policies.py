#!/usr/bin/env python3
"""Three policies on a Philly trace excerpt, side by side, and their JCT CDFs.

Replays the 400 jobs of the bundled Philly excerpt
(traces/excerpts/philly/, see traces/README.md) on the 32-GPU rack under
the C++ policies fifo and srtf and a FIFO written in Python, prints the
comparison table (gcsim compare's comparison.md) and plots each policy's
CDF of job completion time into a PNG with matplotlib.

    python3 examples/python/compare_policies.py [--out jct_cdf.png]

Needs the module (scripts/build.sh) and matplotlib (Debian: python3-matplotlib).
"""

import argparse
import pathlib

import matplotlib

matplotlib.use("Agg")  # a file, no display
import matplotlib.pyplot as plt  # noqa: E402

import gcsim  # noqa: E402

SOURCE = pathlib.Path(__file__).resolve().parents[2]
CLUSTER = SOURCE / "scenarios/clusters/rack-32gpu.json"
TRACE = "philly:" + str(SOURCE / "traces/excerpts/philly/philly_jobs_pollux.first400.csv")



class MyFifo(gcsim.Policy):
    """First come, first served: the waiting jobs in order of submission,
    each on the GPUs the pack placement picks, until one does not fit."""

    def schedule(self, cluster, queue, plan):
        for job in queue.waiting:
            gpus = gcsim.placement.pack(job, cluster)
            if gpus is None:
                return  # the head of the queue blocks the jobs behind it
            plan.allocate(job, gpus)


POLICIES = ["fifo", "srtf", MyFifo()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="jct_cdf.png", help="the PNG to write (default: jct_cdf.png)")
    args = parser.parse_args()

    comparison = gcsim.compare(CLUSTER, TRACE, POLICIES, trace_opt={"gpu_type": "V100"})
    print(comparison.markdown)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, run in comparison.runs.items():
        jct = run.jobs.loc[run.jobs.state == "finished", "jct"].sort_values() / 3600
        ax.step(jct, [(i + 1) / len(jct) for i in range(len(jct))], where="post", label=name)
    ax.set_xscale("log")
    ax.set_xlabel("job completion time (h)")
    ax.set_ylabel("fraction of finished jobs")
    ax.set_title(f"{len(comparison.runs['fifo'].jobs)} Philly jobs on {CLUSTER.stem}")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
