"""gcsim.env.SchedulingEnv: episodes, steps, the mask, rewards, and the spaces."""

import os
import subprocess
import sys

import numpy as np
import pytest

import gcsim
from conftest import CLUSTER, SOURCE_DIR
from gcsim.env import JOB_FEATURES, SchedulingEnv, spaces

BIG_CLUSTER = SOURCE_DIR / "scenarios/clusters/cluster-512gpu.json"
EXPECTED = JOB_FEATURES.index("expected_run_time")


def job(name, submit, gpus, seconds):
    return {"id": name, "submit": submit, "gpus": gpus, "duration": {"seconds": seconds, "gpu_type": "V100"}}


@pytest.fixture(scope="session")
def loaded_1k(gcsim_executable, tmp_path_factory):
    """1,000 synthetic jobs arriving every 4 s on average: queues of a few hundred jobs form."""
    workload = tmp_path_factory.mktemp("env") / "w1k.json"
    subprocess.run([gcsim_executable, "synth", "--jobs", "1000", "--mean-interarrival", "4", "--cluster",
                    str(BIG_CLUSTER), "--out", str(workload)], check=True, capture_output=True)
    return workload


def play(env, agent, seed=None, check=None):
    """One episode; returns (rewards, the last step's info)."""
    observation, info = env.reset(seed=seed)
    rewards, done = [], False
    while not done:
        if check:
            check(observation, info)
        observation, reward, terminated, truncated, info = env.step(agent(observation, info))
        rewards.append(reward)
        done = terminated or truncated
    return rewards, info


def test_a_random_agent_runs_a_1000_job_episode_to_its_end(loaded_1k):
    env = SchedulingEnv(BIG_CLUSTER, loaded_1k, max_queue=32)
    expected_run_time = {}

    def check(observation, info):
        assert env.observation_space.contains(observation)
        assert info["action_mask"][:32].any()  # a step is asked only when a job can start
        for row, index in enumerate(info["job_indices"]):
            if index >= 0:
                expected_run_time[index] = observation["jobs"][row, EXPECTED]

    def random_agent(observation, info):
        action = env.action_space.sample(mask=info["action_mask"])
        assert info["action_mask"][action]
        return action

    rewards, info = play(env, random_agent, seed=7, check=check)
    env.close()
    result = info["result"]
    assert result.summary["jobs"] == {"total": 1000, "finished": 1000, "failed": 0, "unfinished": 0}
    assert len(rewards) >= 1000  # every job started by a step, some steps waited
    assert info["decisions"] == len(rewards)  # the reset's observation and each step's but the last
    # The rewards add up to minus the jobs' slowdowns: (end - submit) / expected run time.
    assert len(expected_run_time) == 1000
    ends = result.jobs.end.to_numpy()
    submits = result.jobs.submit.to_numpy()
    slowdowns = (ends - submits) / np.array([expected_run_time[i] for i in range(1000)])
    assert sum(rewards) == pytest.approx(-slowdowns.sum(), rel=1e-6)


def test_a_greedy_shortest_job_agent_gives_non_preemptive_srtfs_jobs_csv(loaded_1k):
    k = 512
    env = SchedulingEnv(BIG_CLUSTER, loaded_1k, max_queue=k)
    longest_queue = 0

    def shortest_that_can_start(observation, info):
        nonlocal longest_queue
        longest_queue = max(longest_queue, info["waiting"])
        rows = np.flatnonzero(info["action_mask"][:k])
        return int(rows[np.argmin(observation["jobs"][rows, EXPECTED])])  # ties: the first row, submitted first

    _, info = play(env, shortest_that_can_start)
    env.close()
    assert 100 < longest_queue <= k  # every waiting job is shown: the agent sees what srtf sees
    srtf = gcsim.run(BIG_CLUSTER, loaded_1k, "srtf", policy_opt={"preemptive": False}, wall_time=False)
    assert info["result"].files["jobs.csv"] == srtf.files["jobs.csv"]
    assert srtf.files["jobs.csv"] != gcsim.run(BIG_CLUSTER, loaded_1k, "fifo", wall_time=False).files["jobs.csv"]


