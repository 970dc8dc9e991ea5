"""Policies written in Python: the engine calls them as it calls C++ ones.

A Python FIFO and a Python SRTF (examples/python/policies) give jobs.csv
byte for byte as the C++ fifo and srtf do; a policy that raises, or records
a bad plan, fails the run with gcsim.PolicyError.
"""

import subprocess
import sys
import threading
import time

import pytest

import gcsim
from conftest import CLUSTER, SOURCE_DIR, WORKLOAD

sys.path.insert(0, str(SOURCE_DIR / "examples/python/policies"))
from fifo import Fifo  # noqa: E402
from srtf import Srtf  # noqa: E402

V100 = {"gpu_type": "V100"}


def job(name, submit, gpus, seconds):
    return {"id": name, "submit": submit, "gpus": gpus, "duration": {"seconds": seconds, **V100}}


def jobs_csv(cluster, workload, policy, **options):
    return gcsim.run(cluster, workload, policy, wall_time=False, **options).files["jobs.csv"]


@pytest.fixture(scope="session")
def synthetic_10k(gcsim_executable, tmp_path_factory):
    """10,000 synthetic jobs loading the 512-GPU cluster enough for queues and preemptions."""
    cluster = SOURCE_DIR / "scenarios/clusters/cluster-512gpu.json"
    workload = tmp_path_factory.mktemp("synthetic") / "w10k.json"
    subprocess.run([gcsim_executable, "synth", "--jobs", "10000", "--mean-interarrival", "20", "--cluster",
                    str(cluster), "--out", str(workload)], check=True, capture_output=True)
    return cluster, workload


def test_python_fifo_gives_fifos_jobs_csv_on_the_default_scenario():
    assert jobs_csv(CLUSTER, WORKLOAD, Fifo()) == jobs_csv(CLUSTER, WORKLOAD, "fifo")


def test_python_srtf_gives_srtfs_jobs_csv_on_the_default_scenario():
    expected = gcsim.run(CLUSTER, WORKLOAD, "srtf", wall_time=False)
    assert expected.summary["preemptions"]["count"] > 0  # the preemptive path is taken
    assert jobs_csv(CLUSTER, WORKLOAD, Srtf()) == expected.files["jobs.csv"]
    assert (jobs_csv(CLUSTER, WORKLOAD, Srtf(preemptive=False))
            == jobs_csv(CLUSTER, WORKLOAD, "srtf", policy_opt={"preemptive": False}))


def test_python_fifo_gives_fifos_jobs_csv_on_10k_synthetic_jobs(synthetic_10k):
    cluster, workload = synthetic_10k
    expected = gcsim.run(cluster, workload, "fifo", wall_time=False)
    assert expected.summary["jobs"]["finished"] == 10000
    assert expected.jobs.wait.max() > 0  # jobs queued
    assert jobs_csv(cluster, workload, Fifo()) == expected.files["jobs.csv"]


def test_python_srtf_gives_srtfs_jobs_csv_on_10k_synthetic_jobs(synthetic_10k):
    cluster, workload = synthetic_10k
    expected = gcsim.run(cluster, workload, "srtf", wall_time=False)
    assert expected.summary["preemptions"]["count"] > 1000
    assert jobs_csv(cluster, workload, Srtf()) == expected.files["jobs.csv"]


def test_python_srtf_without_preemption_gives_srtfs_jobs_csv_on_10k_synthetic_jobs(synthetic_10k):
    cluster, workload = synthetic_10k
    assert (jobs_csv(cluster, workload, Srtf(preemptive=False))
            == jobs_csv(cluster, workload, "srtf", policy_opt={"preemptive": False}))


def test_a_policy_class_is_run_as_an_instance_and_named_in_the_summary():
    result = gcsim.run(CLUSTER, WORKLOAD, Fifo, wall_time=False)
    assert result.summary["policy"] == "Fifo"
    assert result.files["jobs.csv"] == jobs_csv(CLUSTER, WORKLOAD, "fifo")


