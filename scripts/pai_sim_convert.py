#!/usr/bin/env python3
"""Converts the input CSV of Alibaba's PAI simulator into gcsim inputs.

The PAI simulator is cluster-trace-gpu-v2020/simulator of
github.com/alibaba/clusterdata. Its input CSV (traces/pai/pai_job_*_100K.csv)
has one row per job with the columns job_id, num_inst, submit_time, num_cpu,
num_gpu, gpu_type, duration and user (plus duration estimates in the
"duration_estimate" variant). This script gives gcsim the jobs that simulator
runs, as it runs them:

  * it reads the first 10 x N + 1 rows, as the simulator does when asked for
    N jobs, and when N does not exceed them draws the same N jobs: Python's
    random generator seeded with the simulator's seed (42) shuffles the rows
    and the first N are kept;
  * arrival times: the kept jobs, in (submit_time, job_id) order, arrive R per
    minute: the k-th (from 0) at floor(k / R) x 60 s; that time replaces
    submit_time, so the simulator's first-come order is (arrival, job_id),
    the order in which the jobs are written;
  * GPUs and cores: the simulator counts both in hundredths (num_gpu and
    num_cpu x 100, rounded) per instance; a job asks num_inst times that from
    one pooled node of G GPUs and round(23.22 x G) cores; an instance asking
    more than the node holds is cut down to the node's size, as the
    simulator does;
  * run time: the duration column truncated to whole seconds, at least 1.

A gcsim job needs at least one GPU and whole cores, so a job's total GPU
demand D (in GPUs) becomes: D whole GPUs when D is a whole number; one GPU at
a share of D when D < 1; ceil(D) GPUs each at a share of D / ceil(D)
otherwise; a job asking no GPU (CPU only) gets one GPU at a share of 0.01,
the simulator's smallest unit. Its cores are rounded up to a whole number.
The duration is measured on the cluster's GPU type and not rescaled.

usage:
  pai_sim_convert.py --csv FILE --jobs N --arrival-rate R --gpus G
                     --workload-out FILE --cluster-out FILE [--seed 42]
                     [--gpu-type V100] [--interval 60] [--order-out FILE]
Outputs are written to a temporary file and renamed into place.
"""
import argparse
import csv
import json
import math
import os
import random
import sys
import tempfile

CPUS_PER_GPU = 23.22  # the simulator's pooled node: round(23.22 x GPUs) cores
SMALLEST_SHARE = 0.01  # one hundredth of a GPU, the simulator's unit


def whole_number(text):
    """A field the simulator reads as an integer: digits only."""
    return text is not None and text.isdigit()


def read_jobs(path, row_limit):
    """Reads the rows as the simulator interprets them (see module doc)."""
    jobs = []
    with open(path, newline="") as fd:
        reader = csv.DictReader(fd)
        missing = {"job_id", "duration"} - set(reader.fieldnames or [])
        if missing:
            raise ValueError("%s: missing column(s) %s" % (path, ", ".join(sorted(missing))))
        for i, row in enumerate(reader):
            job_id = row["job_id"]
            job_id = round(float(job_id)) if whole_number(job_id) else job_id

            def amount(key, default):
                value = row.get(key)
                if value is None or value == "":
                    return default
                return value

            num_inst = amount("num_inst", None)
            num_inst = 1 if num_inst is None else round(float(num_inst))
            submit = amount("submit_time", None)
            submit = 1 if submit is None else round(float(submit))
            num_gpu = amount("num_gpu", None)
            num_gpu = 0 if num_gpu is None else round(100 * float(num_gpu))
            num_cpu = amount("num_cpu", None)
            num_cpu = 0 if num_cpu is None else round(100 * float(num_cpu))
            duration = int(float(row["duration"]))
            if duration <= 0:
                duration = 1
            jobs.append({
                "job_id": job_id, "num_inst": num_inst, "submit_time": submit,
                "num_gpu": num_gpu, "num_cpu": num_cpu, "duration": duration,
                "user": row.get("user") or "default", "row": i,
            })
            if i >= row_limit:
                break
    return jobs


