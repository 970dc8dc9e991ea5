"""`gcsim compare --html`'s page: drawn in a browser without an error, every
chart there, and a big run's charts capped; and the checker that says so
shown to catch a broken page."""

import json
import os
import re
import subprocess
import sys

import pytest

import page_check
from conftest import SOURCE_DIR

def write_compare_dir(directory, policy, jobs, timeline, gpus):
    """A `gcsim compare` output folder of one policy, as the report script reads
    it: jobs are (id, gpus, start, end, placement) of finished jobs submitted at 0."""
    run = directory / "runs" / policy
    run.mkdir(parents=True)
    makespan = max(end for _, _, _, end, _ in jobs)
    (run / "summary.json").write_text(json.dumps({"cluster": "crafted", "policy": policy, "gpus": gpus,
                                                  "makespan_s": makespan}))
    lines = ["id,user,queue,gpus,submit,start,end,wait,jct,state,preemptions,uncontended,placement,gpu_share,type"]
    for job_id, count, start, end, placement in jobs:
        lines.append(f"{job_id},u,q,{count},0,{start},{end},{start},{end},finished,0,{end - start},{placement},1,measured")
    (run / "jobs.csv").write_text("\n".join(lines) + "\n")
    (run / "timeline.csv").write_text("time,allocated_gpus,busy_gpus,queued_jobs\n"
                                      + "".join(f"{t},{a},{a},0\n" for t, a in timeline))
    (directory / "comparison.csv").write_text(f"policy,jobs\n{policy},{len(jobs)}\n")
    (directory / "comparison.md").write_text(f"| policy | finished |\n|---|---:|\n| {policy} | {len(jobs)}/{len(jobs)} |\n")


