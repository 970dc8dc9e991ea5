"""The built-in placements, the same functions the C++ policies use.

Each takes a job (a :class:`gcsim.Job` or its index) and the cluster view a
policy's ``schedule`` received, and returns the GPUs for the job in ring
order (a list of GPU indices), or None when it does not fit now. The view
shows the decisions already recorded in the call's plan, so a job placed
after an allocation does not get its GPUs::

    gpus = gcsim.placement.pack(job, cluster)
    if gpus is not None:
        plan.allocate(job, gpus)

``pack``: fewest nodes, then fewest racks, best fit on a single node.
``spread``: one GPU per node, round-robin over the nodes with the most free.
``topology``: the highest ring bottleneck bandwidth, then fewest nodes.
``network``: by the fabric's links (docs/policies.md lists its options).
:func:`place` takes any of them by name, with options; :func:`make_room`
finds the running jobs to preempt for a job to fit.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from . import _gcsim


def place(name: str, job: Any, cluster: Any, **options: Any) -> Optional[list[int]]:
    """GPUs for ``job`` under the built-in placement ``name`` (with its options), or None."""
    return _gcsim.place(name, job, cluster, options)


def pack(job: Any, cluster: Any) -> Optional[list[int]]:
    """GPUs for ``job`` on as few nodes, then racks, as possible (best fit), or None."""
    return _gcsim.place("pack", job, cluster)


def spread(job: Any, cluster: Any) -> Optional[list[int]]:
    """GPUs for ``job`` one per node, over the nodes with the most free GPUs, or None."""
    return _gcsim.place("spread", job, cluster)


def topology(job: Any, cluster: Any) -> Optional[list[int]]:
    """GPUs for ``job`` with the highest ring bottleneck bandwidth, or None."""
    return _gcsim.place("topology", job, cluster)


def network(job: Any, cluster: Any, **options: Any) -> Optional[list[int]]:
    """GPUs for ``job`` by the fabric's links, or None."""
    return _gcsim.place("network", job, cluster, options)


def make_room(job: Any, victims: Iterable[Any], cluster: Any, placement: str = "",
              free_gpus: Optional[int] = None) -> tuple[Optional[list[int]], list[int]]:
    """Running jobs to preempt so that ``job`` fits, as the C++ preempting policies find them.

    Frees the GPUs of ``victims`` (running jobs, drawn one at a time from the
    iterable, in the policy's order) until the placement (``placement`` by
    name; the run's placement by default) finds GPUs for the job among those
    free and those freed; then keeps only the victims whose GPUs (or host
    room) it takes. Returns (the job's GPUs, the victims), or (None, []) when
    even all of them do not make room. ``free_gpus``: GPUs usable before any
    preemption (default: the cluster view's free GPUs). The view is not
    changed: record ``plan.preempt(v)`` for each victim, then
    ``plan.allocate(job, gpus)``.
    """
    return _gcsim.make_room(job, victims, cluster, placement, free_gpus)


def names() -> list[str]:
    """The built-in placements' names."""
    return _gcsim.placement_names()


__all__ = ["place", "pack", "spread", "topology", "network", "make_room", "names"]
