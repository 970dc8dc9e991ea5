"""Fixtures of the HTML report's tests: the source tree, the gcsim executable,
the report script as a module, and Chromium for the tests marked `browser`.

CTest runs the tests twice over (tests/CMakeLists.txt): html_report_tests
without a browser, html_report_browser_tests with one. Where every test of a
session is skipped (no plotly, no Chromium) the session ends with status 77,
which CTest shows as skipped, the reasons printed (-rs).
"""

import importlib.util
import os
import pathlib

import pytest

import page_check

SOURCE_DIR = pathlib.Path(os.environ.get("GCSIM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: opens pages in headless Chromium")


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if exitstatus == 0 and reporter is not None and not reporter.stats.get("passed") and reporter.stats.get("skipped"):
        session.exitstatus = 77


@pytest.fixture(scope="session")
def report_script():
    """scripts/report_comparison.py imported as a module (skips without plotly)."""
    pytest.importorskip("plotly", reason="this Python cannot import plotly (Debian: python3-plotly)")
    spec = importlib.util.spec_from_file_location("report_comparison", SOURCE_DIR / "scripts/report_comparison.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def browser():
    if page_check.chromium() is None:
        pytest.skip("chromium is not installed (Debian: chromium)")


@pytest.fixture(scope="session")
def gcsim_executable():
    path = os.environ.get("GCSIM_EXECUTABLE", str(SOURCE_DIR / "build/app/gcsim"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"the gcsim executable is not at {path} (set GCSIM_EXECUTABLE)")
    return path