def test_an_instant_with_several_free_slots_takes_several_steps():
    env = SchedulingEnv(CLUSTER, {"jobs": [job("a", 0, 8, 100), job("b", 0, 8, 50), job("c", 0, 8, 20)]},
                        max_queue=4)
    observation, info = env.reset()
    assert info["time"] == 0 and info["waiting"] == 3
    assert observation["jobs"][:3, 0].tolist() == [8, 8, 8]
    assert observation["jobs"][:3, EXPECTED].tolist() == [100, 50, 20]
    assert observation["jobs"][3].tolist() == [0] * len(JOB_FEATURES)
    assert info["job_indices"].tolist() == [0, 1, 2, -1]
    # Nothing runs and nothing is to arrive: waiting would stall the run, so a job must start.
    assert info["action_mask"].tolist() == [True, True, True, False, False]
    assert observation["free_gpus"].tolist() == [8, 8, 8, 8]
    observation, reward, terminated, truncated, info = env.step(2)  # c
    assert (info["time"], info["waiting"], info["running"]) == (0, 2, 1)
    assert info["job_indices"].tolist() == [0, 1, -1, -1]
    assert observation["free_gpus"].tolist() == [0, 8, 8, 8]
    assert info["action_mask"].tolist() == [True, True, False, False, True]  # c's end is to come
    assert reward == 0  # no time passed
    observation, reward, terminated, truncated, info = env.step(4)  # wait: until c ends at 20
    assert (info["time"], info["waiting"], info["ended"]) == (20, 2, 1)
    # From 0 to 20: a and b waited (20/100 + 20/50), c ran to its end (20/20).
    assert reward == pytest.approx(-(0.2 + 0.4 + 1.0))
    observation, reward, terminated, truncated, info = env.step(0)  # a
    observation, reward, terminated, truncated, info = env.step(0)  # b; then nothing waits
    assert terminated and not truncated
    # b ends at 70, a at 120: from 20 on, a adds 100/100, b 50/50.
    assert reward == pytest.approx(-(1.0 + 1.0))
    assert info["result"].jobs.set_index("id").start.to_dict() == {"a": 20.0, "b": 20.0, "c": 0.0}
    with pytest.raises(RuntimeError, match="reset"):
        env.step(4)


def test_a_job_that_cannot_start_is_masked_and_no_step_is_asked_while_none_can():
    env = SchedulingEnv(CLUSTER, {"jobs": [job("big", 0, 32, 100), job("small", 10, 8, 10)]}, max_queue=2)
    observation, info = env.reset()
    assert info["action_mask"].tolist() == [True, False, True]  # small is to arrive
    observation, reward, terminated, truncated, info = env.step(0)  # big takes every GPU
    # small arrives at 10 and cannot start: no step then; the next is at 100, big's end.
    assert info["time"] == 100
    assert reward == pytest.approx(-(1.0 + 90 / 10))


def test_an_action_the_mask_forbids_is_refused_and_the_episode_goes_on():
    env = SchedulingEnv(CLUSTER, {"jobs": [job("a", 0, 8, 100), job("b", 5, 8, 100)]}, max_queue=3)
    _, info = env.reset()
    for bad in (1, 2, 7, -1):
        with pytest.raises(ValueError, match="not allowed"):
            env.step(bad)
    _, _, terminated, _, info = env.step(0)
    assert not terminated and info["time"] == 5
    env.close()


def test_a_pluggable_reward_gets_both_steps_infos():
    elapsed = []

    def time_passed(before, after):
        elapsed.append((before["time"], after["time"]))
        return after["time"] - before["time"]

    env = SchedulingEnv(CLUSTER, {"jobs": [job("a", 0, 8, 100), job("b", 30, 8, 50)]}, max_queue=2,
                        reward=time_passed)
    rewards, info = play(env, lambda observation, info: 0)
    assert elapsed == [(0, 30), (30, 100)]  # a starts at 0, b at 30; b ends at 80, a at 100
    assert rewards == [30, 70]


def test_until_truncates_the_episode():
    env = SchedulingEnv(CLUSTER, {"jobs": [job("a", 0, 32, 100), job("b", 0, 32, 100)]}, max_queue=2, until=150)
    observation, info = env.reset()
    observation, reward, terminated, truncated, info = env.step(0)  # a, to its end at 100
    assert (info["time"], terminated, truncated) == (100, False, False)
    assert reward == pytest.approx(-(1.0 + 1.0))  # a ran 100/100, b waited 100/100
    observation, reward, terminated, truncated, info = env.step(0)  # b, from 100 to 200: cut at 150
    assert truncated and not terminated
    assert info["time"] == 150
    assert reward == pytest.approx(-0.5)  # b's 50 s more, of its 100
    assert info["result"].summary["jobs"]["unfinished"] == 1


