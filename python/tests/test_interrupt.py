"""Ctrl-C during gcsim.run stops the run and gives back its partial result."""

import os
import signal
import threading

import gcsim
from conftest import CLUSTER, WORKLOAD


def test_keyboard_interrupt_returns_the_partial_result():
    # At iteration fidelity the default scenario runs for seconds: the
    # interrupt, a tenth of a second in, finds it running, or not yet begun
    # (the child then stops at once, having finished nothing).
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    timer = threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        result = gcsim.run(CLUSTER, WORKLOAD, "fifo", fidelity="iteration")
    finally:
        timer.cancel()
    assert result.interrupted
    assert result.early_stop == "interrupted"
    partial = result.summary["partial"]
    assert partial["signal"] == "SIGINT"
    assert partial["jobs_finished"] < 40
    assert len(result.jobs) == 40
    assert (result.jobs["state"] != "finished").any()
