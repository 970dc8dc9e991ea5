"""First in, first out with head-of-line blocking, written in Python.

The C++ policy `fifo` (policies/fifo/fifo_policy.hpp) on a workload without
spot jobs: jobs start in submission order (ties: workload order, the order
of ``queue.waiting``), each on the GPUs the run's placement finds (pack by
default) among those the earlier ones left; the first job that does not fit
blocks every job behind it. Its runs are byte for byte those of `fifo`.

    import gcsim
    from fifo import Fifo
    gcsim.run("scenarios/clusters/rack-32gpu.json", "scenarios/workloads/default.json", Fifo())
"""

import gcsim


class Fifo(gcsim.Policy):
    """Submission order, the head blocks the line."""

    def schedule(self, cluster, queue, plan):
        for job in queue.waiting:
            gpus = cluster.place(job)
            if gpus is None:
                return  # head-of-line blocking
            plan.allocate(job, gpus)  # the cluster view shows its GPUs taken