def test_close_stops_the_episodes_simulation_and_a_new_episode_starts():
    env = SchedulingEnv(CLUSTER, {"jobs": [job("a", 0, 8, 100), job("b", 5, 8, 100)]}, max_queue=2)
    env.reset()
    child = int(env._header[9])
    os.kill(child, 0)  # it waits for the action
    env.close()
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)
    observation, info = env.reset()
    assert info["time"] == 0
    _, _, terminated, _, info = env.step(0)
    _, _, terminated, _, info = env.step(0)
    assert terminated
    env.close()


def test_a_workload_drawn_per_episode_follows_the_seed():
    def draw(rng):
        return {"jobs": [job(f"j{i}", 0, int(rng.integers(1, 9)), 10) for i in range(4)]}

    env = SchedulingEnv(CLUSTER, draw, max_queue=4)
    first, _ = env.reset(seed=3)
    second, _ = env.reset(seed=3)
    third, _ = env.reset(seed=4)
    env.close()
    assert np.array_equal(first["jobs"], second["jobs"])
    assert not np.array_equal(first["jobs"], third["jobs"])


def test_a_bad_workload_raises_at_reset():
    env = SchedulingEnv(CLUSTER, {"jobs": [job("a", 0, 64, 100)]})
    with pytest.raises(gcsim.InputError, match="64 GPUs"):
        env.reset()


def test_discrete_samples_only_what_the_mask_allows_and_contains_its_values():
    space = spaces.Discrete(5, seed=0)
    mask = np.array([0, 1, 0, 1, 0], dtype=np.int8)
    assert {space.sample(mask=mask) for _ in range(200)} == {1, 3}
    assert {space.sample() for _ in range(500)} == {0, 1, 2, 3, 4}
    assert space.contains(4) and space.contains(np.int64(0))
    assert not space.contains(5) and not space.contains(-1) and not space.contains(1.0) and not space.contains(True)
    with pytest.raises(ValueError, match="allows no value"):
        space.sample(mask=np.zeros(5))


def test_box_samples_within_its_bounds_and_contains_checks_shape_dtype_and_bounds():
    box = spaces.Box(0, np.array([1, 2, 8]), shape=(3,), dtype=np.int32, seed=1)
    for _ in range(100):
        value = box.sample()
        assert value.dtype == np.int32 and box.contains(value)
    assert not box.contains(np.array([0, 3, 0], dtype=np.int32))
    assert not box.contains(np.array([0, 1], dtype=np.int32))
    assert not box.contains(np.array([0.5, 1, 1]))  # float into int32
    unbounded = spaces.Box(0.0, np.inf, shape=(2, 2))
    assert unbounded.contains(unbounded.sample()) and unbounded.sample().min() >= 0
    assert unbounded.contains(np.array([[0.0, np.inf], [1.0, 2.0]]))
    assert not unbounded.contains(np.array([[-1.0, 0], [0, 0]]))


def test_the_environments_spaces_describe_its_observations():
    env = SchedulingEnv(CLUSTER, {"jobs": [job("a", 0, 8, 100)]}, max_queue=6)
    assert env.action_space.n == 7
    assert env.observation_space["jobs"].shape == (6, len(JOB_FEATURES))
    assert env.observation_space["free_gpus"].shape == (4,)
    assert env.observation_space["free_gpus"].high.tolist() == [8, 8, 8, 8]
    assert env.observation_space.contains(env.observation_space.sample())
    observation, _ = env.reset()
    assert env.observation_space.contains(observation)
    env.close()


def test_the_docs_environment_loop_runs(capsys, monkeypatch):
    text = (SOURCE_DIR / "docs/python.md").read_text()
    section = text[text.index("## A scheduling environment"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    code = code[:code.index("```")]
    monkeypatch.chdir(SOURCE_DIR)
    exec(compile(code, "docs/python.md", "exec"), {})
    assert capsys.readouterr().out == "40 True\n"


def test_an_episode_left_open_ends_with_the_interpreter(tmp_path):
    script = tmp_path / "open.py"
    script.write_text(f"""
from gcsim.env import SchedulingEnv
env = SchedulingEnv({str(CLUSTER)!r}, {{"jobs": [{{"id": "a", "submit": 0, "gpus": 8,
                                                  "duration": {{"seconds": 10, "gpu_type": "V100"}}}},
                                                 {{"id": "b", "submit": 5, "gpus": 8,
                                                  "duration": {{"seconds": 10, "gpu_type": "V100"}}}}]}})
env.reset()
print(int(env._header[9]))
""")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    with pytest.raises(ProcessLookupError):  # the simulation's process ended with it
        os.kill(int(done.stdout), 0)
