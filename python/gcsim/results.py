"""What a run gives back: its summary, jobs and timeline as DataFrames, and its files."""

from __future__ import annotations

import json
import os
from typing import Optional

import pandas as pd

from . import _gcsim
from .frames import csv_frame


class RunResult:
    """The outcome of :func:`gcsim.run`: the files ``gcsim run --out DIR`` writes,
    read.

    Attributes:
        summary: dict, what summary.json holds (jobs finished, makespan_s,
            jct_s, queueing_delay_s, utilization, preemptions, ...; "partial"
            when the run was interrupted, "deadlock"/"livelock"/"thrashing"
            when it stopped early).
        jobs: DataFrame, jobs.csv: one row per job (id, user, queue, gpus,
            submit, start, end, wait, jct, state, preemptions, uncontended,
            placement, gpu_share, ..., type, gpu_types, pace_gpu_type).
        timeline: DataFrame, timeline.csv: time, allocated_gpus, busy_gpus,
            queued_jobs, one row per change.
        serving: DataFrame of serving.csv, or None when the workload serves nothing.
        contention: DataFrame of contention.csv (job, other_job, link,
            seconds_shared, seconds_lost) under ``contention=True``, else None.
        link_utilization: DataFrame of link_utilization.csv under
            ``contention=True``, else None.
        power: DataFrame of power.csv (time, watts: the cluster's IT power
            from each time to the next row) under ``energy=True``, else None.
        files: dict, each output file's name and text, byte for byte as
            ``gcsim run`` writes it.
        notes: what the run said before simulating (a trace replay's rows
            kept and skipped, jobs given whole GPUs), one line each.
        early_stop: None when the run reached its end (or ``until``), else
            "deadlock", "livelock", "thrashing" or "interrupted".
        diagnosis: for a deadlock, livelock or thrashing, which jobs and why.
        interrupted: True when KeyboardInterrupt stopped the run: its results
            are partial, as they stood at that simulated time.
    """

    def __init__(self, outcome: dict) -> None:
        self.files: dict[str, str] = dict(outcome["files"])
        self.notes: str = outcome["notes"]
        self.early_stop: Optional[str] = outcome["early_stop"] or None
        self.diagnosis: str = outcome["diagnosis"]
        self.interrupted: bool = bool(outcome["interrupted"])
        self._human_summary: str = outcome["human_summary"]
        self.summary: dict = json.loads(self.files["summary.json"])
        self.jobs: pd.DataFrame = csv_frame("jobs.csv", self.files["jobs.csv"])
        self.timeline: pd.DataFrame = csv_frame("timeline.csv", self.files["timeline.csv"])
        self.serving: Optional[pd.DataFrame] = self._frame("serving.csv")
        self.contention: Optional[pd.DataFrame] = self._frame("contention.csv")
        self.link_utilization: Optional[pd.DataFrame] = self._frame("link_utilization.csv")
        self.power: Optional[pd.DataFrame] = self._frame("power.csv")

    def _frame(self, name: str) -> Optional[pd.DataFrame]:
        return csv_frame(name, self.files[name]) if name in self.files else None

    def write(self, directory: str | os.PathLike) -> list[str]:
        """Writes the run's files into ``directory`` (created if missing), all at
        once: each is staged under a temporary name and renamed into place, so
        the folder never holds a half-written file. Returns the paths written.
        Raises OSError when they cannot be written."""
        directory = os.fspath(directory)
        _gcsim.write_outputs(directory, list(self.files.items()))
        return [os.path.join(directory, name) for name in self.files]

    def __str__(self) -> str:
        return self._human_summary

    def __repr__(self) -> str:
        jobs = self.summary.get("jobs", {})
        return (f"<gcsim.RunResult {self.summary.get('policy')} on {self.summary.get('cluster')}: "
                f"{jobs.get('finished')} of {jobs.get('total')} jobs finished"
                + (f", stopped early ({self.early_stop})" if self.early_stop else "") + ">")
