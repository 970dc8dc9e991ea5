"""gcsim.run against `gcsim run`: the same files, read into the same values."""

import json

import pandas as pd
import pytest

import gcsim
from conftest import CLUSTER, SOURCE_DIR, WORKLOAD


@pytest.fixture(scope="module")
def default_run():
    return gcsim.run(CLUSTER, WORKLOAD, "fifo", wall_time=False)


def command_jobs(out):
    """jobs.csv as the command wrote it, every cell as its text."""
    return pd.read_csv(out / "jobs.csv", dtype=str, keep_default_na=False)


def test_the_module_writes_the_files_the_command_writes(default_run, command_run):
    for name in ("summary.json", "jobs.csv", "timeline.csv"):
        assert default_run.files[name] == (command_run / name).read_text(), name


def test_jobs_hold_the_command_s_rows_and_values(default_run, command_run):
    expected = command_jobs(command_run)
    jobs = default_run.jobs
    assert list(jobs.columns) == list(expected.columns)
    assert len(jobs) == len(expected) == 40
    assert list(jobs["id"]) == list(expected["id"])
    for column in ("gpus", "preemptions"):
        assert jobs[column].dtype == "int64"
        assert list(jobs[column]) == [int(v) for v in expected[column]]
    for column in ("submit", "start", "end", "wait", "jct", "uncontended", "gpu_share", "synthetic_iterations_per_s"):
        assert jobs[column].dtype == "float64", column
        written = pd.Series([float(v) if v else float("nan") for v in expected[column]], name=column)
        assert jobs[column].equals(written), column
    for column in ("id", "user", "queue", "state", "placement", "type", "gpu_types"):
        assert list(jobs[column]) == list(expected[column]), column


def test_empty_numeric_cells_are_nan_and_empty_text_cells_stay_empty(default_run, command_run):
    expected = command_jobs(command_run)
    empty_speed = expected["real_iterations_per_s"] == ""
    assert empty_speed.any()
    assert default_run.jobs.loc[empty_speed, "real_iterations_per_s"].isna().all()
    assert not default_run.jobs.loc[~empty_speed, "real_iterations_per_s"].isna().any()
    assert list(default_run.jobs["failure"]) == list(expected["failure"])


def test_the_timeline_is_the_command_s(default_run, command_run):
    expected = pd.read_csv(command_run / "timeline.csv")
    pd.testing.assert_frame_equal(default_run.timeline, expected, check_dtype=False)
    assert default_run.timeline["queued_jobs"].dtype == "int64"


def test_the_summary_is_summary_json_s(default_run, command_run):
    expected = json.loads((command_run / "summary.json").read_text())
    assert default_run.summary == expected
    assert default_run.summary["jobs"]["finished"] == 40


def test_wall_time_is_the_summary_s_only_difference(command_run):
    timed = gcsim.run(CLUSTER, WORKLOAD, "fifo")
    expected = json.loads((command_run / "summary.json").read_text())
    added = set(timed.summary) - set(expected)
    assert added and all("wall" in key for key in added), added
    assert {key: value for key, value in timed.summary.items() if key not in added} == expected


def test_a_workload_given_as_a_dict_runs_as_its_file(default_run):
    document = json.loads(WORKLOAD.read_text())
    cluster = json.loads(CLUSTER.read_text())
    from_dicts = gcsim.run(cluster, document, "fifo", wall_time=False)
    assert from_dicts.files["jobs.csv"] == default_run.files["jobs.csv"]
    assert from_dicts.summary == default_run.summary


def test_a_crafted_dict_runs_to_the_end_counted_by_hand():
    cluster = json.loads(CLUSTER.read_text())
    # Two 32-GPU jobs of 100 s on a 32-GPU rack: the second waits for the first.
    jobs = {"jobs": [{"id": f"j{i}", "submit": 0, "gpus": 32, "duration": {"seconds": 100, "gpu_type": "V100"}}
                     for i in (1, 2)]}
    result = gcsim.run(cluster, jobs, "fifo")
    assert list(result.jobs["start"]) == [0.0, 100.0]
    assert list(result.jobs["end"]) == [100.0, 200.0]
    assert result.summary["makespan_s"] == 200.0
    assert result.early_stop is None


