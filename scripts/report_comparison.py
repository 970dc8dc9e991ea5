#!/usr/bin/env python3
"""One HTML page of a `gcsim compare` output directory, interactive and offline.

Reads only what compare wrote: DIR/comparison.csv (the policies, in order),
DIR/comparison.md (its tables) and each policy's
DIR/runs/POLICY/{summary.json,jobs.csv,timeline.csv}. Writes DIR/report.html,
one self-contained file (plotly's JavaScript embedded: it opens offline),
staged under a temporary name and renamed into place. It holds:

  the CDFs of job completion time and of queueing delay, per policy
  GPUs allocated to jobs over time, per policy (from timeline.csv)
  with --energy, the cluster's IT power over time, per policy (power.csv)
  a Gantt chart per policy: one row per GPU, one bar per job on each GPU of
      its last placement, its id, GPUs, start and end on hover; zoomable
  comparison.md's tables: the figures per policy, per job type, per serving
      deployment and per capacity queue, as compare tabulated them

A big run stays a page a browser opens: each Gantt chart holds at most
GANTT_MAX_BARS bars (the jobs in order of their first start, as many as fit;
the page says how many of how many), each CDF at most CDF_MAX_POINTS points
(evenly spaced ranks) and each allocation curve the least and the most
allocation in each of UTILIZATION_SPANS equal spans of time. The embedded
plotly.js is Debian's, about 8.7 MB.

Needs plotly (Debian: python3-plotly). Usage: python3 scripts/report_comparison.py DIR
"""

import html
import os
import re
import sys
import tempfile

try:
    import plotly.graph_objects as go
    from plotly.offline import get_plotlyjs
except ImportError:
    sys.exit(f"report_comparison.py: {sys.executable} cannot import plotly "
             "(Debian: apt-get install python3-plotly; or run it with a Python that has it)")

# The shared reader sits beside this script, which also runs as a module of the tests.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from comparison_runs import number, runs_of_arguments  # noqa: E402

GANTT_MAX_BARS = 5000
CDF_MAX_POINTS = 2000
UTILIZATION_SPANS = 2000
# plotly's default qualitative colours, one per policy in order.
POLICY_COLOURS = ["#636efa", "#ef553b", "#00cc96", "#ab63fa", "#ffa15a", "#19d3f3", "#ff6692", "#b6e880",
                  "#ff97ff", "#fecb52"]
# Job colours in a Gantt chart (matplotlib's tab20, as the PNG charts).
JOB_COLOURS = ["#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728", "#ff9896", "#9467bd",
               "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2", "#7f7f7f", "#c7c7c7", "#bcbd22", "#dbdb8d",
               "#17becf", "#9edae5"]


def cdf_points(values):
    """(x, y) of the empirical CDF of sorted `values`: every rank, or
    CDF_MAX_POINTS evenly spaced ranks, the first and the last among them."""
    n = len(values)
    if n <= CDF_MAX_POINTS:
        ranks = range(n)
    else:
        ranks = sorted({round(k * (n - 1) / (CDF_MAX_POINTS - 1)) for k in range(CDF_MAX_POINTS)})
    return [values[i] for i in ranks], [(i + 1) / n for i in ranks]


def step_points(points, end):
    """A step curve's points up to `end`; past 2 x UTILIZATION_SPANS points,
    the least and the most value of each of UTILIZATION_SPANS equal spans of
    time, in the order they occur, so no peak or trough is lost."""
    points = [p for p in points if p[0] <= end]
    if points:
        points.append((end, points[-1][1]))
    if len(points) <= 2 * UTILIZATION_SPANS:
        return points
    start = points[0][0]
    width = max((end - start) / UTILIZATION_SPANS, 1e-300)
    kept, span_points = [], []

    def flush():
        if span_points:
            low = min(span_points, key=lambda p: p[1])
            high = max(span_points, key=lambda p: p[1])
            kept.extend(sorted({low, high}))

    span = 0
    for point in points:
        index = min(int((point[0] - start) / width), UTILIZATION_SPANS - 1)
        if index != span:
            flush()
            span_points, span = [], index
        span_points.append(point)
    flush()
    if kept[-1] != points[-1]:
        kept.append(points[-1])  # the curve reaches the end of the run
    return kept


