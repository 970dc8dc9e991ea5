"""gcsim.env.SchedulingEnv: a Gymnasium-style environment whose agent decides
which waiting job starts next.

How it works (python/decision_channel.hpp holds the protocol): ``reset()``
starts gcsim.run in a thread of this process; the run forks its simulation
into a child process as always, under a policy (C++, "SchedulingEnv" in
summary.json) that hands each decision to the environment. Both processes
share one page of memory (an anonymous shared mmap made before the fork),
where the child writes the observation, and two pipes: the child sends one byte ('d') when a decision is in the
page and blocks; ``step(action)`` sends the action (4 bytes) and waits for
the next byte. When the run returns, the thread sends 'e' on the same pipe:
the episode is over, and the run's result is in ``info["result"]``.

One decision is one step: an instant at which several jobs can start takes
several steps before simulated time moves on, and an instant at which no
shown job can start takes none.
"""

from __future__ import annotations

import atexit
import mmap
import os
import signal
import struct
import threading
import weakref
from typing import Any, Callable, Mapping, Optional, Union

import numpy as np

from .. import _gcsim
from . import spaces

#: The columns of ``obs["jobs"]``, one row per waiting job shown.
JOB_FEATURES = ("gpus", "gpu_share", "waited", "expected_run_time", "user_estimate", "can_start")

_HEADER = 16  # float64 slots at the start of the page (decision_channel.hpp)


def negative_slowdown(before: Mapping[str, Any], after: Mapping[str, Any]) -> float:
    """The default reward: minus the slowdown accrued between two steps.

    A job's slowdown is (end - joined) / expected run time, where it joined
    the queue at its submit time (or when the jobs it depends on ended) and
    its expected run time is how long it runs alone on an empty cluster
    (``obs["jobs"][:, 3]``; jobs without one count nothing). The slowdown
    accrued by time t, ``info["accrued_slowdown"]``, sums (min(t, end) -
    joined) / expected run time over the jobs that joined by t; the reward of
    a step is minus its growth from the previous step's time to this one's.
    An episode's rewards thus add up to minus the sum of its jobs' slowdowns
    (up to ``until`` for jobs still running then).
    """
    return -(after["accrued_slowdown"] - before["accrued_slowdown"])


Reward = Callable[[Mapping[str, Any], Mapping[str, Any]], float]


class _Decisions:
    """gcsim.run's policy for an environment's episode: the C++ DecisionPolicy
    (decision_channel.hpp) on this page and these pipes; the simulation's
    process runs no Python."""

    def __init__(self, page: mmap.mmap, decision_fd: int, action_fd: int, rows: int, parent_fds: tuple[int, ...]):
        self.decision_channel = (page, decision_fd, action_fd, rows, list(parent_fds))


def _run_episode(episode: dict[str, Any], cluster: Any, workload: Any, policy: _Decisions, placement: str,
                 options: Mapping[str, Any]) -> None:
    """The run thread: gcsim.run, its outcome kept in `episode`, then 'e' to the environment."""
    from .. import run

    try:
        episode["outcome"] = ("result", run(cluster, workload, policy, placement=placement, **options))
    except BaseException as error:  # noqa: B902: handed to the environment's caller
        episode["outcome"] = ("error", error)
    finally:
        os.write(episode["decision_w"], b"e")


# Environments with an episode perhaps under way, whose simulations are
# stopped at the interpreter's exit (before it ends the run threads).
_open_environments: "weakref.WeakSet[SchedulingEnv]" = weakref.WeakSet()


@atexit.register
def _close_open_environments() -> None:
    for env in list(_open_environments):
        env.close()