def test_options_reach_the_run():
    until = gcsim.run(CLUSTER, WORKLOAD, "fifo", until=600)
    assert until.summary["simulated_time_s"] <= 600
    assert (until.jobs["state"] != "finished").any()


def test_write_puts_the_files_in_a_folder(default_run, tmp_path):
    written = default_run.write(tmp_path / "out")
    assert sorted(p.rsplit("/", 1)[1] for p in written) == ["jobs.csv", "summary.json", "timeline.csv"]
    for name in ("summary.json", "jobs.csv", "timeline.csv"):
        assert (tmp_path / "out" / name).read_text() == default_run.files[name]
    assert not [p.name for p in (tmp_path / "out").iterdir() if p.name.startswith(".")]


def test_write_into_a_path_that_is_a_file_raises_oserror_and_writes_nothing(default_run, tmp_path):
    blocker = tmp_path / "taken"
    blocker.write_text("a file, not a folder")
    with pytest.raises(OSError):
        default_run.write(blocker / "out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
    assert blocker.read_text() == "a file, not a folder"


def test_a_deadlock_is_a_result_that_names_it():
    result = gcsim.run(SOURCE_DIR / "scenarios/clusters/node-4gpu-pcie.json",
                       SOURCE_DIR / "scenarios/workloads/gang-deadlock.json", "piecemeal")
    assert result.early_stop == "deadlock"
    assert "train-a" in result.diagnosis
    assert "deadlock" in result.summary


def test_contention_gives_its_frames():
    result = gcsim.run(CLUSTER, WORKLOAD, "fifo", contention=True)
    assert list(result.contention.columns) == ["job", "other_job", "link", "seconds_shared", "seconds_lost"]
    assert result.link_utilization["used"].dtype == "float64"
    assert "contention" in result.summary
    assert gcsim.run(CLUSTER, WORKLOAD, "fifo").contention is None


def test_energy_gives_the_power_frame_and_the_jobs_energy():
    # One node of two V100s (idle 50 W, busy 300 W by default), one job
    # computing on one of them for 100 s: the cluster draws 350 W for 100 s,
    # 35,000 J; the job's GPU 300 W x 100 s, 30,000 J.
    cluster = {"name": "pair", "gpu_types": [{"name": "V100", "flops": "15.7TFLOPS", "memory": "32GB"}],
               "node_groups": [{"name": "n", "count": 1, "gpus_per_node": 2, "gpu_type": "V100", "cpu_cores": 8,
                                "memory": "64GB", "intra_node": {"kind": "nvlink", "bandwidth": "150GB/s",
                                                                 "latency": "2us"},
                                "nic": {"bandwidth": "100Gbps", "latency": "5us"}}]}
    workload = {"jobs": [{"id": "a", "submit": 0, "gpus": 1,
                          "duration": {"seconds": 100, "gpu_type": "V100"}}]}
    result = gcsim.run(cluster, workload, "fifo", energy=True)
    assert result.power["watts"].dtype == "float64"
    assert result.power["time"].iloc[0] == 0 and result.power["watts"].iloc[0] == 350
    assert result.summary["energy"]["it_kwh"] == pytest.approx(35000 / 3.6e6, rel=1e-12)
    assert result.jobs["energy_kwh"].dtype == "float64"
    assert result.jobs["energy_kwh"].iloc[0] == pytest.approx(30000 / 3.6e6, rel=1e-12)
    plain = gcsim.run(cluster, workload, "fifo")
    assert plain.power is None and "energy" not in plain.summary and "energy_kwh" not in plain.jobs


def test_a_trace_is_read_into_its_jobs(tmp_path):
    trace = tmp_path / "trace.csv"
    trace.write_text("t,g,d\n0,1,60\n10,2,120\n")
    frame = gcsim.read_trace(f"csv:{trace}", map="submit=t,gpus=g,duration=d")
    assert list(frame["gpus"]) == [1, 2]
    assert list(frame["submit"]) == [0, 10]
    assert list(frame["duration.seconds"]) == [60, 120]
    assert "2 jobs from 2 rows" in frame.attrs["notes"]
