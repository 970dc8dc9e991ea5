"""gcsim.compare against `gcsim compare` and gcsim.run: the same table, each
row the figures of its policy's run."""

import json
import math
import subprocess

import pandas as pd
import pytest

import gcsim
from conftest import CLUSTER, WORKLOAD

POLICIES = ["fifo", "srtf", "tiresias"]


@pytest.fixture(scope="module")
def comparison():
    return gcsim.compare(CLUSTER, WORKLOAD, POLICIES, wall_time=False)


@pytest.fixture(scope="module")
def command_comparison(gcsim_executable, tmp_path_factory):
    out = tmp_path_factory.mktemp("compare") / "cmp"
    subprocess.run([gcsim_executable, "compare", "--policies", ",".join(POLICIES), "--cluster", str(CLUSTER),
                    "--workload", str(WORKLOAD), "--out", str(out), "--no-wall-time", "--quiet", "--plots", "no"],
                   check=True)
    return out


def test_the_table_is_the_command_s_comparison_csv(comparison, command_comparison):
    assert comparison.files["comparison.csv"] == (command_comparison / "comparison.csv").read_text()
    assert comparison.markdown == (command_comparison / "comparison.md").read_text()
    assert list(comparison.table["policy"]) == POLICIES


def test_each_row_holds_its_policy_s_run_summary(comparison):
    for policy in POLICIES:
        alone = gcsim.run(CLUSTER, WORKLOAD, policy, wall_time=False)
        assert comparison.runs[policy].files == alone.files, policy
        row = comparison.table.set_index("policy").loc[policy]
        summary = alone.summary
        assert row["jobs"] == summary["jobs"]["total"] == 40
        assert row["finished"] == summary["jobs"]["finished"]
        assert row["jct_mean_s"] == summary["jct_s"]["mean"]
        assert row["jct_p95_s"] == summary["jct_s"]["p95"]
        assert row["wait_p99_s"] == summary["queueing_delay_s"]["p99"]
        assert row["makespan_s"] == summary["makespan_s"]
        assert row["preemptions"] == summary["preemptions"]["count"]


def test_counts_are_integers_figures_floats_and_n_a_is_nan(comparison):
    table = comparison.table
    for column in ("jobs", "finished", "failed", "unfinished", "preemptions", "deadlocks"):
        assert table[column].dtype == "int64", column
    for column in ("jct_mean_s", "makespan_s", "gpu_util_busy", "deadlock_at_s", "wall_time_s"):
        assert table[column].dtype == "float64", column
    # No run deadlocked and wall time was left out: n/a, read as NaN.
    assert table["deadlock_at_s"].isna().all() and table["wall_time_s"].isna().all()
    assert list(table["stopped"]) == ["none"] * 3
    assert list(table["finished_jobs"]) == ["40/40"] * 3


def test_write_gives_the_command_s_folder(comparison, command_comparison, tmp_path):
    comparison.write(tmp_path)
    for name in ("comparison.csv", "comparison.md", "runs/fifo/jobs.csv", "runs/tiresias/summary.json",
                 "runs/srtf/timeline.csv"):
        assert (tmp_path / name).read_text() == (command_comparison / name).read_text(), name


def test_a_deadlocked_run_is_a_row_saying_so():
    # One node of four GPUs: piecemeal gives each of the two four-GPU trains two GPUs and deadlocks at 240 s.
    cluster = json.loads(CLUSTER.read_text())
    cluster["node_groups"][0].update(count=1, gpus_per_node=4)
    jobs = [{"id": f"short-{i}", "submit": 0, "gpus": 1, "duration": {"seconds": 60 * i, "gpu_type": "V100"}}
            for i in range(1, 5)]
    jobs += [{"id": name, "submit": at, "gpus": 4, "duration": {"seconds": 1200, "gpu_type": "V100"}}
             for name, at in (("train-a", 30), ("train-b", 40))]
    result = gcsim.compare(cluster, {"jobs": jobs}, ["gang", "piecemeal"])
    table = result.table.set_index("policy")
    assert table.loc["gang", "finished"] == 6 and table.loc["gang", "stopped"] == "none"
    assert table.loc["piecemeal", "finished"] == 4 and table.loc["piecemeal", "deadlocks"] == 1
    assert table.loc["piecemeal", "deadlock_at_s"] == 240
    assert result.runs["piecemeal"].early_stop == "deadlock"


def test_bad_policy_lists_are_refused_before_anything_runs(monkeypatch):
    calls = []
    monkeypatch.setattr(gcsim, "run", lambda *args, **kwargs: calls.append(args))
    with pytest.raises(gcsim.UsageError, match="listed twice"):
        gcsim.compare(CLUSTER, WORKLOAD, ["fifo", "srtf", "fifo"])
    with pytest.raises(gcsim.PolicyError, match="unknown policy 'nope'"):
        gcsim.compare(CLUSTER, WORKLOAD, ["fifo", "nope"])
    with pytest.raises(gcsim.UsageError, match="no policy"):
        gcsim.compare(CLUSTER, WORKLOAD, [])
    with pytest.raises(gcsim.UsageError, match="'drf'"):
        gcsim.compare(CLUSTER, WORKLOAD, ["fifo"], policy_opt={"drf": {"x": 1}})
    assert calls == []


def test_options_reach_every_run_and_policy_options_their_policy():
    result = gcsim.compare(CLUSTER, WORKLOAD, ["fifo", "tiresias"], until=3600, wall_time=False,
                           policy_opt={"tiresias": {"promote_knob": 0}})
    for run in result.runs.values():
        assert run.summary["simulated_time_s"] <= 3600
    alone = gcsim.run(CLUSTER, WORKLOAD, "tiresias", until=3600, wall_time=False, policy_opt={"promote_knob": 0})
    assert result.runs["tiresias"].files == alone.files
    assert not math.isnan(result.table.loc[0, "jct_mean_s"])
    assert isinstance(result.table, pd.DataFrame)