class SchedulingEnv:
    """Which waiting job starts next, as a Gymnasium-style environment.

    Args:
        cluster: a cluster (a path or a dict, as gcsim.run takes it).
        workload: a workload (a path, a trace "FORMAT:PATH" or a dict), or a
            callable that takes the environment's numpy Generator
            (``np_random``, seeded by ``reset(seed=...)``) and returns one:
            a new workload per episode.
        max_queue: K, the waiting jobs shown (the first K, in submission
            order; ties in workload order): actions 0..K-1 start the job of
            that row, action K waits (nothing more until the next event).
        reward: ``reward(before, after)`` from the info dicts of two
            consecutive steps (after: the step's); default
            :func:`negative_slowdown`.
        placement: the placement that puts a chosen job on GPUs (a built-in
            one's name, "pack" by default); the mask allows a job when it finds GPUs.
        until: stop each episode at this simulated time (seconds): the
            episode is then truncated, not terminated.
        run_options: further gcsim.run options (seed, fidelity, ...).

    Observation: a dict of numpy arrays,
        ``jobs``: float64 (K, 6), one row per waiting job shown, columns
        JOB_FEATURES: GPUs asked, GPU share, seconds waited (now - when it
        joined the queue), expected run time (how long it runs alone on an
        empty cluster, what the C++ srtf orders by; inf when unknown), the
        user's run time estimate (0: none), 1.0 when it can start now; rows
        past the waiting jobs are 0;
        ``free_gpus``: int32 (nodes,), each node's free GPUs, in the
        cluster's node order.

    Info: ``action_mask`` (bool, K + 1: the rows that can start now, and
    wait, allowed unless no job runs and none is yet to arrive: then nothing
    would ever happen again), ``time`` (simulated seconds), ``waiting``,
    ``running``, ``free_gpu_count``, ``ended`` (jobs ended so far),
    ``to_arrive`` (jobs yet to join the queue),
    ``accrued_slowdown`` (see negative_slowdown), ``job_indices`` (int64, K:
    each row's job index in the workload, -1 past the waiting jobs),
    ``decisions`` (steps so far); at the episode's end, ``result``: the run's
    gcsim.RunResult (jobs.csv and all).
    """

    metadata = {"render_modes": []}
    render_mode = None

    def __init__(self, cluster: Any, workload: Union[Any, Callable[[np.random.Generator], Any]], *,
                 max_queue: int = 32, reward: Optional[Reward] = None, placement: str = "pack",
                 until: Optional[float] = None, run_options: Optional[Mapping[str, Any]] = None):
        from .. import _source  # the same reading of a cluster as gcsim.run's

        if max_queue < 1:
            raise ValueError(f"max_queue must be at least 1, got {max_queue}")
        self.cluster = cluster
        self.workload = workload
        self.max_queue = int(max_queue)
        self.reward_function: Reward = reward or negative_slowdown
        self.placement = placement
        self.until = until
        self.run_options = dict(run_options or {})
        label, document = _source(cluster, "cluster")
        gpus_per_node = np.asarray(_gcsim.gpus_per_node(label, document), dtype=np.int32)
        self.node_count = len(gpus_per_node)
        k = self.max_queue
        self.action_space = spaces.Discrete(k + 1)
        self.observation_space = spaces.Dict({
            "jobs": spaces.Box(0.0, np.inf, shape=(k, len(JOB_FEATURES)), dtype=np.float64),
            "free_gpus": spaces.Box(0, gpus_per_node, shape=(self.node_count,), dtype=np.int32),
        })
        self.np_random = np.random.default_rng()
        size = _gcsim.decision_page_size(k, self.node_count)
        self._page = mmap.mmap(-1, max(size, mmap.PAGESIZE))  # shared with the simulation's process
        offset = 8 * _HEADER
        self._header = np.frombuffer(self._page, np.float64, _HEADER, 0)
        self._jobs = np.frombuffer(self._page, np.float64, k * len(JOB_FEATURES), offset).reshape(k, -1)
        offset += 8 * k * len(JOB_FEATURES)
        self._indices = np.frombuffer(self._page, np.int64, k, offset)
        offset += 8 * k
        self._mask = np.frombuffer(self._page, np.uint8, k + 1, offset)
        offset += (k + 1 + 7) // 8 * 8
        self._free = np.frombuffer(self._page, np.int32, self.node_count, offset)
        self._episode: Optional[dict[str, Any]] = None
        self._last_info: Optional[dict[str, Any]] = None
        self.result = None  # the last finished episode's gcsim.RunResult

    # The Gymnasium API.

    def reset(self, *, seed: Optional[int] = None, options: Optional[Mapping[str, Any]] = None):
        """Starts an episode (ending one under way); returns (observation, info).

        ``seed`` seeds ``np_random`` (which a workload callable draws from)
        and the spaces' samples; ``options`` is not used.
        """
        self._end_episode()
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
            self.action_space.seed(seed)
            self.observation_space.seed(seed)
        workload = self.workload(self.np_random) if callable(self.workload) else self.workload
        self._page[:8 * _HEADER] = bytes(8 * _HEADER)
        decision_r, decision_w = os.pipe()
        action_r, action_w = os.pipe()
        policy = _Decisions(self._page, decision_w, action_r, self.max_queue, (decision_r, action_w))
        episode = {"decision_r": decision_r, "decision_w": decision_w, "action_r": action_r, "action_w": action_w,
                   "outcome": None, "over": False}
        options_ = dict(self.run_options)
        options_.setdefault("wall_time", False)
        if self.until is not None:
            options_["until"] = self.until

        episode["thread"] = threading.Thread(
            target=_run_episode, args=(episode, self.cluster, workload, policy, self.placement, options_),
            name="gcsim.env run", daemon=True)
        self._episode = episode
        _open_environments.add(self)
        episode["thread"].start()
        observation, info, _, _ = self._receive()
        if not episode["over"]:
            os.close(action_r)  # the child has its copy
            episode["action_r"] = None
        return observation, info

    def step(self, action: Any):
        """Starts the job of row ``action`` (or waits, action K); returns
        (observation, reward, terminated, truncated, info)."""
        episode = self._episode
        if episode is None or episode["over"]:
            raise RuntimeError("no episode under way: call reset()")
        chosen = int(action)
        if not (0 <= chosen <= self.max_queue) or not self._last_info["action_mask"][chosen]:
            raise ValueError(f"action {chosen} is not allowed now (info['action_mask'])")
        before = self._last_info
        os.write(episode["action_w"], struct.pack("=i", chosen))
        observation, info, terminated, truncated = self._receive()
        return observation, float(self.reward_function(before, info)), terminated, truncated, info

    def close(self) -> None:
        """Ends an episode under way (its simulation is stopped) and frees the environment's resources."""
        self._end_episode()

    def __del__(self) -> None:
        try:
            self._end_episode()
        except Exception:  # noqa: BLE001: nothing to tell at interpreter exit
            pass

    # The protocol's parent side.

    def _info(self, header: list[float], time: float) -> dict[str, Any]:
        return {"action_mask": self._mask.astype(bool), "time": time, "waiting": int(header[2]),
                "running": int(header[3]), "free_gpu_count": int(header[4]), "ended": int(header[5]),
                "accrued_slowdown": header[8] + time * header[6] - header[7],
                "to_arrive": int(header[13]), "job_indices": self._indices.copy(), "decisions": int(header[11])}

    def _receive(self):
        episode = self._episode
        kind = os.read(episode["decision_r"], 1)
        if kind == b"d":
            header = self._header.tolist()
            observation = {"jobs": self._jobs.copy(), "free_gpus": self._free.copy()}
            info = self._info(header, header[0])
            self._last_info = info
            return observation, info, False, False
        # 'e': the run returned.
        episode["thread"].join()
        episode["over"] = True
        what, outcome = episode["outcome"]
        self._close_pipes()
        if what == "error":
            raise outcome
        self.result = outcome
        header = self._header.tolist()
        truncated = self.until is not None and outcome.summary["jobs"]["unfinished"] > 0
        end = float(self.until) if truncated else header[0]
        k = self.max_queue
        observation = {"jobs": np.zeros((k, len(JOB_FEATURES))),
                       "free_gpus": np.zeros(self.node_count, dtype=np.int32)}
        info = self._info(header, end)
        info["action_mask"] = np.zeros(k + 1, dtype=bool)
        info["action_mask"][k] = True
        info["job_indices"] = np.full(k, -1, dtype=np.int64)
        info["result"] = outcome
        self._last_info = info
        return observation, info, not truncated, truncated

    def _close_pipes(self) -> None:
        episode = self._episode
        for name in ("decision_r", "decision_w", "action_r", "action_w"):
            if episode.get(name) is not None:
                os.close(episode[name])
                episode[name] = None

    def _end_episode(self) -> None:
        episode = self._episode
        if episode is None:
            return
        if not episode["over"]:
            # The simulation waits for an action: it is stopped.
            pid = int(self._header[9])
            if pid > 0:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            episode["thread"].join()
            episode["over"] = True
            self._close_pipes()
        self._episode = None


__all__ = ["SchedulingEnv", "JOB_FEATURES", "negative_slowdown"]
