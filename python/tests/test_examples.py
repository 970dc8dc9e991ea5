"""examples/python/ runs as its README says and writes what it promises."""

import subprocess
import sys

import pytest

from conftest import SOURCE_DIR


def test_compare_policies_prints_the_table_and_plots_the_cdfs(tmp_path):
    pytest.importorskip("matplotlib", reason="this Python cannot import matplotlib (Debian: python3-matplotlib)")
    png = tmp_path / "jct.png"
    done = subprocess.run([sys.executable, str(SOURCE_DIR / "examples/python/compare_policies.py"), "--out", str(png)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert png.read_bytes().startswith(b"\x89PNG")
    rows = [line.split("|")[1].strip() for line in done.stdout.splitlines() if line.startswith("| ")]
    expected = ["fifo", "srtf", "MyFifo"]
    assert rows[1:1 + len(expected)] == expected, done.stdout
    assert "| fifo | 400/400 |" in done.stdout
    # The Python FIFO is fifo: the same row but for its name and its wall time (the last column).
    table = {line.split("|")[1].strip(): line.split("|")[2:-2] for line in done.stdout.splitlines()
             if line.startswith("| ")}
    assert table["MyFifo"] == table["fifo"]