def test_a_policy_that_is_not_a_gcsim_policy_is_refused():
    class NotAPolicy:
        def schedule(self, cluster, queue, plan):
            pass

    with pytest.raises(TypeError, match="gcsim.Policy"):
        gcsim.run(CLUSTER, WORKLOAD, NotAPolicy())


def test_a_policy_that_raises_fails_the_run_naming_its_class_and_the_instant():
    class RaisesAtTen(gcsim.Policy):
        def schedule(self, cluster, queue, plan):
            if queue.now >= 10:
                raise ValueError("no room for " + queue.waiting[0].id)

    workload = {"jobs": [job("a", 0, 2, 100), job("b", 10, 1, 100)]}
    with pytest.raises(gcsim.PolicyError) as raised:
        gcsim.run(CLUSTER, workload, RaisesAtTen())
    message = str(raised.value)
    assert message.startswith("policy 'RaisesAtTen' failed at t=10.000000 s: ValueError: no room for a\n")
    assert raised.value.traceback.startswith("Traceback (most recent call last):")
    assert 'raise ValueError("no room for " + queue.waiting[0].id)' in raised.value.traceback
    assert raised.value.traceback.rstrip().endswith("ValueError: no room for a")
    assert raised.value.traceback in message


def test_a_plan_giving_a_busy_gpu_is_rejected_as_a_cpp_policys_is():
    class AlwaysGpuZero(gcsim.Policy):
        def schedule(self, cluster, queue, plan):
            for waiting in queue.waiting:
                plan.allocate(waiting, [0, 1][:waiting.gpus])

    workload = {"jobs": [job("a", 0, 2, 100), job("b", 10, 1, 100)]}
    with pytest.raises(gcsim.PolicyError) as raised:
        gcsim.run(CLUSTER, workload, AlwaysGpuZero())
    # The engine's PlanRejected, as `gcsim run` prints it after "policy error: ".
    assert str(raised.value) == ("the policy's plan was rejected: decision 0 (job 'b'): "
                                 "GPU dgx1-0:0 is not free (held by job 'a')")
    assert raised.value.traceback == ""


def test_a_view_kept_past_its_call_refuses_to_be_read():
    class KeepsAJob(gcsim.Policy):
        kept = None

        def schedule(self, cluster, queue, plan):
            if self.kept is not None:
                self.kept.gpus
            if queue.waiting:
                self.kept = queue.waiting[0]

    workload = {"jobs": [job("a", 0, 32, 100), job("b", 10, 1, 100)]}
    with pytest.raises(gcsim.PolicyError, match="valid only during that call"):
        gcsim.run(CLUSTER, workload, KeepsAJob())


def test_the_plans_allocations_show_on_the_cluster_view_at_once():
    class TakesEightThenLooks(gcsim.Policy):
        def schedule(self, cluster, queue, plan):
            if not queue.waiting:
                return
            before = cluster.free_gpu_count
            first = queue.waiting[0]
            gpus = gcsim.placement.pack(first, cluster)
            plan.allocate(first, gpus)
            assert cluster.free_gpu_count == before - first.gpus
            assert not any(cluster.is_free(g) for g in gpus)
            assert all(cluster.owner(g) is None for g in gpus)  # not yet held in the engine's state
            assert gcsim.placement.pack(first, cluster) != gpus

    workload = {"jobs": [job("a", 0, 8, 100)]}
    result = gcsim.run(CLUSTER, workload, TakesEightThenLooks())
    assert result.jobs.start.tolist() == [0.0]


def test_built_in_placements_by_name_give_the_cpp_placements_gpus():
    class SpreadFifo(gcsim.Policy):
        def schedule(self, cluster, queue, plan):
            for waiting in queue.waiting:
                gpus = gcsim.placement.spread(waiting, cluster)
                if gpus is None:
                    return
                plan.allocate(waiting, gpus)

    assert jobs_csv(CLUSTER, WORKLOAD, SpreadFifo()) == jobs_csv(CLUSTER, WORKLOAD, "fifo", placement="spread")
    # The run's placement is cluster.place's.
    assert jobs_csv(CLUSTER, WORKLOAD, Fifo(), placement="spread") == jobs_csv(CLUSTER, WORKLOAD, "fifo",
                                                                                 placement="spread")
    assert set(gcsim.placement.names()) >= {"pack", "spread", "topology", "network"}


