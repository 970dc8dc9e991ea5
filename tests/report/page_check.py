"""Opens an HTML page in headless Chromium and says what went wrong in it and what it drew.

A copy of the page gets, first thing in its <head>, a script that records
every uncaught error, unhandled promise rejection and console.error call in
the attribute data-page-errors of <html> (and sets data-page-hook, so a check
knows the recorder ran). Chromium loads the copy with a virtual time budget
(scripts run, timers fire, then the DOM is dumped: --dump-dom) and logs the
page's console to stderr (--enable-logging=stderr), where "Uncaught" lines
are a second net for errors the recorder could not see. The dumped DOM is
counted: plotly's .plot-container and svg.main-svg elements, and the traces
drawn (g.trace).

    check = open_page("out/report.html")
    assert check.errors == [] and check.plot_containers == 5
"""

from __future__ import annotations

import dataclasses
import html.parser
import json
import os
import re
import shutil
import subprocess
import tempfile

RECORDER = """<script>(function () {
  var root = document.documentElement, seen = [];
  function note(text) { seen.push(String(text)); root.setAttribute("data-page-errors", JSON.stringify(seen)); }
  root.setAttribute("data-page-hook", "1");
  root.setAttribute("data-page-errors", "[]");
  window.addEventListener("error", function (e) {
    note("error: " + (e.message || (e.target && e.target.outerHTML) || e) + " at " + (e.filename || "") + ":" + (e.lineno || ""));
  }, true);
  window.addEventListener("unhandledrejection", function (e) { note("unhandled rejection: " + (e.reason && e.reason.stack || e.reason)); });
  var original = console.error;
  console.error = function () { note("console.error: " + Array.prototype.join.call(arguments, " ")); return original.apply(console, arguments); };
})();</script>"""


def chromium() -> str | None:
    """The Chromium executable ($GCSIM_CHROMIUM, else chromium on PATH), or None when there is none."""
    if "GCSIM_CHROMIUM" in os.environ:
        return shutil.which(os.environ["GCSIM_CHROMIUM"])
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclasses.dataclass
class PageCheck:
    errors: list[str]  # recorded errors, then "Uncaught" console lines the recorder missed
    recorder_ran: bool
    plot_containers: int
    main_svgs: int
    traces: int  # g.trace elements: one per trace drawn (a bar trace, a line)
    dom: str


class _Counter(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root_attrs: dict[str, str] = {}
        self.plot_containers = self.main_svgs = self.traces = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "html" and not self.root_attrs:
            self.root_attrs = {k: v or "" for k, v in attrs.items()}
        if "plot-container" in classes:
            self.plot_containers += 1
        if tag == "svg" and "main-svg" in classes:
            self.main_svgs += 1
        if tag == "g" and "trace" in classes:
            self.traces += 1


def _with_recorder(text: str) -> str:
    match = re.search(r"<head[^>]*>", text, re.IGNORECASE)
    if match:
        return text[:match.end()] + RECORDER + text[match.end():]
    return RECORDER + text


def open_page(path: str, *, budget_ms: int = 20000, timeout_s: float = 120) -> PageCheck:
    """Loads the page at `path` in headless Chromium; raises RuntimeError when Chromium fails."""
    browser = chromium()
    if browser is None:
        raise RuntimeError("chromium not found")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "page.html")
        with open(copy, "w", encoding="utf-8") as f:
            f.write(_with_recorder(text))
        done = subprocess.run(
            [browser, "--headless=new", "--disable-gpu", "--no-sandbox", "--no-first-run", "--mute-audio",
             f"--user-data-dir={os.path.join(scratch, 'profile')}", "--enable-logging=stderr", "--v=0",
             f"--virtual-time-budget={budget_ms}", "--window-size=1280,1024", "--dump-dom", "file://" + copy],
            capture_output=True, text=True, timeout=timeout_s)
    if done.returncode != 0 or "<html" not in done.stdout:
        raise RuntimeError(f"chromium failed (exit status {done.returncode}):\n{done.stderr[-4000:]}")
    counter = _Counter()
    counter.feed(done.stdout)
    recorded = json.loads(counter.root_attrs.get("data-page-errors", "[]") or "[]")
    # Console lines: [pid:tid:date:INFO:CONSOLE(line)] "message", source: URL (line)
    uncaught = [m.group(1) for m in re.finditer(r':CONSOLE[^\]]*\] "(Uncaught[^"]*)"', done.stderr)]
    missed = [u for u in uncaught if not any(u.replace("Uncaught ", "") in r for r in recorded)]
    return PageCheck(errors=recorded + missed, recorder_ran=counter.root_attrs.get("data-page-hook") == "1",
                     plot_containers=counter.plot_containers, main_svgs=counter.main_svgs, traces=counter.traces,
                     dom=done.stdout)
