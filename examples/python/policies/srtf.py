"""Shortest remaining time first on oracle durations, written in Python.

The C++ policy `srtf` (policies/srtf/srtf_policy.hpp), decision for
decision, so that its runs are byte for byte those of `srtf`
(``Srtf(preemptive=False)``: those of ``srtf`` with ``preemptive=false``):

- a job's run time is its oracle duration (``job.oracle_duration``, how long
  it runs alone) times the share of its work no checkpoint kept, plus its
  restore cost when it resumes from one; a running job's remaining time is
  that run time less the time since its last start, never below 0;
- each call walks the waiting jobs by run time (ties: when they joined the
  queue, then workload order); a job starts on the GPUs the run's placement
  finds among those left, or (preemptive) on those freed by preempting
  running jobs whose remaining time is strictly longer, longest first, as
  few as the placement needs; a victim waits again at its place in the walk.

Like the C++ policy it keeps its order across calls: the waiting jobs in one
sorted list per GPU count, updated from gcsim.WaitingChanges, and the
running ones by planned end, updated from the queue's run log; a call visits
the jobs it starts or tries, not the whole queue.

    import gcsim
    from srtf import Srtf
    gcsim.run("scenarios/clusters/rack-32gpu.json", "scenarios/workloads/default.json", Srtf())
"""

import bisect
import heapq
import math

import gcsim
from gcsim import placement

INF = math.inf


def run_time(job):
    """How long the job's next (or current) run takes."""
    oracle = job.oracle_duration
    if oracle == INF:
        return INF
    saved = job.saved_fraction
    return oracle * (1 - saved) + (job.restore_cost if saved > 0 else 0)


def remove(ordered, entry):
    del ordered[bisect.bisect_left(ordered, entry)]


class Srtf(gcsim.Policy):
    """Shortest remaining time first; ``preemptive=False`` never preempts."""

    def __init__(self, preemptive=True):
        self.preemptive = preemptive
        self.changes = gcsim.WaitingChanges()
        self.waiting_order = {}  # GPUs asked -> sorted [(run time, submitted, job)]
        self.waiting_key = {}  # job -> its run time in waiting_order
        self.running = []  # sorted [(planned end, submitted, job, GPUs held)]
        self.running_entry = {}  # job -> its entry in running
        self.running_run = {}  # job -> the run time its run began with
        self.running_start = {}  # job -> its run's start
        self.runs_read = 0  # entries of the run log applied

    def update_waiting_order(self, queue):
        joined, left = self.changes.since_last_call(queue)
        for index in left:
            job = queue.job(index)
            bucket = self.waiting_order[job.gpus]
            remove(bucket, (self.waiting_key[index], job.submitted, index))
            if not bucket:
                del self.waiting_order[job.gpus]
        for index in joined:
            job = queue.job(index)
            key = run_time(job)
            self.waiting_key[index] = key
            bisect.insort(self.waiting_order.setdefault(job.gpus, []), (key, job.submitted, index))

    def update_running(self, queue):
        log = queue.run_log(self.runs_read)
        self.runs_read += len(log)
        for index, started in log:
            if not started:
                remove(self.running, self.running_entry[index])
                continue
            job = queue.job(index)
            run = run_time(job)
            self.running_run[index] = run
            self.running_start[index] = job.start
            entry = (INF if run == INF else job.start + run, job.submitted, index, len(job.held_gpus))
            self.running_entry[index] = entry
            bisect.insort(self.running, entry)

    def schedule(self, cluster, queue, plan):
        self.update_waiting_order(queue)
        if not queue.waiting:
            return
        now = queue.now
        spare = cluster.free_gpu_count  # free (or freed) and not promised in this plan
        if self.preemptive:
            self.update_running(queue)

        def remaining(run):
            run_time_of = self.running_run[run[2]]
            return INF if run_time_of == INF else max(0.0, run_time_of - (now - self.running_start[run[2]]))

        preempted = set()
        preempted_runs = []

        def victim_gpus(key):
            """GPUs a waiting job of remaining time `key` may preempt."""
            if not self.preemptive:
                return 0
            gpus = 0
            for run in reversed(self.running):
                if remaining(run) <= key:
                    break
                gpus += run[3]
            for run in preempted_runs:
                if remaining(run) > key:
                    gpus -= run[3]
            return gpus

        def victims(key):
            """Running jobs not yet preempted, longer than `key`, longest first."""
            for run in reversed(self.running):
                if remaining(run) <= key:
                    return
                if run[2] not in preempted:
                    yield run[2]

        rejoined = []  # victims of this call, waiting again, sorted

        def consider(entry, may_preempt):
            nonlocal spare
            index = entry[2]
            asked = queue.job(index).gpus
            gpus, chosen = None, []
            if asked <= spare:
                gpus = cluster.place(index)
            if gpus is None and asked <= spare + may_preempt:
                gpus, chosen = placement.make_room(index, victims(entry[0]), cluster, free_gpus=spare)
            for victim in chosen:
                job = queue.job(victim)
                plan.preempt(victim)
                self.changes.noted(victim)
                preempted.add(victim)
                preempted_runs.append(self.running_entry[victim])
                spare += len(job.held_gpus)
                bisect.insort(rejoined, (run_time(job), job.submitted, victim))
            if gpus is not None:
                plan.allocate(index, gpus)
                spare -= len(gpus)
                self.changes.noted(index)

        # The waiting jobs in the order, merged from the GPU counts that may
        # still start (see the C++ policy: that bound never grows in a call).
        bound = spare + victim_gpus(-1)
        heads = [(order[0], 0, order, gpus) for gpus, order in self.waiting_order.items() if gpus <= bound]
        heapq.heapify(heads)
        while True:
            from_rejoined = bool(rejoined) and (not heads or rejoined[0] < heads[0][0])
            if not from_rejoined and not heads:
                break
            entry = rejoined[0] if from_rejoined else heads[0][0]
            may_preempt = victim_gpus(entry[0])
            if spare == 0 and may_preempt == 0:
                break
            if from_rejoined:
                del rejoined[0]
            else:
                _, at, order, gpus = heads[0]
                if gpus > spare + may_preempt:
                    heapq.heappop(heads)
                    continue
                if at + 1 == len(order):
                    heapq.heappop(heads)
                else:
                    heapq.heapreplace(heads, (order[at + 1], at + 1, order, gpus))
            consider(entry, may_preempt)
