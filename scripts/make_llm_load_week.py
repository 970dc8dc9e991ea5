#!/usr/bin/env python3
"""Writes a week of large-model training jobs for scenarios/clusters/h100-rails-16k-gpu.json
at a chosen load, LLM jobs only, for the scaling report (scripts/scaling-report.sh --llm-jobs);
the bundled week beside today's kinds is scripts/make_llm_week.py's.

N jobs (default 1,000) arrive as a Poisson process over D days (default 7), in the mix of
scenarios/workloads/llm-mixed-week.json, every one an `llm_training` job
(docs/workload-format.md):

  share  model                                     parallelism                      GPUs        median run
  5%     175B-like (GPT-3), recomputation, ZeRO    TP8 x PP8 x DP 8..64             512-4,096   8 h
  12%    70B-like (Llama), ZeRO                    TP8 x PP4 x DP 2..16             64-512      12 h
  10%    Mixtral-like MoE, 8 experts, top 2        TP4 x PP2 x DP 8..32, EP8        64-256      12 h
  13%    13B-like (GPT)                            TP8 x DP 4..16                   32-128      6 h
  60%    8-GPU fine-tunes: 7B DP8 ZeRO, 13B TP8,   one node                         8           2 h
         Mixtral-like DP8 x EP8

A job's run time alone is drawn lognormal (sigma 0.8) around its class's median, within
[15 min, 72 h] (fine-tunes [10 min, 12 h]); its iterations are that time over the seconds
one iteration of its shape takes alone on the H100 rail cluster (ITERATION_SECONDS below,
jobs.csv's `uncontended` of a one-iteration run of each shape, to three digits). With the
defaults the jobs ask about 0.7 of the cluster's GPU-hours for the week.

Usage: scripts/make_llm_load_week.py [--jobs N] [--days D] [--seed S] OUT.json
Deterministic: the same options give the same file (Python's random with the seed, default 1);
the standard library only. Prints the jobs per class and the GPU-hours asked to stderr.
"""
import argparse
import json
import math
import random
import sys

HOUR = 3600.0

GPT_175B = {"parameters": 1.75e11, "layers": 96, "hidden_size": 12288, "sequence_length": 2048,
            "vocabulary_size": 50257, "global_batch": 1536}
LLAMA_70B = {"parameters": 6.9e10, "layers": 80, "hidden_size": 8192, "sequence_length": 4096,
             "vocabulary_size": 32000, "global_batch": 256}
MIXTRAL = {"parameters": 4.67e10, "layers": 32, "hidden_size": 4096, "sequence_length": 4096,
           "vocabulary_size": 32000, "global_batch": 512, "experts": 8, "top_k": 2}
GPT_13B = {"parameters": 1.3e10, "layers": 40, "hidden_size": 5120, "sequence_length": 2048,
           "vocabulary_size": 50257, "global_batch": 512}

# (class, model, parallel degrees but data, other fields, data degrees drawn from, median hours, share)
PRETRAINING = [
    ("gpt175b", GPT_175B, {"tensor": 8, "pipeline": 8},
     {"recomputation": True, "gradients": "zero", "dp_overlap": 0.5}, [8, 16, 32, 64], 8, 0.05),
    ("llama70b", LLAMA_70B, {"tensor": 8, "pipeline": 4}, {"gradients": "zero", "dp_overlap": 0.5},
     [2, 4, 8, 16], 12, 0.12),
    ("mixtral", MIXTRAL, {"tensor": 4, "pipeline": 2, "expert": 8}, {"gradients": "allreduce", "dp_overlap": 0.5},
     [8, 16, 32], 12, 0.10),
    ("gpt13b", GPT_13B, {"tensor": 8}, {"dp_overlap": 0.8}, [4, 8, 16], 6, 0.13),
]
FINE_TUNES = [
    ("ft7b", {"model": {"parameters": 6.7e9, "layers": 32, "hidden_size": 4096, "sequence_length": 4096,
                        "vocabulary_size": 32000, "global_batch": 64, "micro_batch": 2},
              "parallel": {"data": 8}, "gradients": "zero", "dp_overlap": 1}),
    ("ft13b", {"model": {"parameters": 1.3e10, "layers": 40, "hidden_size": 5120, "sequence_length": 4096,
                         "vocabulary_size": 32000, "global_batch": 32},
               "parallel": {"tensor": 8}, "dp_overlap": 0.5}),
    ("ftmixtral", {"model": {"parameters": 4.67e10, "layers": 32, "hidden_size": 4096, "sequence_length": 4096,
                             "vocabulary_size": 32000, "global_batch": 64, "experts": 8, "top_k": 2},
                   "parallel": {"data": 8, "expert": 8}, "gradients": "zero", "dp_overlap": 0.5}),
]
FINE_TUNE_MEDIAN_HOURS = 2

