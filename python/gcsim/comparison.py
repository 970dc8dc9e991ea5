"""Several policies on one workload, tabulated as ``gcsim compare`` does."""

from __future__ import annotations

import io
import os
from typing import Any, Iterable, Mapping, Optional

import pandas as pd

from . import _gcsim
from .errors import PolicyError, UsageError
from .results import RunResult

# comparison.csv's columns that are counts, and those that are text; every other is a number or "n/a" (NaN).
COUNT_COLUMNS = ("jobs", "finished", "failed", "unfinished", "preemptions", "deadlocks")
TEXT_COLUMNS = ("policy", "finished_jobs", "stopped")


def comparison_frame(text: str) -> pd.DataFrame:
    """comparison.csv's text as a DataFrame: counts int64, policy, finished_jobs
    and stopped strings, every other figure float64 ("n/a" is NaN), each the
    float its text gives exactly."""
    header = text.split("\n", 1)[0].split(",")
    dtypes = {c: ("int64" if c in COUNT_COLUMNS else str if c in TEXT_COLUMNS else "float64") for c in header}
    return pd.read_csv(io.StringIO(text), dtype=dtypes, keep_default_na=False, float_precision="round_trip",
                       na_values={c: ["n/a"] for c in header if dtypes[c] == "float64"})


def policy_name(policy: Any) -> str:
    """The name a policy's row and run folder take: a built-in's name, or a
    policy object's ``name`` attribute, else its class's name."""
    if isinstance(policy, str):
        return policy
    named = getattr(policy, "name", None)
    if isinstance(named, str) and named:
        return named
    return policy.__name__ if isinstance(policy, type) else type(policy).__name__


class CompareResult:
    """The outcome of :func:`gcsim.compare`.

    Attributes:
        table: DataFrame, comparison.csv: one row per policy, in the order
            given (policy, jobs, finished, ..., jct_mean_s, jct_p50_s, ...,
            wait_*_s, makespan_s, gpu_util_allocated, gpu_util_busy,
            fragmentation, preemptions, lost_gpu_hours, lost_share,
            jain_fairness_slowdown, ftf_rho_max, ftf_rho_mean,
            queue_guarantee_attainment, deadlocks, deadlock_at_s, stopped,
            stopped_at_s, wall_time_s; ``gcsim compare --help`` defines each).
            Counts are int64, figures float64 (NaN where comparison.csv says
            n/a), policy, finished_jobs and stopped strings.
        runs: dict, each policy's name to its :class:`gcsim.RunResult`, the
            same object :func:`gcsim.run` returns.
        markdown: comparison.md's text (str(result) is the same).
        files: {"comparison.csv": text, "comparison.md": text}, byte for byte
            as ``gcsim compare`` writes them.
        interrupted: True when Ctrl-C stopped a run: the table holds the runs
            done and the stopped one (partial); ``not_run`` lists the others.
        not_run: the names of the policies that did not run.
    """

    def __init__(self, runs: dict[str, RunResult], not_run: list[str]) -> None:
        self.runs = runs
        self.not_run = not_run
        self.interrupted = any(r.interrupted for r in runs.values())
        csv_text, self.markdown = _gcsim.comparison(
            [(name, r.files["summary.json"], r.files["jobs.csv"], r.files["timeline.csv"]) for name, r in runs.items()])
        self.files = {"comparison.csv": csv_text, "comparison.md": self.markdown}
        self.table = comparison_frame(csv_text)

    def write(self, directory: str | os.PathLike) -> list[str]:
        """Writes what ``gcsim compare --out DIR`` writes: each run's files in
        DIR/runs/POLICY/, then comparison.csv and comparison.md, each set all
        at once (staged, then renamed). scripts/plot_comparison.py and
        scripts/report_comparison.py read the folder as they read compare's.
        Returns the paths written."""
        directory = os.fspath(directory)
        written = []
        for name, run in self.runs.items():
            written += run.write(os.path.join(directory, "runs", name))
        _gcsim.write_outputs(directory, list(self.files.items()))
        return written + [os.path.join(directory, name) for name in self.files]

    def __str__(self) -> str:
        return self.markdown

    def __repr__(self) -> str:
        return f"<gcsim.CompareResult of {', '.join(self.runs)}" + (" (interrupted)" if self.interrupted else "") + ">"


def compare(cluster: Any, workload: Any, policies: Iterable[Any], *,
            policy_opt: Optional[Mapping[str, Mapping[str, Any]]] = None, **options: Any) -> CompareResult:
    """Runs ``workload`` on ``cluster`` once per policy, in the order given, and
    tabulates the runs as ``gcsim compare`` does.

    Args:
        cluster, workload: as :func:`gcsim.run` takes them (paths, a trace
            "FORMAT:PATH", dicts).
        policies: the policies, each at most once: built-in names
            (gcsim.policies() lists them) or policy objects, named by their
            ``name`` attribute or class.
        policy_opt: each policy's options, by its name:
            ``{"tiresias": {"promote_knob": 0}}``.
        **options: handed to every run, as :func:`gcsim.run` takes them (seed,
            fidelity, job_rounds, until, placement, trace_opt, plugins,
            whole_gpus, gpu_memory_isolation, node_failures, check, contention, energy,
            wall_time).

    Returns:
        a CompareResult: .table (comparison.csv as a DataFrame), .runs (each
        policy's RunResult), .markdown, .files, .write(dir). A run that stops
        early (deadlock, livelock, thrashing) is a row like any other, its
        ``stopped`` column saying why. Ctrl-C stops the run under way and the
        policies after it: the result holds the runs done (.interrupted,
        .not_run).

    Raises:
        gcsim.UsageError: no policy, a policy listed twice, options for a policy
            not listed; before anything runs.
        gcsim.PolicyError: an unknown built-in policy (before anything runs,
            unless ``plugins`` may define it), a policy that fails.
        gcsim.InputError, gcsim.InvariantBroken: as :func:`gcsim.run`; the first
            failing run's error ends the comparison.

    Example::

        c = gcsim.compare("scenarios/clusters/rack-32gpu.json", "scenarios/workloads/default.json",
                          ["fifo", "srtf", "tiresias"], seed=1)
        c.table[["policy", "jct_mean_s", "wait_p95_s"]]
        c.runs["srtf"].jobs.jct.describe()
    """
    from . import run  # the package's, looked up at each call

    listed = list(policies)
    names = [policy_name(p) for p in listed]
    if not listed:
        raise UsageError("compare: no policy given")
    for name in names:
        if names.count(name) > 1:
            raise UsageError(f"policy '{name}' is listed twice; each policy runs once")
        if name in (".", "..") or "/" in name:
            raise UsageError(f"policy name '{name}' cannot name a run directory")
    if not options.get("plugins"):
        known = [name for name, _ in _gcsim.policies()[0]]
        for policy in listed:
            if isinstance(policy, str) and policy not in known:
                raise PolicyError(f"unknown policy '{policy}' (known: {', '.join(sorted(known))})")
    for name in (policy_opt or {}):
        if name not in names:
            raise UsageError(f"policy_opt names '{name}', which is not among the policies {names}")

    runs: dict[str, RunResult] = {}
    for policy, name in zip(listed, names):
        runs[name] = run(cluster, workload, policy, policy_opt=(policy_opt or {}).get(name), **options)
        if runs[name].interrupted:
            break
    return CompareResult(runs, [name for name in names if name not in runs])
