"""gcsim.synth against `gcsim synth`: the same workload, byte for byte, the
same for a seed, usable by gcsim.run."""

import json
import subprocess

import pytest

import gcsim
from conftest import CLUSTER


def command_synth(gcsim_executable, out, *args):
    subprocess.run([gcsim_executable, "synth", "--out", str(out), *args], check=True, capture_output=True)
    return out.read_text()


def test_the_workload_is_the_command_s_file(gcsim_executable, tmp_path):
    expected = command_synth(gcsim_executable, tmp_path / "w.json", "--jobs", "300", "--seed", "7", "--cluster",
                             str(CLUSTER), "--mean-interarrival", "60", "--checkpoint", "none")
    generated = gcsim.synth(300, seed=7, cluster=CLUSTER, mean_interarrival=60, checkpoint="none")
    assert generated.text == expected
    assert generated.workload == json.loads(expected)
    generated.write(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_text() == expected


def test_a_config_dict_is_the_config_file(gcsim_executable, tmp_path):
    config = {"jobs": 50, "gpu_count_weights": {"1": 1, "8": 1}, "users": 2, "queues": ["a", "b"]}
    (tmp_path / "gen.json").write_text(json.dumps(config))
    expected = command_synth(gcsim_executable, tmp_path / "w.json", "--config", str(tmp_path / "gen.json"))
    assert gcsim.synth(config=config).text == expected
    assert gcsim.synth(config=tmp_path / "gen.json").text == expected
    generated = gcsim.synth(config=config)
    assert set(generated.jobs["gpus"]) == {1, 8}
    assert set(generated.jobs["queue"]) == {"a", "b"}


def test_the_same_seed_gives_the_same_jobs_and_another_seed_others():
    assert gcsim.synth(100, seed=3).text == gcsim.synth(100, seed=3).text
    assert gcsim.synth(100, seed=3).text != gcsim.synth(100, seed=4).text


def test_jobs_are_a_frame_of_the_workload_s_jobs(tmp_path):
    generated = gcsim.synth(120, seed=1)
    assert len(generated) == len(generated.jobs) == 120
    assert list(generated.jobs["id"][:2]) == ["job-0001", "job-0002"]
    assert generated.jobs["submit"].is_monotonic_increasing
    path = generated.write(tmp_path / "w.json")
    read = gcsim.read_trace(path)
    assert read.drop(columns=[c for c in read.columns if c not in generated.jobs.columns]).equals(
        generated.jobs[[c for c in read.columns if c in generated.jobs.columns]])


def test_gcsim_run_takes_the_workload_as_it_takes_the_file(tmp_path):
    generated = gcsim.synth(40, seed=2, cluster=CLUSTER)
    path = generated.write(tmp_path / "w.json")
    from_dict = gcsim.run(CLUSTER, generated.workload, "fifo", wall_time=False)
    from_file = gcsim.run(CLUSTER, path, "fifo", wall_time=False)
    assert from_dict.files["jobs.csv"] == from_file.files["jobs.csv"]
    assert from_dict.summary["jobs"]["total"] == 40


def test_bad_settings_are_errors_naming_what_is_wrong(tmp_path):
    with pytest.raises(gcsim.InputError) as error:
        gcsim.synth(config={"jobs": 10, "gpu_count_weight": {"1": 1}})
    assert error.value.file == "<config dict>" and "gpu_count_weight" in str(error.value)
    with pytest.raises(gcsim.UsageError, match="at_preemption or none"):
        gcsim.synth(10, checkpoint="sometimes")
    with pytest.raises(gcsim.InputError, match="invalid generator settings"):
        gcsim.synth(10, mean_interarrival=-5)
    cluster = json.loads(CLUSTER.read_text())
    cluster["gpu_types"][0]["name"] = "A100"
    cluster["node_groups"][0]["gpu_type"] = "A100"
    with pytest.raises(gcsim.InputError) as error:
        gcsim.synth(10, cluster=cluster)
    assert error.value.file == "<cluster dict>" and "'V100' is not in this cluster" in str(error.value)
    with pytest.raises(gcsim.InputError):
        gcsim.synth(10, config=tmp_path / "missing.json")
