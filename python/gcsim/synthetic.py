"""Synthetic workloads, as ``gcsim synth`` generates them."""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Optional, Union

import pandas as pd

from . import _gcsim

Source = Union[str, "os.PathLike[str]", Mapping[str, Any]]


class SyntheticWorkload:
    """A workload :func:`gcsim.synth` generated.

    Attributes:
        workload: dict, the native workload ({"jobs": [...]},
            docs/workload-format.md): give it to :func:`gcsim.run` as the
            workload.
        jobs: DataFrame, one row per job, its columns the native workload's
            fields (id, user, queue, submit, gpus, ...; nested fields
            flattened with dots, "duration.seconds"), as :func:`gcsim.read_trace`
            gives a workload's jobs.
        text: the workload file ``gcsim synth --out`` writes, byte for byte.
    """

    def __init__(self, text: str) -> None:
        self.text: str = text
        self.workload: dict = json.loads(text)
        self.jobs: pd.DataFrame = pd.json_normalize(self.workload["jobs"])
        if "id" in self.jobs.columns:
            self.jobs["id"] = self.jobs["id"].astype(str)

    def write(self, path: Union[str, "os.PathLike[str]"]) -> str:
        """Writes the workload file at ``path`` (staged, then renamed into place),
        the same bytes as ``gcsim synth --out PATH``; returns the path."""
        path = os.fspath(path)
        directory, name = os.path.split(os.path.abspath(path))
        _gcsim.write_outputs(directory, [(name, self.text)])
        return path

    def __len__(self) -> int:
        return len(self.workload["jobs"])

    def __repr__(self) -> str:
        return f"<gcsim.SyntheticWorkload of {len(self)} jobs>"


def _document(source: Optional[Source], what: str) -> tuple[str, Optional[str]]:
    if source is None:
        return "", None
    if isinstance(source, Mapping):
        return f"<{what} dict>", json.dumps(source)
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source), None
    raise TypeError(f"{what}: expected a path or a dict, got {type(source).__name__}")


def synth(jobs: Optional[int] = None, *, seed: int = 0, config: Optional[Source] = None,
          cluster: Optional[Source] = None, mean_interarrival: Optional[float] = None,
          checkpoint: Optional[str] = None) -> SyntheticWorkload:
    """Generates a synthetic workload, as ``gcsim synth`` does: Poisson
    arrivals, GPU counts from a weighted list, lognormal run times, a mix of
    data-parallel training jobs and jobs with measured durations. The same
    arguments give the same jobs everywhere.

    Args:
        jobs: the number of jobs (default: the config's, else 100).
        seed: the random seed.
        config: the generator's settings: a JSON file's path or the same as a
            dict (docs/workload-format.md, "Synthetic workloads": jobs,
            mean_interarrival, gpu_count_weights, duration_median, ...).
        cluster: a cluster (path or dict) whose FLOP/s for the generator's GPU
            type size the training jobs, so their durations hold on it.
        mean_interarrival: mean seconds between submissions.
        checkpoint: "at_preemption" (the default: a preempted job resumes from
            its saved work) or "none" (it starts over).

    Returns:
        a SyntheticWorkload: .workload (the dict gcsim.run takes), .jobs
        (a DataFrame), .text (the file gcsim synth writes), .write(path).

    Raises:
        gcsim.InputError: a bad config (naming the file or "<config dict>" and
            the field), settings the generator cannot use, a bad cluster or one
            without the generator's GPU type.
        gcsim.UsageError: a checkpoint mode other than at_preemption or none.

    Example::

        w = gcsim.synth(200, seed=1, cluster="scenarios/clusters/rack-32gpu.json")
        w.jobs.gpus.value_counts()
        gcsim.run("scenarios/clusters/rack-32gpu.json", w.workload, "srtf")
    """
    config_label, config_json = _document(config, "config")
    cluster_label, cluster_json = _document(cluster, "cluster")
    text = _gcsim.synth(config=config_label, config_json=config_json, jobs=jobs, mean_interarrival=mean_interarrival,
                        checkpoint=checkpoint, cluster=cluster_label, cluster_json=cluster_json, seed=seed)
    return SyntheticWorkload(text)
