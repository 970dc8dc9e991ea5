"""gcsim, the GPU cluster simulator, from Python.

Runs take the same inputs as ``gcsim run`` and give back its outputs as a
dict and pandas DataFrames::

    import gcsim
    result = gcsim.run("scenarios/clusters/rack-32gpu.json", "scenarios/workloads/default.json", "fifo")
    result.summary["jct_s"]["mean"]
    result.jobs.groupby("queue").jct.mean()
    result.write("out/default")

    table = gcsim.compare("rack.json", "jobs.json", ["fifo", "srtf"]).table   # comparison.csv
    workload = gcsim.synth(500, seed=1).workload                              # gcsim synth's jobs

A cluster or workload is a path, a trace ("philly:PATH", as ``gcsim run
--workload`` takes it) or a dict in the native JSON format
(docs/cluster-format.md, docs/workload-format.md). Errors raise
:class:`gcsim.Error` subclasses carrying the message ``gcsim run`` prints.
docs/python.md has the whole story.
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Optional, Sequence, Union

import pandas as pd

from . import _gcsim, placement
from .comparison import CompareResult, compare
from .errors import Error, InputError, InvariantBroken, PolicyError, UsageError
from .policy import Policy, WaitingChanges
from .results import RunResult
from .synthetic import SyntheticWorkload, synth

__all__ = ["run", "compare", "synth", "read_trace", "policies", "RunResult", "CompareResult", "SyntheticWorkload",
           "Policy", "WaitingChanges", "placement", "Error", "UsageError", "InputError", "PolicyError",
           "InvariantBroken"]

Source = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def _setting_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _settings(settings: Optional[Mapping[str, Any]]) -> list[str]:
    """{"key": value} as ["key=value"]; a list value repeats the key."""
    pairs = []
    for key, value in (settings or {}).items():
        values = value if isinstance(value, (list, tuple)) else [value]
        pairs.extend(f"{key}={_setting_value(v)}" for v in values)
    return pairs


def _source(source: Source, what: str) -> tuple[str, Optional[str]]:
    """(path or label, JSON text of a dict or None)."""
    if isinstance(source, Mapping):
        return f"<{what} dict>", json.dumps(source)
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source), None
    raise TypeError(f"{what}: expected a path, a trace spec 'FORMAT:PATH' or a dict, got {type(source).__name__}")


def _policy(policy: Union[str, Policy, type]) -> tuple[str, Optional[Policy], Optional[tuple]]:
    """(a built-in or plugin policy's name, a Policy written in Python, gcsim.env's decision channel)."""
    if isinstance(policy, str):
        return policy, None, None
    if hasattr(policy, "decision_channel"):  # gcsim.env's episodes
        return "", None, policy.decision_channel
    if isinstance(policy, type) and issubclass(policy, Policy):
        policy = policy()
    if isinstance(policy, Policy):
        return "", policy, None
    raise TypeError(f"policy: expected a policy's name or a gcsim.Policy (an instance or a subclass), "
                    f"got {type(policy).__name__}")


def run(cluster: Source, workload: Source, policy: Union[str, Policy, type] = "fifo", *, seed: int = 0,
        fidelity: str = "job",
        job_rounds: int = 4, until: Optional[float] = None, placement: Optional[str] = None,
        policy_opt: Optional[Mapping[str, Any]] = None, trace_opt: Optional[Mapping[str, Any]] = None,
        plugins: Sequence[str] = (), whole_gpus: bool = False, gpu_memory_isolation: Union[bool, str] = True,
        node_failures: Optional[Union[str, "os.PathLike[str]"]] = None, check: bool = False,
        contention: bool = False, energy: bool = False, wall_time: bool = True) -> RunResult:
    """Simulates ``workload`` on ``cluster`` under ``policy``, as ``gcsim run`` does.

    Args:
        cluster: a cluster description: a path to its JSON file, or the same
            as a dict (docs/cluster-format.md).
        workload: jobs: a path to a native workload (JSON), a trace
            "FORMAT:PATH" (philly, swf, helios, pai, csv; docs/trace-replay.md),
            or a native workload as a dict ({"jobs": [...]},
            docs/workload-format.md).
        policy: the scheduling policy's name (gcsim.policies() lists them),
            or a policy written in Python: a gcsim.Policy instance or subclass
            (gcsim.policy; its placement is ``placement``, pack by default).
        seed: handed to policies that draw random numbers.
        fidelity: "job" (a constant number of SimGrid activities per job) or
            "iteration" (every iteration's compute and ring steps).
        job_rounds: job fidelity: rounds each job's iterations are merged into.
        until: stop the simulation at this time (seconds); later jobs are unfinished.
        placement: a placement combined with the policy (default: its own).
        policy_opt: the policy's options, {"key": value} (--policy-opt key=value).
        trace_opt: a trace's reader settings and selection, {"key": value}
            (--trace-opt key=value; e.g. {"until": "1d", "load_scale": 2}).
        plugins: policy libraries to load (--plugin).
        whole_gpus: jobs asking a fraction of a GPU get whole GPUs.
        gpu_memory_isolation: True/"on" (default) or False/"off".
        node_failures: a file of node failures to replay.
        check: audit every instant and plan (--check); a broken rule raises
            gcsim.InvariantBroken.
        contention: follow every flow and report who slowed whom
            (RunResult.contention, .link_utilization, summary["contention"]).
        energy: account the energy drawn (--energy): RunResult.power, the
            jobs' energy_kwh and energy_kwh_per_gpu_hour, summary["energy"].
        wall_time: keep wall time in the summary (False: byte-identical reruns).

    Returns:
        a RunResult: .summary (dict), .jobs and .timeline (DataFrames),
        .files, .write(dir). A run stopped early by a deadlock, a livelock or
        thrashing returns its result too (.early_stop, .diagnosis), as does
        one stopped by Ctrl-C (KeyboardInterrupt): its partial result,
        .interrupted True. A second Ctrl-C abandons the run and raises.

    Raises:
        gcsim.InputError: a malformed cluster, workload or trace (naming the
            file, where in it and the field).
        gcsim.UsageError: an option with a bad value.
        gcsim.PolicyError: an unknown policy or placement, a policy that throws
            (or, written in Python, raises: the message names its class and
            the simulated time, .traceback holds the traceback) or returns an
            invalid plan.
        gcsim.InvariantBroken: under check=True, a rule broken.
    """
    cluster_label, cluster_json = _source(cluster, "cluster")
    workload_label, workload_json = _source(workload, "workload")
    if isinstance(gpu_memory_isolation, str):
        if gpu_memory_isolation not in ("on", "off"):
            raise UsageError(f"option 'gpu_memory_isolation' must be 'on' or 'off', got '{gpu_memory_isolation}'")
        gpu_memory_isolation = gpu_memory_isolation == "on"
    policy_name, policy_object, decisions = _policy(policy)
    outcome = _gcsim.run(
        cluster=cluster_label, cluster_json=cluster_json, workload=workload_label, workload_json=workload_json,
        trace_settings=_settings(trace_opt), policy=policy_name, policy_object=policy_object, decisions=decisions,
        placement=placement or "",
        policy_settings=_settings(policy_opt), plugins=[os.fspath(p) for p in plugins], seed=seed,
        fidelity=fidelity, job_rounds=job_rounds, until=until, gpu_memory_isolation=bool(gpu_memory_isolation),
        whole_gpus=whole_gpus, node_failures=os.fspath(node_failures) if node_failures else "", check=check,
        contention=contention, energy=energy, wall_time=wall_time)
    return RunResult(outcome)


def read_trace(spec: Union[str, "os.PathLike[str]"], *, cluster: Optional[Source] = None,
               **trace_opt: Any) -> pd.DataFrame:
    """A workload's or trace's jobs as a DataFrame, one row per job, as
    ``gcsim run`` would replay them.

    ``spec`` is a native workload's path or a trace "FORMAT:PATH"; ``trace_opt``
    are the reader settings and selection of ``--trace-opt`` (e.g.
    ``read_trace("philly:jobs.csv", until="1d", gpu_type="V100")``);
    ``cluster`` is needed by ``work="throughput:..."``. The columns are the
    native workload's fields (docs/workload-format.md): id, user, queue,
    submit, gpus, and nested fields flattened with dots ("duration.seconds").
    The reader's notes (rows kept and skipped) are in ``frame.attrs["notes"]``.
    Raises gcsim.InputError or gcsim.UsageError as :func:`run` does.
    """
    cluster_label, cluster_json = ("", None) if cluster is None else _source(cluster, "cluster")
    workload, notes = _gcsim.read_trace(os.fspath(spec), _settings(trace_opt), cluster_label, cluster_json)
    frame = pd.json_normalize(json.loads(workload)["jobs"])
    if "id" in frame.columns:
        frame["id"] = frame["id"].astype(str)
    frame.attrs["notes"] = notes
    return frame


def policies() -> dict[str, dict[str, str]]:
    """The built-in policies and placements: {"policies": {name: summary}, "placements": {...}}."""
    listed_policies, listed_placements = _gcsim.policies()
    return {"policies": dict(listed_policies), "placements": dict(listed_placements)}
