#!/usr/bin/env python3
"""Writes scenarios/workloads/llm-week-16k.json: a week of large models'
training and the jobs around them on scenarios/clusters/h100-rails-16k-gpu.json
(16,384 H100s on rails): 175B-like models on TP8 x PP8 x DP16 or DP32
(1,024 or 2,048 GPUs), 70B-like ones on TP8 x PP4 x DP16 (512), Mixtral-like
mixtures of experts on TP4 x PP2 x DP32 x EP8 (256), 13B-like ones on
TP8 x DP16 (128), 8-GPU fine-tunes (DP8 with ZeRO, TP8, an MoE on EP8),
data-parallel training of 8 to 64 GPUs and notebooks of one GPU, submitted
through the week at random (a fixed seed), about 60% of the GPUs' time asked.

Usage: scripts/make_llm_week.py OUT.json
Deterministic: a fixed seed; the standard library only.
"""
import json
import random
import sys

DAY = 86400
WEEK = 7 * DAY

GPT3_175B = {"parameters": 1.75e11, "layers": 96, "hidden_size": 12288, "sequence_length": 2048,
             "vocabulary_size": 50257, "micro_batch": 1}
LLAMA_70B = {"parameters": 6.9e10, "layers": 80, "hidden_size": 8192, "sequence_length": 4096,
             "vocabulary_size": 32000, "micro_batch": 1}
MIXTRAL = {"parameters": 4.67e10, "layers": 32, "hidden_size": 4096, "sequence_length": 4096,
           "vocabulary_size": 32000, "experts": 8, "top_k": 2, "moe_layer_interval": 1}
GPT_13B = {"parameters": 1.3e10, "layers": 40, "hidden_size": 5120, "sequence_length": 2048,
           "vocabulary_size": 50257, "micro_batch": 1}
LLAMA_7B = {"parameters": 6.7e9, "layers": 32, "hidden_size": 4096, "sequence_length": 4096,
            "vocabulary_size": 32000, "micro_batch": 2}
LLAMA_13B = {"parameters": 1.3e10, "layers": 40, "hidden_size": 5120, "sequence_length": 4096,
             "vocabulary_size": 32000}
RESNET50 = {"flops_per_iteration": 3.149e12, "gradient_bytes": "102.4MB"}
BERT_LARGE = {"flops_per_iteration": 3.342e13, "gradient_bytes": "1.36GB"}


def llm(model, batch, parallel, iterations, **extra):
    body = {"model": dict(model, global_batch=batch), "parallel": parallel, "iterations": iterations}
    body.update(extra)
    return body


def week_jobs(rng):
    jobs = []

    def add(name, user, submit, gpus, kind, body):
        jobs.append({"id": "%s-%03d" % (name, len(jobs)), "user": user, "submit": round(submit, 1), "gpus": gpus,
                     kind: body})

    # Iterations are chosen for the run times wanted alone on H100s: about
    # 3.3 s an iteration for the 175B-like, 2.1 s for the 70B-like, 1.9 s
    # for the MoE, 0.75 s for the 13B-like.
    for _ in range(4):
        dp = 16
        add("gpt3-175b", "alice", rng.uniform(0, 5 * DAY), 64 * dp, "llm_training",
            llm(GPT3_175B, 96 * dp, {"tensor": 8, "pipeline": 8, "data": dp}, rng.randrange(40000, 80000),
                recomputation=True, gradients="zero", dp_overlap=0.5))
    for _ in range(12):
        add("llama-70b", "bob", rng.uniform(0, 6 * DAY), 512, "llm_training",
            llm(LLAMA_70B, 512, {"tensor": 8, "pipeline": 4, "data": 16}, rng.randrange(20000, 50000),
                gradients="zero", dp_overlap=0.5))
    for _ in range(16):
        add("mixtral-8x7b", "bob", rng.uniform(0, 6.5 * DAY), 256, "llm_training",
            llm(MIXTRAL, 512, {"tensor": 4, "pipeline": 2, "data": 32, "expert": 8}, rng.randrange(10000, 30000),
                gradients="allreduce", dp_overlap=0.5))
    for _ in range(16):
        add("gpt-13b", "carol", rng.uniform(0, 6.5 * DAY), 128, "llm_training",
            llm(GPT_13B, 512, {"tensor": 8, "data": 16}, rng.randrange(20000, 60000), dp_overlap=0.8))
    for _ in range(150):
        pick = rng.random()
        if pick < 0.5:
            body = llm(LLAMA_7B, 64, {"data": 8}, rng.randrange(200, 3000), gradients="zero", dp_overlap=1)
        elif pick < 0.8:
            body = llm(LLAMA_13B, 32, {"tensor": 8}, rng.randrange(200, 3000), dp_overlap=0.5)
        else:
            body = llm(dict(MIXTRAL, global_batch=64), 64, {"data": 8, "expert": 8}, rng.randrange(100, 1000),
                       gradients="zero", dp_overlap=0.5)
            body["model"].pop("moe_layer_interval")
        add("ft", "dave", rng.uniform(0, 7 * DAY), 8, "llm_training", body)
    for _ in range(30):
        gpus = rng.choice([8, 16, 32, 64])
        work = dict(rng.choice([RESNET50, BERT_LARGE]), iterations=rng.randrange(2000, 20000))
        add("train", "erin", rng.uniform(0, 7 * DAY), gpus, "training", work)
    for _ in range(20):
        add("notebook", "frank", rng.uniform(0, 7 * DAY), 1, "notebook",
            {"length": rng.choice(["2h", "4h", "8h"]), "busy_fraction": 0.15, "burst": "15min",
             "seed": rng.randrange(1, 1000)})
    jobs.sort(key=lambda job: job["submit"])
    return jobs


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    jobs = week_jobs(random.Random(20240917))
    with open(sys.argv[1], "w") as out:
        out.write('{\n  "jobs": [\n')
        out.write(",\n".join("    " + json.dumps(job) for job in jobs))
        out.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
