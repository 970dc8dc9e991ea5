"""Errors as gcsim's exceptions, with the message `gcsim run` prints."""

import json

import pytest

import gcsim
from conftest import CLUSTER, WORKLOAD


def test_every_error_is_a_gcsim_error():
    for error in (gcsim.InputError, gcsim.UsageError, gcsim.PolicyError, gcsim.InvariantBroken):
        assert issubclass(error, gcsim.Error)


def test_a_malformed_workload_file_names_the_file_and_field(tmp_path):
    workload = tmp_path / "bad.json"
    workload.write_text(json.dumps({"jobs": [{"id": "a", "submit": 0, "gpus": -2,
                                              "duration": {"seconds": 10, "gpu_type": "V100"}}]}))
    with pytest.raises(gcsim.InputError) as raised:
        gcsim.run(CLUSTER, workload, "fifo")
    assert raised.value.file == str(workload)
    assert raised.value.field == "gpus"
    assert str(workload) in str(raised.value) and "gpus" in str(raised.value)


def test_a_malformed_workload_dict_names_the_job_and_field():
    with pytest.raises(gcsim.InputError) as raised:
        gcsim.run(CLUSTER, {"jobs": [{"id": "a", "submit": 0, "gpus": "x"}]}, "fifo")
    assert raised.value.file == "<workload dict>"
    assert raised.value.where == "jobs[0] (id 'a')"
    assert raised.value.field == "gpus"


def test_a_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(gcsim.InputError) as raised:
        gcsim.run(tmp_path / "none.json", WORKLOAD)
    assert "none.json" in str(raised.value)


def test_an_unknown_policy_is_a_policy_error():
    with pytest.raises(gcsim.PolicyError, match="unknown policy 'no-such-policy'"):
        gcsim.run(CLUSTER, WORKLOAD, "no-such-policy")


def test_a_bad_option_is_a_usage_error():
    with pytest.raises(gcsim.UsageError, match="fidelity"):
        gcsim.run(CLUSTER, WORKLOAD, "fifo", fidelity="exact")
    with pytest.raises(gcsim.UsageError, match="policy-opt|option"):
        gcsim.run(CLUSTER, WORKLOAD, "fifo", policy_opt={"no_such_option": 1})


def test_trace_settings_on_a_native_workload_are_a_usage_error():
    with pytest.raises(gcsim.UsageError, match="trace"):
        gcsim.run(CLUSTER, WORKLOAD, "fifo", trace_opt={"until": "1d"})
