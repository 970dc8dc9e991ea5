"""Type stubs of gcsim's compiled part; use the package gcsim, which wraps it."""

from typing import Any, Iterable, Iterator, Optional

def run(cluster: str, cluster_json: Optional[str] = None, *, workload: str, workload_json: Optional[str] = None,
        trace_settings: list[str] = ..., policy: str = "fifo", policy_object: Any = None,
        decisions: Optional[tuple] = None, placement: str = "",
        policy_settings: list[str] = ..., plugins: list[str] = ..., seed: int = 0, fidelity: str = "job",
        job_rounds: int = 4, until: Optional[float] = None, gpu_memory_isolation: bool = True,
        whole_gpus: bool = False, node_failures: str = "", check: bool = False, contention: bool = False, energy: bool = False,
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

def gpus_per_node(cluster: str, cluster_json: Optional[str] = None) -> list[int]:
    """The cluster's GPUs on each node, in node order."""

def decision_page_size(rows: int, nodes: int) -> int:
    """Bytes of gcsim.env's shared page for this many rows and nodes."""

def write_outputs(directory: str, files: list[tuple[str, str]]) -> None:
    """Writes the (name, text) files into the directory, all at once or none."""

def policies() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(policies, placements), each a list of (name, summary)."""

# The views a policy written in Python reads (gcsim.policy), valid during one schedule() call.

class Job:
    index: int
    id: str
    user: str
    queue: str
    gpus: int
    gpu_share: float
    gpu_memory: float
    cpu_cores: int
    memory: float
    priority: int
    qos: str
    submit: float
    runtime_estimate: float
    restore_cost: float
    submitted: float
    state: str
    start: float
    end: float
    held_gpus: list[int]
    preemptions: int
    attained_gpu_seconds: float
    saved_fraction: float
    oracle_duration: float
    def __index__(self) -> int: ...

class JobList:
    def __len__(self) -> int: ...
    def __getitem__(self, i: int) -> Job: ...
    def __iter__(self) -> Iterator[Job]: ...
    def indices(self) -> list[int]: ...

class Queue:
    now: float
    waiting: JobList
    running: JobList
    job_count: int
    run_log_length: int
    def job(self, index: int) -> Job: ...
    def run_log(self, since: int = 0) -> list[tuple[int, bool]]: ...

class Cluster:
    now: float
    gpu_count: int
    node_count: int
    free_gpu_count: int
    partly_free_gpu_count: int
    def free_gpus_on_node(self, node: int) -> int: ...
    def free_gpus_per_node(self) -> list[int]: ...
    def is_free(self, gpu: int) -> bool: ...
    def owner(self, gpu: int) -> Optional[int]: ...
    def free_share(self, gpu: int) -> float: ...
    def free_memory(self, gpu: int) -> float: ...
    def node_of(self, gpu: int) -> int: ...
    def gpus_of_node(self, node: int) -> list[int]: ...
    def free_gpus_of_node(self, node: int) -> list[int]: ...
    def node_name(self, node: int) -> str: ...
    def gpu_type(self, gpu: int) -> str: ...
    def place(self, job: Any) -> Optional[list[int]]: ...

class Plan:
    def allocate(self, job: Any, gpus: list[int], power_limit_watts: float = 0.0) -> None: ...
    def preempt(self, job: Any) -> None: ...
    def release(self, job: Any) -> None: ...
    def wake_at(self, time: float) -> None: ...
    def discard(self) -> None: ...
    def __len__(self) -> int: ...

class WaitingChanges:
    def since_last_call(self, queue: Queue) -> tuple[list[int], list[int]]: ...
    def noted(self, job: Any) -> None: ...
    def waiting(self, job: Any) -> bool: ...

def place(name: str, job: Any, cluster: Cluster, options: dict = ...) -> Optional[list[int]]:
    """GPUs for the job under the named built-in placement, or None."""

def make_room(job: Any, victims: Iterable[Any], cluster: Cluster, placement: str = "",
              free_gpus: Optional[int] = None) -> tuple[Optional[list[int]], list[int]]:
    """(the job's GPUs or None, the victims to preempt)."""

def placement_names() -> list[str]:
    """The built-in placements' names."""