def cdf_figure(runs, values_of, title, xlabel, unit):
    name, seconds = unit
    fig = go.Figure()
    every = [v for r in runs for v in values_of(r)]
    for index, r in enumerate(runs):
        values = values_of(r)
        label = r.policy if len(values) == len(r.jobs) else f"{r.policy} ({len(values)}/{len(r.jobs)} finished)"
        xs, ys = cdf_points(values)
        fig.add_trace(go.Scatter(x=[x / seconds for x in xs], y=ys, mode="lines", line_shape="hv", name=label,
                                 line={"color": POLICY_COLOURS[index % len(POLICY_COLOURS)]},
                                 hovertemplate=f"%{{x:.4g}} {name}: %{{y:.3f}}<extra>{html.escape(r.policy)}</extra>"))
    # Completion times often span orders of magnitude; a log axis keeps the short ones visible.
    log = bool(every) and min(every) > 0 and max(every) / min(every) > 100
    fig.update_layout(title=title, xaxis_title=f"{xlabel} ({name})", yaxis_title="fraction of finished jobs",
                      yaxis_range=[0, 1.02], xaxis_type="log" if log else "linear", height=360,
                      legend={"x": 0.99, "xanchor": "right", "y": 0.02, "yanchor": "bottom"})
    return fig


def utilization_figure(runs, unit):
    name, seconds = unit
    total = max(float(r.summary["gpus"]) for r in runs)
    fig = go.Figure()
    for index, r in enumerate(runs):
        points = step_points([(t, allocated) for t, allocated, *_ in r.timeline], r.end)
        fig.add_trace(go.Scatter(x=[t / seconds for t, _ in points], y=[a for _, a in points], mode="lines",
                                 line_shape="hv", name=r.policy,
                                 line={"color": POLICY_COLOURS[index % len(POLICY_COLOURS)]},
                                 hovertemplate=f"%{{x:.4g}} {name}: %{{y:.4g}} GPUs<extra>{html.escape(r.policy)}</extra>"))
    fig.add_hline(y=total, line_dash="dash", line_color="grey", annotation_text=f"cluster ({total:g} GPUs)")
    fig.update_layout(title="GPUs allocated to jobs over time", xaxis_title=f"simulated time ({name})",
                      yaxis_title="GPUs allocated", yaxis_range=[0, total * 1.08], height=360)
    return fig


def power_figure(runs, unit):
    name, seconds = unit
    fig = go.Figure()
    for index, r in enumerate(runs):
        if r.power is None:
            continue
        points = step_points(list(r.power), r.end)
        peak = float(r.summary["energy"]["peak_kw"])
        fig.add_trace(go.Scatter(x=[t / seconds for t, _ in points], y=[w / 1000.0 for _, w in points],
                                 mode="lines", line_shape="hv", name=f"{r.policy} (peak {peak:.4g} kW)",
                                 line={"color": POLICY_COLOURS[index % len(POLICY_COLOURS)]},
                                 hovertemplate=f"%{{x:.4g}} {name}: %{{y:.4g}} kW<extra>{html.escape(r.policy)}</extra>"))
    fig.update_layout(title="Cluster IT power over time (before PUE)", xaxis_title=f"simulated time ({name})",
                      yaxis_title="IT power (kW)", yaxis_rangemode="tozero", height=360)
    return fig


def gpu_sort_key(label):
    """node-10:3 after node-2:7: digit runs compare as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", label)]


def gantt_bars(run):
    """The bars of the jobs that started, in order of their first start, as
    many whole jobs as fit in GANTT_MAX_BARS; and how many jobs are shown of
    how many hold GPUs."""
    placed = []
    for index, job in enumerate(run.jobs):
        # A CPU job holds no GPU (its placement is a node): the chart is of GPUs.
        if number(job["start"]) is None or not job["placement"] or job.get("type") == "cpu":
            continue
        placed.append((float(job["start"]), index, job))
    placed.sort(key=lambda p: (p[0], p[1]))
    bars = []  # (gpu, start, end, job index, job, finished)
    shown = 0
    for start, index, job in placed:
        gpus = job["placement"].split(";")
        if len(bars) + len(gpus) > GANTT_MAX_BARS:
            break
        end = number(job["end"])
        finished = end is not None
        end = end if finished else max(run.end, start)
        bars.extend((gpu, start, end, index, job, finished) for gpu in gpus)
        shown += 1
    return bars, shown, len(placed)


def gantt_figure(run, unit):
    name, seconds = unit
    bars, shown, placed = gantt_bars(run)
    rows = sorted({b[0] for b in bars}, key=gpu_sort_key)
    fig = go.Figure(go.Bar(
        orientation="h",
        y=[b[0] for b in bars],
        base=[b[1] / seconds for b in bars],
        x=[(b[2] - b[1]) / seconds for b in bars],
        marker={"color": [JOB_COLOURS[b[3] % len(JOB_COLOURS)] for b in bars],
                "line": {"color": "black", "width": 0.3},
                "pattern": {"shape": ["" if b[5] else "/" for b in bars]}},
        customdata=[[b[4]["id"], b[4]["gpus"], b[4]["gpu_share"] or "1", f"{b[1]:.6g}",
                     f"{b[2]:.6g}" + ("" if b[5] else " (not finished)"), b[0]] for b in bars],
        hovertemplate=("job %{customdata[0]}<br>GPUs %{customdata[1]} (share %{customdata[2]})<br>"
                       "start %{customdata[3]} s<br>end %{customdata[4]} s<br>on %{customdata[5]}<extra></extra>"),
        showlegend=False))
    note = f"{shown} of {placed} jobs" if shown < placed else f"all {placed} jobs"
    if not all(b[5] for b in bars):
        note += "; hatched: not finished"
    fig.update_layout(
        title=f"{run.policy}: jobs on GPUs ({note})", barmode="overlay",
        xaxis_title=f"simulated time ({name})", yaxis_title="GPU (node:gpu)",
        yaxis={"categoryorder": "array", "categoryarray": rows, "autorange": "reversed",
               "showticklabels": len(rows) <= 128, "tickfont": {"size": 9}},
        height=int(min(1600, max(320, 14 * len(rows) + 140))))
    return fig, shown, placed


def markdown_to_html(text):
    """comparison.md's tables and notes: '|' lines become tables, other lines paragraphs."""
    out, table, paragraph = [], [], []

    def cells(line):
        return [c.strip() for c in line.strip().strip("|").split("|")]

    def flush():
        if table:
            header, *body = [row for row in table if not re.fullmatch(r"\|?[\s:|-]+\|?", row)]
            out.append("<div class=\"table\"><table><thead><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in cells(header))
                       + "</tr></thead><tbody>")
            for row in body:
                out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells(row)) + "</tr>")
            out.append("</tbody></table></div>")
            table.clear()
        if paragraph:
            out.append("<p>" + html.escape(" ".join(paragraph)) + "</p>")
            paragraph.clear()

    for line in text.splitlines():
        if line.startswith("|"):
            if paragraph:
                flush()
            table.append(line)
        elif line.strip():
            if table:
                flush()
            paragraph.append(line.strip())
        else:
            flush()
    flush()
    return "\n".join(out)


STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
div.table { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
p.note { color: #555; font-size: 0.9em; }
"""


def page(runs, directory, unit):
    figures = [cdf_figure(runs, lambda r: r.jct, "Job completion time", "JCT", unit),
               cdf_figure(runs, lambda r: r.wait, "Queueing delay", "queueing delay", unit),
               utilization_figure(runs, unit)]
    powered = any(r.power is not None for r in runs)
    if powered:
        figures.append(power_figure(runs, unit))
    gantt_notes = []
    for r in runs:
        fig, shown, placed = gantt_figure(r, unit)
        figures.append(fig)
        if shown < placed:
            gantt_notes.append(f"{html.escape(r.policy)}: the first {shown} of the {placed} jobs that held GPUs, "
                               "in order of their first start")
    with open(os.path.join(directory, "comparison.md")) as f:
        tables = markdown_to_html(f.read())
    cluster = runs[0].summary.get("cluster", "")
    policies = ", ".join(r.policy for r in runs)
    divs = [fig.to_html(full_html=False, include_plotlyjs=False, config={"responsive": True}) for fig in figures]
    caps = (f"Each Gantt chart holds at most {GANTT_MAX_BARS} bars (one per job and GPU)"
            + (": " + "; ".join(gantt_notes) if gantt_notes else "; every job is shown")
            + f". CDFs show at most {CDF_MAX_POINTS} points (evenly spaced ranks); allocation curves of more than "
            f"{2 * UTILIZATION_SPANS} changes show the least and the most allocation in each of "
            f"{UTILIZATION_SPANS} equal spans of time.")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gcsim compare: {html.escape(policies)} on {html.escape(cluster)}</title>
<style>{STYLE}</style>
<script type="text/javascript">window.PlotlyConfig = {{MathJaxConfig: 'local'}};</script>
<script type="text/javascript">{get_plotlyjs()}</script>
</head>
<body>
<h1>gcsim compare: {html.escape(policies)} on {html.escape(cluster)}</h1>
<p class="note">{len(runs[0].jobs)} jobs; times in {unit[0]}. Drag to zoom, double-click to zoom out; hover a bar
for its job.</p>
<h2>Figures per policy</h2>
{tables}
<h2>Completion time and queueing delay</h2>
{divs[0]}
{divs[1]}
<h2>Allocation over time</h2>
{divs[2]}
{"<h2>Power over time</h2>" + divs[3] if powered else ""}
<h2>Schedules</h2>
<p class="note">{caps}</p>
{"".join(divs[4 if powered else 3:])}
</body>
</html>
"""


def write_atomically(path, text):
    """Stages `text` beside `path` under a temporary name, then renames it into place."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, staged = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(staged, 0o644)
        os.replace(staged, path)
    except BaseException:
        if os.path.exists(staged):
            os.unlink(staged)
        raise


def main(argv):
    arguments = runs_of_arguments(argv, __doc__, "report_comparison.py")
    if isinstance(arguments, int):
        return arguments
    directory, runs, unit = arguments
    path = os.path.join(directory, "report.html")
    write_atomically(path, page(runs, directory, unit))
    print(f"  report      {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
