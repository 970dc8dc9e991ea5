"""Gymnasium-style environments over gcsim's simulations (no dependency on gymnasium).

    from gcsim.env import SchedulingEnv

    env = SchedulingEnv("scenarios/clusters/rack-32gpu.json", "scenarios/workloads/default.json", max_queue=32)
    observation, info = env.reset(seed=0)
    done = False
    while not done:
        action = env.action_space.sample(mask=info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    info["result"].summary["jct_s"]["mean"]

See :class:`SchedulingEnv` and docs/python.md.
"""

from . import spaces
from .scheduling_env import JOB_FEATURES, SchedulingEnv, negative_slowdown

__all__ = ["SchedulingEnv", "JOB_FEATURES", "negative_slowdown", "spaces"]
