"""Type stubs of gcsim's compiled part; use the package gcsim, which wraps it."""

from typing import Optional

def run(cluster: str, cluster_json: Optional[str] = None, *, workload: str, workload_json: Optional[str] = None,
        trace_settings: list[str] = ..., policy: str = "fifo", placement: str = "",
        policy_settings: list[str] = ..., plugins: list[str] = ..., seed: int = 0, fidelity: str = "job",
        job_rounds: int = 4, until: Optional[float] = None, gpu_memory_isolation: bool = True,
        whole_gpus: bool = False, node_failures: str = "", check: bool = False, contention: bool = False,
        wall_time: bool = True) -> dict:
    """One simulation in a child process: {"files": {name: text}, "notes", "early_stop", "diagnosis",
    "human_summary", "interrupted"}."""

def read_trace(spec: str, settings: list[str] = ..., cluster: str = "",
               cluster_json: Optional[str] = None) -> tuple[str, str]:
    """(the jobs as a native workload in JSON text, the reader's notes)."""

def synth(config: str = "", config_json: Optional[str] = None, jobs: Optional[int] = None,
          mean_interarrival: Optional[float] = None, checkpoint: Optional[str] = None, cluster: str = "",
          cluster_json: Optional[str] = None, seed: int = 0) -> str:
    """The workload file `gcsim synth` writes (native JSON text)."""

def comparison(runs: list[tuple[str, str, str, str]]) -> tuple[str, str]:
    """(comparison.csv, comparison.md) of runs given as (policy, summary.json, jobs.csv, timeline.csv) texts."""

def write_outputs(directory: str, files: list[tuple[str, str]]) -> None:
    """Writes the (name, text) files into the directory, all at once or none."""

def policies() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(policies, placements), each a list of (name, summary)."""