def big_run(directory, jobs=100_000, gpus=64):
    """`jobs` one-GPU jobs of 10 s, 64 at a time: job i on GPU i % 64 from 10 * (i // 64)."""
    listed = [(f"j{i}", 1, 10.0 * (i // gpus), 10.0 * (i // gpus) + 10.0, f"n{(i % gpus) // 8}:{i % 8}")
              for i in range(jobs)]
    # The allocation drops to 63 GPUs for a second in every step of ten.
    timeline = [(10.0 * k + dt, a) for k in range(jobs // gpus + 1) for dt, a in ((0, gpus), (5, gpus - 1), (6, gpus))]
    write_compare_dir(directory, "fifo", listed, timeline, gpus)


# ---- the charts' caps, counted by hand ----------------------------------------------------------


def test_a_cdf_keeps_every_rank_up_to_the_cap_then_evenly_spaced_ranks_with_both_ends(report_script):
    xs, ys = report_script.cdf_points([1.0, 2.0, 3.0, 4.0])
    assert (xs, ys) == ([1.0, 2.0, 3.0, 4.0], [0.25, 0.5, 0.75, 1.0])
    values = [float(v) for v in range(100_000)]
    xs, ys = report_script.cdf_points(values)
    assert len(xs) == report_script.CDF_MAX_POINTS == 2000
    assert (xs[0], ys[0]) == (0.0, 1e-5) and (xs[-1], ys[-1]) == (99_999.0, 1.0)
    assert all(b > a for a, b in zip(xs, xs[1:]))


def test_an_allocation_curve_past_the_cap_keeps_each_spans_least_and_most(report_script):
    short = [(0.0, 1.0), (1.0, 3.0)]
    assert report_script.step_points(short, 2.0) == [(0.0, 1.0), (1.0, 3.0), (2.0, 3.0)]
    # 10,000 s of one-second steps alternating 10 and 20 GPUs, one dip to 0 at 4321 s.
    points = [(float(t), 0.0 if t == 4321 else (10.0 if t % 2 else 20.0)) for t in range(10_000)]
    kept = report_script.step_points(points, 10_000.0)
    assert len(kept) <= 2 * report_script.UTILIZATION_SPANS + 1
    assert (4321.0, 0.0) in kept, "the dip is kept"
    assert max(a for _, a in kept) == 20.0
    assert kept[-1] == (10_000.0, 10.0), "the curve reaches the run's end"
    assert [t for t, _ in kept] == sorted(t for t, _ in kept)


def test_a_gantt_chart_holds_whole_jobs_in_order_of_start_up_to_the_bar_cap(report_script, tmp_path):
    # 3,000 two-GPU jobs, started in reverse order of their rows: 2,500 fit in 5,000 bars.
    jobs = [(f"j{i}", 2, float(3000 - i), float(3001 - i), "a:0;a:1") for i in range(3000)]
    write_compare_dir(tmp_path, "fifo", jobs, [(0.0, 2.0)], 2)
    import comparison_runs  # beside the report script, which puts its folder on the path
    run = comparison_runs.Run(str(tmp_path), "fifo")
    bars, shown, placed = report_script.gantt_bars(run)
    assert (len(bars), shown, placed) == (5000, 2500, 3000)
    assert bars[0][4]["id"] == "j2999" and bars[-1][4]["id"] == "j500"


def test_a_big_run_makes_a_page_of_bounded_size_that_says_what_it_left_out(report_script, tmp_path):
    big_run(tmp_path)
    done = subprocess.run([sys.executable, str(SOURCE_DIR / "scripts/report_comparison.py"), str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "report.html").read_text()
    assert "the first 5000 of the 100000 jobs that held GPUs" in page
    # plotly.js (8.7 MB) and at most 5000 bars, 2 x 2000 CDF points and 4001 allocation points.
    assert len(page) < 12_000_000
    assert sorted(os.listdir(tmp_path)) == ["comparison.csv", "comparison.md", "report.html", "runs"]


# ---- the page in a browser ---------------------------------------------------------------------


def compare_page_of_default_scenario(gcsim_executable, out, policies, *more):
    """`gcsim compare --html` of `policies` on the bundled default scenario into `out`."""
    subprocess.run([gcsim_executable, "compare", "--policies", policies, "--cluster",
                    str(SOURCE_DIR / "scenarios/clusters/rack-32gpu.json"), "--workload",
                    str(SOURCE_DIR / "scenarios/workloads/default.json"), "--out", str(out), "--quiet", "--plots",
                    "no", "--html", *more], check=True)


@pytest.mark.browser
@pytest.mark.usefixtures("browser")
def test_the_compare_page_draws_every_chart_without_an_error(gcsim_executable, tmp_path):
    out = tmp_path / "cmp"
    compare_page_of_default_scenario(gcsim_executable, out, "fifo,srtf,tiresias")
    check = page_check.open_page(str(out / "report.html"))
    assert check.recorder_ran
    assert check.errors == []
    # Two CDFs and the allocation (a line per policy each), a Gantt chart per policy (one bar trace each).
    assert check.plot_containers == 3 + 3
    assert check.traces == 3 * 3 + 3
    assert check.main_svgs >= check.plot_containers
    # Hovering is drawn from the bars: every job of the 40 is one of fifo's bars' ids.
    assert len(re.findall(r'class="point"', check.dom)) > 40


@pytest.mark.browser
@pytest.mark.usefixtures("browser")
def test_a_compare_with_energy_draws_the_power_of_every_policy(gcsim_executable, tmp_path):
    out = tmp_path / "cmp"
    compare_page_of_default_scenario(gcsim_executable, out, "fifo,srtf", "--energy")
    page = (out / "report.html").read_text()
    assert "Power over time" in page
    check = page_check.open_page(str(out / "report.html"))
    assert check.errors == []
    # The CDFs, the allocation and the power (a line per policy each), and a Gantt chart per policy.
    assert check.plot_containers == 4 + 2
    assert check.traces == 4 * 2 + 2
    for policy in ("fifo", "srtf"):
        peak = json.loads((out / "runs" / policy / "summary.json").read_text())["energy"]["peak_kw"]
        assert f"{policy} (peak {peak:.4g} kW)" in page


@pytest.mark.browser
@pytest.mark.usefixtures("browser")
def test_a_big_runs_page_opens_and_draws_its_capped_charts(report_script, tmp_path):
    big_run(tmp_path)
    assert report_script.main(["report_comparison.py", str(tmp_path)]) == 0
    check = page_check.open_page(str(tmp_path / "report.html"))
    assert check.errors == []
    assert (check.plot_containers, check.traces) == (4, 4)
    # One bar path per bar drawn: the cap.
    assert len(re.findall(r'class="point"', check.dom)) == 5000


# ---- the checker catches a broken page ---------------------------------------------------------

BROKEN_PAGES = {
    "a script error": "<script>drawEverything();</script>",
    "console.error": "<script>console.error('figure data missing');</script>",
    "a rejected promise": "<script>Promise.reject(new Error('no data'));</script>",
    "a syntax error": "<script>var x = ;</script>",
}


@pytest.mark.browser
@pytest.mark.usefixtures("browser")
@pytest.mark.parametrize("what", sorted(BROKEN_PAGES))
def test_the_checker_reports_a_broken_page(what, tmp_path):
    page = tmp_path / "broken.html"
    page.write_text(f"<!DOCTYPE html><html><head><title>t</title></head><body><p>x</p>{BROKEN_PAGES[what]}</body></html>")
    check = page_check.open_page(str(page))
    assert check.recorder_ran
    assert len(check.errors) >= 1, what


@pytest.mark.browser
@pytest.mark.usefixtures("browser")
def test_the_checker_finds_no_error_in_a_clean_page_and_counts_no_chart(tmp_path):
    page = tmp_path / "clean.html"
    page.write_text("<!DOCTYPE html><html><head></head><body><script>console.log('fine');</script></body></html>")
    check = page_check.open_page(str(page))
    assert check.recorder_ran and check.errors == []
    assert (check.plot_containers, check.main_svgs, check.traces) == (0, 0, 0)


@pytest.mark.browser
@pytest.mark.usefixtures("browser")
def test_the_checker_sees_a_report_without_plotly_draw_nothing_and_fail(report_script, tmp_path):
    write_compare_dir(tmp_path, "fifo", [("a", 1, 0.0, 10.0, "n:0")], [(0.0, 1.0)], 1)
    assert report_script.main(["report_comparison.py", str(tmp_path)]) == 0
    page = (tmp_path / "report.html").read_text()
    start = page.index("<script type=\"text/javascript\">/**")
    end = page.index("</script>", start)
    (tmp_path / "report.html").write_text(page[:start] + page[end + len("</script>"):])
    check = page_check.open_page(str(tmp_path / "report.html"))
    assert any("Plotly is not defined" in e for e in check.errors), check.errors
    assert check.plot_containers == 0