def select_jobs(jobs, count, seed, arrival_rate, interval):
    """The jobs of one run and their arrival times, in first-come order."""
    rng = random.Random(seed)
    if count <= len(jobs):
        rng.shuffle(jobs)
        jobs = jobs[:count]
    if arrival_rate is not None and arrival_rate >= 0:
        jobs.sort(key=lambda j: (j["submit_time"], j["job_id"]))
        for k, job in enumerate(jobs):
            job["arrival"] = (k // arrival_rate) * interval
        # The arrival time replaces submit_time, and the simulator's queue
        # order is (submit_time, job_id): within a minute, by job id.
        jobs.sort(key=lambda j: (j["arrival"], j["job_id"]))
    else:
        for job in jobs:
            job["arrival"] = job["submit_time"]
        jobs.sort(key=lambda j: (j["submit_time"], j["job_id"]))
    return jobs


def gpu_request(total_units):
    """(gpus, share) for a demand in hundredths of a GPU."""
    if total_units <= 0:
        return 1, SMALLEST_SHARE
    if total_units % 100 == 0:
        return total_units // 100, 1.0
    gpus = math.ceil(total_units / 100)
    return gpus, round(total_units / (100 * gpus), 6)


def native_job(job, gpu_type, node_gpu_units, node_cpu_units):
    num_gpu = min(job["num_gpu"], node_gpu_units)
    num_cpu = min(job["num_cpu"], node_cpu_units)
    gpus, share = gpu_request(job["num_inst"] * num_gpu)
    out = {"id": str(job["job_id"]), "user": str(job["user"]), "submit": job["arrival"], "gpus": gpus}
    if share < 1:
        out["gpu_share"] = share
    cores = math.ceil(job["num_inst"] * num_cpu / 100)
    if cores > 0:
        out["cpu_cores"] = cores
    out["duration"] = {"seconds": job["duration"], "gpu_type": gpu_type, "rescale": False}
    return out


def cluster_json(gpus, gpu_type):
    cores = round(CPUS_PER_GPU * gpus)
    return {
        "name": "pai-pooled-%dgpu" % gpus,
        "gpu_types": [{"name": gpu_type, "flops": "15.7TFLOPS", "memory": "32GB"}],
        "node_groups": [{
            "name": "pool", "count": 1, "gpus_per_node": gpus, "gpu_type": gpu_type,
            "cpu_cores": cores, "memory": "%dTB" % max(1, gpus * 80 // 1000),
            "intra_node": {"kind": "nvlink", "bandwidth": "150GB/s", "latency": "2us"},
            "nic": {"bandwidth": "100Gbps", "latency": "5us"},
        }],
        "network_model": {"model": "CM02", "latency_factor": 1.0, "bandwidth_factor": 1.0,
                          "tcp_window": 0, "crosstraffic": False},
    }


def write_atomically(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".")
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise


def main(argv):
    parser = argparse.ArgumentParser(description="PAI simulator CSV -> gcsim workload and cluster")
    parser.add_argument("--csv", required=True)
    parser.add_argument("--jobs", type=int, required=True)
    parser.add_argument("--arrival-rate", type=int, required=True, help="jobs per interval; -1 keeps submit_time")
    parser.add_argument("--gpus", type=int, required=True)
    parser.add_argument("--workload-out", required=True)
    parser.add_argument("--cluster-out", required=True)
    parser.add_argument("--order-out", help="CSV: job id, arrival, GPUs in hundredths, duration (first-come order)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--gpu-type", default="V100")
    parser.add_argument("--interval", type=int, default=60)
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.gpus < 1 or args.arrival_rate == 0:
        parser.error("--jobs and --gpus must be >= 1, --arrival-rate not 0")
    if not os.path.isfile(args.csv):
        print("pai_sim_convert: no input CSV at %s" % args.csv, file=sys.stderr)
        return 1

    jobs = select_jobs(read_jobs(args.csv, args.jobs * 10), args.jobs, args.seed, args.arrival_rate, args.interval)
    node_gpu_units = args.gpus * 100
    node_cpu_units = round(CPUS_PER_GPU * args.gpus) * 100
    native = [native_job(j, args.gpu_type, node_gpu_units, node_cpu_units) for j in jobs]
    too_big = [j["id"] for j in native if j["gpus"] > args.gpus]
    if too_big:
        print("pai_sim_convert: %d job(s) ask more GPUs than the node holds (first: %s); "
              "the PAI simulator never finishes them" % (len(too_big), too_big[0]), file=sys.stderr)
        return 1

    lines = ",\n".join("    " + json.dumps(j, separators=(", ", ": ")) for j in native)
    write_atomically(args.workload_out, '{\n  "jobs": [\n' + lines + "\n  ]\n}\n")
    write_atomically(args.cluster_out, json.dumps(cluster_json(args.gpus, args.gpu_type), indent=2) + "\n")
    if args.order_out:
        rows = ["job_id,arrival,gpu_units,cpu_units,duration"]
        rows += ["%s,%d,%d,%d,%d" % (j["job_id"], j["arrival"], j["num_inst"] * min(j["num_gpu"], node_gpu_units),
                                     j["num_inst"] * min(j["num_cpu"], node_cpu_units), j["duration"]) for j in jobs]
        write_atomically(args.order_out, "\n".join(rows) + "\n")
    shared = sum(1 for j in native if "gpu_share" in j)
    cpu_only = sum(1 for j in jobs if j["num_gpu"] == 0)
    print("pai_sim_convert: %d jobs (%d on a GPU share, %d asking no GPU), arrivals 0..%d s, "
          "cluster 1 node x %d GPUs, %d cores" % (len(native), shared, cpu_only, jobs[-1]["arrival"] if jobs else 0,
                                                   args.gpus, round(CPUS_PER_GPU * args.gpus)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
