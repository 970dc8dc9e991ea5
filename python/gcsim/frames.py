"""Output files as pandas DataFrames whose columns are exactly the files'.

Columns of text (ids, names, placements, states) are strings, kept as written
(an empty cell is ""; an id "NA" stays "NA"); numeric columns are float64, an
empty cell NaN, each the float the file's text gives exactly, and counts that are never empty (gpus, preemptions,
queued_jobs) int64. A column this module does not know yet is numeric when
all its cells are numbers or empty, else text.
"""

from __future__ import annotations

import csv
import io

import pandas as pd

# The text columns of each output file; every other column is a number.
TEXT_COLUMNS = {
    "jobs.csv": {"id", "user", "queue", "state", "placement", "failure", "type", "gpu_types", "pace_gpu_type", "qos"},
    "timeline.csv": set(),
    "serving.csv": {"deployment"},
    "contention.csv": {"job", "other_job", "link"},
    "link_utilization.csv": {"link"},
    "power.csv": set(),
}
# Numeric columns never empty and always whole.
INTEGER_COLUMNS = {"gpus", "preemptions", "queued_jobs"}
# The other numeric columns.
REAL_COLUMNS = {
    "jobs.csv": {"submit", "start", "end", "wait", "jct", "uncontended", "gpu_share", "synthetic_iterations_per_s",
                 "real_iterations_per_s", "energy_kwh", "energy_kwh_per_gpu_hour"},
    "timeline.csv": {"time", "allocated_gpus", "busy_gpus"},
    "serving.csv": {"time", "desired_replicas", "replicas", "ready_replicas", "arrival_rate", "utilization", "backlog"},
    "contention.csv": {"seconds_shared", "seconds_lost"},
    "link_utilization.csv": {"time", "used"},
    "power.csv": {"time", "watts"},
}


def _header(text: str) -> list[str]:
    first = text.split("\n", 1)[0]
    return next(csv.reader([first])) if first else []


def csv_frame(name: str, text: str) -> pd.DataFrame:
    """The output file ``name`` (e.g. "jobs.csv") of content ``text`` as a DataFrame."""
    columns = _header(text)
    text_columns = TEXT_COLUMNS.get(name, set())
    real_columns = REAL_COLUMNS.get(name, set())
    dtypes = {}
    for column in columns:
        if column in INTEGER_COLUMNS:
            dtypes[column] = "int64"
        elif column in real_columns:
            dtypes[column] = "float64"
        else:
            dtypes[column] = str
    frame = pd.read_csv(
        io.StringIO(text),
        dtype=dtypes,
        keep_default_na=False,
        # Each number as Python's float() reads it, not the faster parser's nearest guess.
        float_precision="round_trip",
        na_values={column: [""] for column in columns if dtypes[column] != str},
    )
    for column in columns:
        if dtypes[column] == str and column not in text_columns:
            try:
                frame[column] = pd.to_numeric(frame[column].replace("", float("nan")))
            except (ValueError, TypeError):
                pass
    return frame
