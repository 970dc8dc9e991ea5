#!/usr/bin/env python3
"""Writes scenarios/workloads/mixed-512gpu.json: every job type gcsim models, over
two days on scenarios/clusters/cluster-512gpu.json, in the queues of
scenarios/capacity/yarn-two-queues.json (prod, research). With --training-only
it writes the training-only workload of the same size (the same jobs count and
submit times, every job ring-allreduce training) to compare run times.

Usage: scripts/make_mixed_workload.py [--training-only] OUT.json
Deterministic: a fixed seed; the standard library only.
"""
import json
import random
import sys

RESNET = {"flops_per_iteration": 3.149e12, "gradient_bytes": "102.4MB"}
DAY = 86400


def training(rng, gpus, iterations, **extra):
    work = dict(RESNET, iterations=iterations)
    work.update(extra)
    return {"gpus": gpus, "training": work}


def serving(rng, length):
    """A deployment whose load follows the day (low at night, peak in the afternoon), autoscaled."""
    peak = rng.choice([400, 800, 1200])
    rates = [{"at": h * 3600, "rate": round(peak * (0.2 + 0.8 * max(0.0, 1 - abs(h % 24 - 15) / 9)), 1)}
             for h in range(0, int(length // 3600))]
    return {"length": length, "rates": rates, "throughput": 100, "latency": 0.02, "slo": 0.5, "replicas": 2,
            "startup": 60, "autoscaler": {"target": 0.7, "min_replicas": 1, "max_replicas": 16}}


def mixed_jobs(rng):
    jobs = []

    def add(kind_id, submit, body, queue=None):
        job = {"id": kind_id, "user": "user-%d" % rng.randrange(1, 13),
               "queue": queue or rng.choice(["prod", "research"]), "submit": round(submit, 3)}
        job.update(body)
        jobs.append(job)

    for i in range(160):  # ring-allreduce training, some reading real data
        gpus = rng.choice([1, 2, 4, 8, 8, 16, 32])
        body = training(rng, gpus, rng.randrange(20000, 200000))
        if i % 3 == 0:
            body["cpu_cores"] = 4 + 4 * gpus
            body["training"]["input_pipeline"] = {"samples_per_gpu": 64, "core_samples_per_s": 38}
        add("train-%03d" % i, rng.uniform(0, 2 * DAY), body)
    for i in range(30):  # parameter servers
        add("ps-%03d" % i, rng.uniform(0, 2 * DAY),
            training(rng, rng.choice([4, 8, 16]), rng.randrange(20000, 100000), parameter_servers=rng.choice([1, 2, 4])))
    for i in range(30):  # hierarchical allreduce with tensor fusion
        add("hier-%03d" % i, rng.uniform(0, 2 * DAY),
            training(rng, rng.choice([16, 32]), rng.randrange(20000, 100000), allreduce="hierarchical",
                     fusion_buffer="25MB"))
    for i in range(200):  # runs measured on a V100
        add("measured-%03d" % i, rng.uniform(0, 2 * DAY),
            {"gpus": rng.choice([1, 1, 2, 4, 8]),
             "duration": {"seconds": round(rng.expovariate(1 / 10800), 1) + 60, "gpu_type": "V100"}})
    for i in range(10):  # render farms
        add("render-%03d" % i, rng.uniform(0, 2 * DAY),
            {"frame_chain": {"frames": 50, "elements": 3, "element_seconds": 60, "render_seconds": 60,
                             "schedule": "pipelined"}}, "research")
    for i in range(60):  # notebooks; half released after 30 min idle
        notebook = {"length": "8h", "busy_fraction": 0.15, "burst": "15min", "seed": i + 1}
        if i % 2:
            notebook["idle_timeout"] = "30min"
        add("notebook-%03d" % i, rng.uniform(0, 2 * DAY), {"gpus": 1, "notebook": notebook}, "research")
    for i in range(20):  # workflows: prepare on CPUs, then train, then evaluate; the first four then serve
        start = rng.uniform(0, 2 * DAY)
        add("prepare-%03d" % i, start,
            {"cpu_cores": 16, "memory": "64GB", "cpu": {"core_seconds": 16 * 1800}}, "prod")
        body = training(rng, 8, 10000)
        body.update(after=["prepare-%03d" % i], after_delay=60)
        add("wf-train-%03d" % i, start, body, "prod")
        add("evaluate-%03d" % i, start,
            {"gpus": 1, "after": ["wf-train-%03d" % i], "duration": {"seconds": 900, "gpu_type": "V100"}}, "prod")
        if i < 4:
            add("deploy-%03d" % i, start,
                {"gpus": 1, "after": ["evaluate-%03d" % i], "serving": serving(rng, 6 * 3600)}, "prod")
    for i in range(40):  # CPU-only data preparation (ETL)
        cores = rng.choice([4, 8, 16])
        add("etl-%03d" % i, rng.uniform(0, 2 * DAY),
            {"cpu_cores": cores, "memory": "%dGB" % (4 * cores),
             "cpu": {"seconds": round(rng.expovariate(1 / 3600), 1) + 60}})
    for i in range(2):  # serving deployments over both days, autoscaled on a daily load
        add("serve-%03d" % i, 0, {"gpus": 1, "serving": serving(rng, 2 * DAY)}, "prod")
    for i in range(20):  # inference, two misconfigured (they outgrow their ask and fail under isolation)
        body = {"gpus": 1, "gpu_memory": "6GB",
                "duration": {"seconds": round(rng.uniform(1800, 7200), 1), "gpu_type": "V100"}}
        if i < 2:
            body["gpu_memory_use"] = [{"at": 0, "bytes": "6GB"}, {"at": "20min", "bytes": "20GB"}]
        add("infer-%03d" % i, rng.uniform(0, 2 * DAY), body, "prod")
    return jobs


def training_only(rng, count):
    jobs = []
    for i in range(count):
        body = training(rng, rng.choice([1, 2, 4, 8, 8, 16, 32]), rng.randrange(20000, 200000))
        jobs.append(dict({"id": "train-%04d" % i, "user": "user-%d" % rng.randrange(1, 13),
                          "queue": rng.choice(["prod", "research"]), "submit": round(rng.uniform(0, 2 * DAY), 3)},
                         **body))
    return jobs


def main():
    args = sys.argv[1:]
    only = "--training-only" in args
    paths = [a for a in args if a != "--training-only"]
    if len(paths) != 1:
        sys.exit("usage: make_mixed_workload.py [--training-only] OUT.json")
    rng = random.Random(2026)
    jobs = mixed_jobs(rng)
    if only:
        jobs = training_only(random.Random(2026), len(jobs))
    jobs.sort(key=lambda job: job["submit"])
    with open(paths[0], "w") as out:
        out.write('{\n  "jobs": [\n')
        out.write(",\n".join("    " + json.dumps(job) for job in jobs))
        out.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
