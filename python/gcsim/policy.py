"""Scheduling policies written in Python.

Subclass :class:`Policy`, write ``schedule(self, cluster, queue, plan)`` and
pass an instance (or the class) to :func:`gcsim.run`::

    import gcsim
    from gcsim import placement

    class Fifo(gcsim.Policy):
        def schedule(self, cluster, queue, plan):
            for job in queue.waiting:
                gpus = placement.pack(job, cluster)
                if gpus is None:
                    return  # the head blocks the line
                plan.allocate(job, gpus)

    gcsim.run("scenarios/clusters/rack-32gpu.json", "scenarios/workloads/default.json", Fifo())

The engine calls ``schedule`` whenever the queue or the cluster changed
(jobs arrived or ended, or a wake-up asked with ``plan.wake_at`` fell due),
exactly where it calls a C++ policy, and applies the plan with the same
checks: a bad plan fails the run with :class:`gcsim.PolicyError`, as does an
exception raised by ``schedule`` (its message names the class, the simulated
time and carries the traceback). The run happens in a child process forked
from this interpreter: the policy object there is a copy, and what it
changes in itself is not seen here once the run returns.

The arguments are thin views over the simulator's state, valid during the
call only (keep job indices, not :class:`Job` objects):

- ``cluster`` (:class:`Cluster`): the cluster as the decisions recorded so
  far in this call leave it: free GPUs in all and per node, which GPUs are
  free, who holds a GPU, the layout (nodes, their GPUs, GPU types).
- ``queue`` (:class:`Queue`): ``queue.waiting`` (in submission order) and
  ``queue.running`` (in the order they started), sequences of :class:`Job`
  read on demand; ``queue.job(i)``; ``queue.now``, the simulated time;
  ``queue.run_log(since)``, the runs that began or ended.
- ``plan`` (:class:`Plan`): ``allocate(job, gpus)``, ``preempt(job)``,
  ``release(job)``, ``wake_at(time)``, ``discard()``;
  ``allocate(job, gpus, power_limit_watts=W)`` starts that run under a power
  limit of W watts per GPU (the job's own ``power_limit_watts`` holds where
  lower), for that run only.

:mod:`gcsim.placement` has the built-in placements the C++ policies use, and
:class:`WaitingChanges` the helper that tells which jobs joined or left the
queue since the previous call.
"""

from __future__ import annotations

from . import _gcsim

Cluster = _gcsim.Cluster
Queue = _gcsim.Queue
Job = _gcsim.Job
JobList = _gcsim.JobList
Plan = _gcsim.Plan
WaitingChanges = _gcsim.WaitingChanges


class Policy:
    """A scheduling policy written in Python: subclass it and write :meth:`schedule`.

    ``shares_gpus``: set it to True in a policy that schedules jobs asking a
    fraction of a GPU (a workload with such jobs is refused otherwise, as
    for a C++ policy that does not).
    """

    shares_gpus = False

    @property
    def name(self) -> str:
        """The policy's name in errors and summary.json: its class's name."""
        return type(self).__name__

    def schedule(self, cluster: Cluster, queue: Queue, plan: Plan) -> None:
        """Records the decisions of one instant into ``plan``; may record nothing."""
        raise NotImplementedError(f"{type(self).__name__} does not define schedule(self, cluster, queue, plan)")


__all__ = ["Policy", "Cluster", "Queue", "Job", "JobList", "Plan", "WaitingChanges"]