# Seconds of one iteration alone on h100-rails-16k-gpu.json, by class and data degree.
ITERATION_SECONDS = {
    ("gpt175b", 8): 13.0, ("gpt175b", 16): 6.83, ("gpt175b", 32): 3.74, ("gpt175b", 64): 2.20,
    ("llama70b", 2): 10.6, ("llama70b", 4): 5.49, ("llama70b", 8): 2.94, ("llama70b", 16): 1.67,
    ("mixtral", 8): 7.32, ("mixtral", 16): 3.79, ("mixtral", 32): 2.03,
    ("gpt13b", 4): 5.05, ("gpt13b", 8): 2.58, ("gpt13b", 16): 1.35,
    ("ft7b", 8): 1.55, ("ft13b", 1): 2.41, ("ftmixtral", 8): 2.56,
}


def run_seconds(rng, median_hours, low_hours, high_hours):
    hours = median_hours * math.exp(rng.gauss(0, 0.8))
    return min(max(hours, low_hours), high_hours) * HOUR


def draw_job(rng, index, submit):
    """One job: its class by share, its size and run time drawn."""
    pick = rng.random()
    for name, model, parallel, extra, data_degrees, median, share in PRETRAINING:
        if pick < share:
            data = rng.choice(data_degrees)
            degrees = dict(parallel, data=data)
            gpus = degrees["tensor"] * degrees.get("pipeline", 1) * data
            seconds = run_seconds(rng, median, 0.25, 72)
            iterations = max(1, round(seconds / ITERATION_SECONDS[(name, data)]))
            work = dict({"model": model, "parallel": degrees}, **extra, iterations=iterations)
            return name, {"id": "%s-%d" % (name, index), "submit": submit, "gpus": gpus, "llm_training": work}
        pick -= share
    name, fields = rng.choice(FINE_TUNES)
    seconds = run_seconds(rng, FINE_TUNE_MEDIAN_HOURS, 1 / 6, 12)
    key = (name, fields["parallel"].get("data", 1))
    work = dict(fields, iterations=max(1, round(seconds / ITERATION_SECONDS[key])))
    return name, {"id": "%s-%d" % (name, index), "submit": submit, "gpus": 8, "llm_training": work}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1000)
    parser.add_argument("--days", type=float, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("out")
    args = parser.parse_args()
    if args.jobs < 1 or args.days <= 0:
        sys.exit("make_llm_load_week.py: --jobs must be at least 1 and --days above 0")
    rng = random.Random(args.seed)
    mean_gap = args.days * 24 * HOUR / args.jobs
    jobs, per_class, gpu_hours, submit = [], {}, 0.0, 0.0
    for index in range(args.jobs):
        name, job = draw_job(rng, index, round(submit, 3))
        jobs.append(job)
        per_class[name] = per_class.get(name, 0) + 1
        key = (name, job["llm_training"]["parallel"].get("data", 1))
        gpu_hours += job["gpus"] * job["llm_training"]["iterations"] * ITERATION_SECONDS[key] / HOUR
        submit += rng.expovariate(1 / mean_gap)
    with open(args.out, "w") as out:
        out.write('{"jobs": [\n')
        out.write(",\n".join(json.dumps(job) for job in jobs))
        out.write("\n]}\n")
    capacity = 16384 * args.days * 24
    print("make_llm_load_week.py: %d jobs (%s), %.0f GPU-hours alone, %.2f of 16,384 GPUs over %g days" %
          (len(jobs), ", ".join("%s %d" % kv for kv in sorted(per_class.items())), gpu_hours, gpu_hours / capacity,
           args.days), file=sys.stderr)


if __name__ == "__main__":
    main()