def test_a_python_policy_may_start_a_run_under_a_power_limit():
    # The bundled V100's 200 W state computes at 0.85: 850 s of work take 1000 s,
    # as under the job's own power_limit_watts.
    class CapsEveryStart(gcsim.Policy):
        def schedule(self, cluster, queue, plan):
            for waiting in queue.waiting:
                plan.allocate(waiting, cluster.place(waiting), power_limit_watts=200)

    capped = gcsim.run(CLUSTER, {"jobs": [job("a", 0, 1, 850)]}, CapsEveryStart(), wall_time=False, energy=True)
    assert capped.jobs.end.tolist() == pytest.approx([1000.0])
    own = job("a", 0, 1, 850)
    own["power_limit_watts"] = 200
    limited = gcsim.run(CLUSTER, {"jobs": [own]}, "fifo", wall_time=False, energy=True)
    assert capped.files["jobs.csv"] == limited.files["jobs.csv"]


def test_a_wake_up_asked_in_python_calls_the_policy_again():
    class StartsAtHundred(gcsim.Policy):
        def schedule(self, cluster, queue, plan):
            if queue.now < 100:
                plan.wake_at(100)
                return
            for waiting in queue.waiting:
                plan.allocate(waiting, cluster.place(waiting))

    workload = {"jobs": [job("a", 0, 4, 50), job("b", 30, 4, 50)]}
    result = gcsim.run(CLUSTER, workload, StartsAtHundred())
    assert result.jobs.start.tolist() == [100.0, 100.0]
    assert result.jobs.end.tolist() == [150.0, 150.0]


def test_a_python_policy_preempts_and_the_job_waits_again():
    class PreemptsForB(gcsim.Policy):
        def schedule(self, cluster, queue, plan):
            for waiting in queue.waiting:
                if waiting.id == "b" and queue.running:
                    victim = queue.running[0]
                    plan.preempt(victim)
                    assert cluster.free_gpu_count == 32  # a's GPUs shown free
                gpus = cluster.place(waiting)
                if gpus is None:
                    return
                plan.allocate(waiting, gpus)

    # a takes the whole rack; b preempts it at 10; a starts over when b ends at 110.
    workload = {"jobs": [job("a", 0, 32, 100), job("b", 10, 32, 100)]}
    result = gcsim.run(CLUSTER, workload, PreemptsForB())
    assert result.jobs.set_index("id").preemptions.to_dict() == {"a": 1, "b": 0}
    assert result.jobs.set_index("id").end.to_dict() == {"a": 210.0, "b": 110.0}


