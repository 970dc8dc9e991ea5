"""validation/power/gpu_power_distribution.py on a crafted run and a crafted
measured distribution, every figure counted by hand."""

import json
import os
import subprocess
import sys

import pytest

SCRIPT = os.path.join(os.environ.get("GCSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")),
                      "validation", "power", "gpu_power_distribution.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
import gpu_power_distribution as gpd  # noqa: E402


@pytest.fixture
def run_dir(tmp_path):
    """4 GPUs for 100 s: 2 held (1 computing) until 50 s, then all 4 computing.
    GPU-seconds: computing 1 x 50 + 4 x 50 = 250, held without computing
    1 x 50 = 50, idle 2 x 50 = 100; 400 in all."""
    (tmp_path / "summary.json").write_text(json.dumps({"gpus": 4, "makespan_s": 100}))
    (tmp_path / "timeline.csv").write_text("time,allocated_gpus,busy_gpus,queued_jobs\n0,2,1,0\n50,4,4,0\n")
    return tmp_path


@pytest.fixture
def measured(tmp_path):
    """Half the samples evenly between 0 and 100 W, half between 100 and 500 W."""
    path = tmp_path / "measured.csv"
    path.write_text("watts,percent\n0,0\n100,50\n500,100\n")
    return str(path)


def test_the_run_s_gpu_time_splits_over_the_three_draws(run_dir):
    assert gpd.run_distribution(str(run_dir), 60, 400, 60) == [(60, 0.375), (400, 0.625)]
    assert gpd.run_distribution(str(run_dir), 60, 400, 100) == [(60, 0.25), (100, 0.125), (400, 0.625)]


def test_the_figures_against_the_measured_distribution(run_dir, measured):
    r = gpd.compare(str(run_dir), 60, 400, 60, measured, bands=(80, 350))
    # gcsim: 60 W for 0.375 of the time, 400 W for 0.625: a mean of 272.5 W.
    assert r["run_mean_watts"] == pytest.approx(272.5)
    assert r["run_median_watts"] == 400
    assert r["run_bands"] == pytest.approx((0.375, 0.0, 0.625))
    # Measured: F(80) = 0.4, F(350) = 0.5 + 250/400 x 0.5 = 0.8125; the mean 0.5 x 50 + 0.5 x 300 = 175.
    assert r["measured_bands"] == pytest.approx((0.4, 0.4125, 0.1875))
    assert r["measured_mean_watts"] == pytest.approx(175)
    assert r["measured_median_watts"] == pytest.approx(100)
    # The widest gap: just below 400 W, measured 0.875 against gcsim's 0.375.
    assert r["ks"] == pytest.approx(0.5)
    # Any busy share: just below 60 W the measured 0.3 meets gcsim's 0, whatever the share.
    assert r["least_two_level_ks"] == pytest.approx(0.3)


def test_the_command_prints_the_table_and_refuses_bad_watts(run_dir, measured, tmp_path):
    out = subprocess.run([sys.executable, SCRIPT, str(run_dir), "--watts", "60,400", "--measured", measured,
                          "--json", str(tmp_path / "r.json")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "| gcsim | 37.5% | 0.0% | 62.5% | 272.5 | 400.0 |" in out.stdout
    assert json.loads((tmp_path / "r.json").read_text())["ks"] == pytest.approx(0.5)
    bad = subprocess.run([sys.executable, SCRIPT, str(run_dir), "--watts", "400,60", "--measured", measured],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--watts" in bad.stderr
    missing = subprocess.run([sys.executable, SCRIPT, str(tmp_path / "none"), "--watts", "60,400", "--measured",
                              measured], capture_output=True, text=True)
    assert missing.returncode == 1 and "summary.json" in missing.stderr
