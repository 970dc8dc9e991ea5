"""Fixtures of the gcsim module's tests: the source tree and the gcsim executable.

CTest runs them with GCSIM_SOURCE_DIR and GCSIM_EXECUTABLE set and the
build's python folder on PYTHONPATH (tests/CMakeLists.txt).
"""

import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("GCSIM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
CLUSTER = SOURCE_DIR / "scenarios/clusters/rack-32gpu.json"
WORKLOAD = SOURCE_DIR / "scenarios/workloads/default.json"


@pytest.fixture(scope="session")
def gcsim_executable():
    path = os.environ.get("GCSIM_EXECUTABLE", str(SOURCE_DIR / "build/app/gcsim"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"the gcsim executable is not at {path} (set GCSIM_EXECUTABLE)")
    return path


@pytest.fixture(scope="session")
def command_run(gcsim_executable, tmp_path_factory):
    """The default scenario under fifo as `gcsim run` writes it (no wall time)."""
    out = tmp_path_factory.mktemp("command") / "default"
    subprocess.run([gcsim_executable, "run", "--cluster", str(CLUSTER), "--workload", str(WORKLOAD), "--policy", "fifo",
                    "--out", str(out), "--no-wall-time", "--quiet"], check=True)
    return out