def test_the_docs_policy_example_runs(capsys, monkeypatch):
    text = (SOURCE_DIR / "docs/python.md").read_text()
    section = text[text.index("## Policies written in Python"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    code = code[:code.index("```")]
    monkeypatch.chdir(SOURCE_DIR)
    exec(compile(code, "docs/python.md", "exec"), {})
    assert capsys.readouterr().out == "Fifo 2447\n"


def exits_cleanly(tmp_path, at_fork, hold_process=False):
    """Runs a script whose daemon thread runs a slow Python policy; the main
    thread leaves once the run's fork calls `at_fork` ("before" or
    "after_in_parent": Python's at-fork hooks) in the daemon thread, which
    then stays a second in the "before" hook. With `hold_process`, a C-level
    exit function (getchar) holds the process after the interpreter's end
    until the test closes its input.
    The process must exit 0 having printed "leaving" and nothing else."""
    script = tmp_path / "exits.py"
    script.write_text(f"""
import ctypes, os, threading, time
import gcsim

forking = threading.Event()

def at_fork():
    if threading.current_thread() is not threading.main_thread():
        forking.set()
        if {at_fork == "before"}:
            time.sleep(1)  # the main thread leaves meanwhile

os.register_at_fork({at_fork}=at_fork)

class Slow(gcsim.Policy):
    def schedule(self, cluster, queue, plan):
        time.sleep(30)

threading.Thread(target=gcsim.run, args=({str(CLUSTER)!r}, {str(WORKLOAD)!r}, Slow()), daemon=True).start()
if {hold_process}:
    ctypes.pythonapi.Py_AtExit(ctypes.cast(ctypes.CDLL(None).getchar, ctypes.c_void_p))
forking.wait()
print("leaving", flush=True)
""")
    process = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    if hold_process:
        time.sleep(2.5)  # the hook's second is over: the daemon thread has tried to take the interpreter back
    stdout, stderr = process.communicate(timeout=60)
    assert (process.returncode, stdout, stderr) == (0, "leaving\n", "")


def test_the_interpreter_exits_cleanly_while_a_thread_waits_on_a_run(tmp_path):
    # The run has forked: its thread gives the interpreter up right after
    # the hook and waits on the run without it, and is ended with the process.
    exits_cleanly(tmp_path, "after_in_parent")


def test_the_interpreter_ending_while_a_thread_forks_a_run_ends_that_thread_cleanly(tmp_path):
    # The interpreter ends while the daemon thread is inside Python's own
    # at-fork hooks, which the run's fork calls holding the interpreter: when
    # the hook takes it back, the interpreter ends the thread there, and the
    # thread must wait for the process's exit (not abort, not crash).
    exits_cleanly(tmp_path, "before", hold_process=True)


def test_a_run_that_ends_after_the_interpreter_is_gone_leaves_the_process_to_exit(tmp_path):
    # The daemon thread's run ends after Py_Finalize has torn the interpreter
    # down (a C-level exit function, getchar, holds the process until the
    # test closes its input): taking the lock back then must neither crash
    # nor keep the process from exiting.
    script = tmp_path / "outlives.py"
    script.write_text(f"""
import ctypes, os, threading, time
import gcsim

class SlowOnce(gcsim.Policy):
    slept = False
    def schedule(self, cluster, queue, plan):
        if not SlowOnce.slept:
            SlowOnce.slept = True
            time.sleep(1)
        for waiting in queue.waiting:
            gpus = cluster.place(waiting)
            if gpus is not None:
                plan.allocate(waiting, gpus)

forked = threading.Event()
os.register_at_fork(after_in_parent=forked.set)
workload = {{"jobs": [{{"id": "a", "submit": 0, "gpus": 1, "duration": {{"seconds": 10, "gpu_type": "V100"}}}}]}}
threading.Thread(target=gcsim.run, args=({str(CLUSTER)!r}, workload, SlowOnce()), daemon=True).start()
ctypes.pythonapi.Py_AtExit(ctypes.cast(ctypes.CDLL(None).getchar, ctypes.c_void_p))
forked.wait()
print("leaving", flush=True)
""")
    process = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "leaving\n"
    time.sleep(2.5)  # the run ends about 1 s after "leaving"
    assert process.poll() is None  # held by getchar, after the interpreter's end
    stdout, stderr = process.communicate(timeout=60)
    assert (process.returncode, stdout, stderr) == (0, "", "")


def test_runs_in_several_threads_at_once_give_what_each_gives_alone():
    alone = {"python": jobs_csv(CLUSTER, WORKLOAD, Fifo()), "builtin": jobs_csv(CLUSTER, WORKLOAD, "srtf")}
    together = {}

    def run(name, policy):
        together[name] = jobs_csv(CLUSTER, WORKLOAD, policy)

    threads = [threading.Thread(target=run, args=("python", Fifo())),
               threading.Thread(target=run, args=("builtin", "srtf"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone
    assert alone["python"] != alone["builtin"]  # two different runs, each matched
