"""Lessons and tutorials served from build/site, driven like a learner would: click every block's Run
button in order, read the output under it, then Check the exercise with its starting code (fail)
and with the page's own reference solution (pass). Pages run a few at a time in one Chromium.

Nothing may leave 127.0.0.1; no output may hold a traceback; a few outputs per page are checked.
"""
from __future__ import annotations

import re
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from borch_webgpu._server import Site, serve
from borch_webgpu.run import CHROMIUM_FLAGS, chromium_path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "build" / "site"
PAGES = [f"{d}/{p.stem}" for d in ("lessons", "tutorials") for p in sorted((ROOT / "web" / d).glob("[0-9]*.md"))]
PARALLEL = 2            # pages driven at once (each has its own worker, Pyodide and GPU device)
BLOCK_TIMEOUT_S = 240   # one block, on a slow software renderer with other pages running beside it
SCREENSHOT = "lessons/03-autograd"

# A few outputs per page that show the code did what the prose says: {page: {block number: [regex, ...]}}
EXPECT: dict[str, dict[int, list[str]]] = {
    "lessons/01-tensors": {1: [r"shape: torch\.Size\(\[2, 3\]\)", r"dtype: torch\.float32", r"device: (webgpu:0|cpu)"],
                           5: [r"column 1:\s+tensor\(\[1, 5, 9\]\)"], 8: [r"\[0\., 5\., 0\.\]"]},
}


def _hosts(urls):
    return {urlparse(u).hostname for u in urls if not u.startswith(("data:", "blob:"))}


@pytest.fixture(scope="module")
def lesson_browser(playwright):
    if not (SITE / "lessons" / "index.html").exists():
        pytest.fail("build/site/lessons is missing: scripts/test.sh builds the site (python scripts/build_site.py)")
    httpd = serve(Site(root=SITE))
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS, headless=True)
    yield browser, base
    browser.close()
    httpd.shutdown()


class Driver:
    """One lesson page in its own tab, advanced one step at a time so that several pages can run at once:
    each step clicks a button and later reads what appeared."""

    def __init__(self, browser, base: str, name: str):
        self.name = name
        self.page = browser.new_page(viewport={"width": 1100, "height": 900})
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # the server's Content-Security-Policy refusing something the page does is an error too
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" and "Content Security Policy" in m.text else None)
        self.page.goto(base + name + ".html")
        self.t0 = time.perf_counter()
        self.data = self.page.evaluate("JSON.parse(document.getElementById('lesson-data').textContent)")
        self.cells = self.page.locator(".cell")
        self.kinds = [self.cells.nth(i).get_attribute("data-kind") for i in range(self.cells.count())]
        self.steps = self._steps()
        self.waiting = None     # (what, deadline, callback)
        self.outputs: dict[int, str] = {}
        self.block_s: dict[int, float] = {}
        self.failures: list[str] = []
        self.checks: list[tuple[str, str]] = []
        self.done = False
        self.seconds = 0.0

    def _steps(self):
        yield lambda: self.page.evaluate("window.borchLesson && (window.borchLesson.ready || !!window.borchLesson.error)")
        if self.page.evaluate("window.borchLesson.error"):
            raise RuntimeError(f"Python did not start: {self.page.evaluate('window.borchLesson.error')}")
        for i, kind in enumerate(self.kinds):
            if kind == "run":
                yield from self._run_block(i)
        for i, kind in enumerate(self.kinds):
            if kind == "exercise":
                yield from self._exercise(i)

    def _state(self, i):
        return self.cells.nth(i).get_attribute("data-state")

    def _run_block(self, i):
        cell = self.cells.nth(i)
        start = time.perf_counter()
        cell.locator("button.run").click()
        yield lambda: self._state(i) in ("ok", "error", "blocked")
        self.block_s[i + 1] = time.perf_counter() - start
        out = cell.locator("pre.out").inner_text()
        self.outputs[i + 1] = out
        if self._state(i) != "ok" or "Traceback" in out:
            self.failures.append(f"{self.name} block [{i + 1}] ({self._state(i)}):\n{out[-3000:]}")

    def _check(self, i, label):
        cell = self.cells.nth(i)
        cell.locator("button.check").click()
        yield lambda: cell.locator(".check-result").get_attribute("data-result") in ("pass", "fail") and \
            self._state(i) in ("ok", "error", "blocked")
        result = cell.locator(".check-result").get_attribute("data-result")
        self.checks.append((label, result, cell.locator(".check-result").inner_text()))

    def _exercise(self, i):
        cell = self.cells.nth(i)
        n = str(i + 1)
        # the starting code is a wrong answer: Check must say so, helpfully
        yield from self._check(i, "starter")
        cell.locator("textarea").fill(self.data["exercises"][n]["solution"])
        yield from self._check(i, "solution")

    def advance(self) -> bool:
        """Do what can be done now; True when the page is finished."""
        if self.done:
            return True
        try:
            if self.waiting is not None:
                ready, deadline = self.waiting
                if not ready():
                    if time.perf_counter() > deadline:
                        raise TimeoutError(f"{self.name}: a block ran for more than {BLOCK_TIMEOUT_S} s")
                    return False
            self.waiting = (next(self.steps), time.perf_counter() + BLOCK_TIMEOUT_S)
            return False
        except StopIteration:
            self.finish()
        except Exception as e:  # noqa: BLE001 - reported with the page's name
            self.failures.append(f"{self.name}: {type(e).__name__}: {e}")
            self.finish()
        return True

    def finish(self):
        self.done = True
        self.seconds = time.perf_counter() - self.t0


def drive(browser, base: str, names: list[str], parallel: int = PARALLEL) -> list[Driver]:
    todo, active, finished = list(names), [], []
    while todo or active:
        while todo and len(active) < parallel:
            active.append(Driver(browser, base, todo.pop(0)))
        for d in list(active):
            if d.advance():
                active.remove(d)
                finished.append(d)
        time.sleep(0.05)
    return finished


def test_lesson_and_tutorial_pages_run_and_check(lesson_browser, artifacts, summary_line):
    browser, base = lesson_browser
    assert len([p for p in PAGES if p.startswith("lessons/")]) >= 8
    assert len([p for p in PAGES if p.startswith("tutorials/")]) >= 3
    drivers = drive(browser, base, PAGES)
    problems = []
    for d in sorted(drivers, key=lambda d: PAGES.index(d.name)):
        problems += d.failures
        problems += [f"{d.name}: page error {e}" for e in d.errors]
        hosts = _hosts(d.requests)
        if hosts != {"127.0.0.1"}:
            problems.append(f"{d.name}: requests left 127.0.0.1: {sorted(hosts)}")
        for n, patterns in EXPECT.get(d.name, {}).items():
            for pat in patterns:
                if not re.search(pat, d.outputs.get(n, "")):
                    problems.append(f"{d.name} block [{n}]: expected /{pat}/ in its output:\n{d.outputs.get(n)}")
        want_ex = 1 if d.name.startswith("lessons/") else 0
        if d.name.startswith("lessons/") and len(d.checks) != 2 * want_ex:
            problems.append(f"{d.name}: expected one exercise (Check with the starter and with the solution), got "
                            f"{d.checks}")
        for label, result, text in d.checks:
            want = "fail" if label == "starter" else "pass"
            if result != want:
                problems.append(f"{d.name}: Check with the {label} code said {result}, expected {want}: {text}")
            if label == "starter" and len(text.strip()) < 25:
                problems.append(f"{d.name}: Check's message for a wrong answer should help; it said {text!r}")
        slowest = max(d.block_s.items(), key=lambda kv: kv[1], default=(0, 0.0))
        summary_line(f"{d.name}: {len(d.block_s)} blocks + exercise in {d.seconds:.0f} s "
                     f"(slowest block [{slowest[0]}] {slowest[1]:.0f} s)")
        if d.name == SCREENSHOT:
            d.page.screenshot(path=str(artifacts / f"lesson-{d.name.split('/')[1][:2].lstrip('0')}.png"),
                              full_page=True)
        d.page.close()
    assert not problems, "\n\n".join(problems)


def test_index_pages_link_every_page(lesson_browser):
    browser, base = lesson_browser
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    for section in ("lessons", "tutorials"):
        page.goto(base + section + "/")
        hrefs = page.eval_on_selector_all("ol.lesson-list a", "els => els.map(e => e.getAttribute('href'))")
        want = [p.split("/")[1] + ".html" for p in PAGES if p.startswith(section + "/")]
        assert hrefs == want, (section, hrefs)
    # prev/next links walk the lessons in order
    page.goto(base + PAGES[0] + ".html")
    seen = [PAGES[0]]
    while True:
        nxt = page.locator(".pager a.next")
        href = nxt.get_attribute("href")
        if not href.endswith(".html"):
            break
        nxt.click()
        page.wait_for_load_state()
        seen.append(urlparse(page.url).path.strip("/").removesuffix(".html"))
    assert seen == [p for p in PAGES if p.startswith("lessons/")], seen
    page.close()
    assert _hosts(requests) == {"127.0.0.1"}, requests


def test_a_lesson_page_shows_boot_progress(lesson_browser, text_log):
    """While Python boots, the runtime bar names the download in progress and its bytes."""
    browser, base = lesson_browser
    page = browser.new_page()
    text_log(page, ["#rt-status"])
    page.goto(base + PAGES[0] + ".html")
    page.wait_for_function("() => window.borchLesson && (window.borchLesson.ready || !!window.borchLesson.error)",
                           timeout=180_000)
    assert page.evaluate("window.borchLesson.ready"), page.evaluate("window.borchLesson.error")
    texts = [e["text"] for e in text_log.read(page, "#rt-status")]
    assert any(re.match(r"Starting Python: Python \d+\.\d of \d+\.\d MB", t) for t in texts), texts
    assert any(t.startswith("Starting Python: probing WebGPU") for t in texts), texts
    assert page.inner_text("#rt-status").startswith("Ready in ")
    stages = page.evaluate("window.borchLesson.progressLog.filter((e) => e.done).map((e) => e.stage)")
    assert list(dict.fromkeys(stages)) == ["python", "numpy", "borch_webgpu", "device"]
    page.close()


def test_a_cells_live_plot_marks_nan_and_inf_losses(lesson_browser):
    """borch_webgpu.log in a lesson cell draws the playground's plot (web/js/plot.mjs) under the cell: a NaN
    or infinite loss is marked at its step and counted, not dropped."""
    browser, base = lesson_browser
    page = browser.new_page()
    page.goto(base + PAGES[0] + ".html")
    page.wait_for_function("() => window.borchLesson && (window.borchLesson.ready || !!window.borchLesson.error)",
                           timeout=180_000)
    page.locator(".cell").nth(0).locator("textarea").fill(
        "import borch_webgpu as torch\n"
        "for v in [1.0, 0.5, float('nan'), 0.25, float('inf'), -float('inf'), 0.1]:\n"
        "    torch.log('loss', v)\n")
    assert page.evaluate("window.borchLesson.runCell(0)") is True
    chart = page.locator(".cell").nth(0).locator(".chart")
    page.wait_for_function("(el) => el.dataset.points === '7'", arg=chart.element_handle(), timeout=10_000)
    assert chart.get_attribute("data-nonfinite") == "3"
    assert chart.locator("canvas").bounding_box()["height"] > 100
    marks = page.evaluate("window.borchLesson.plotOf(0).marks")
    assert [(m["step"], m["kind"]) for m in marks] == [(2, "NaN"), (4, "inf"), (5, "-inf")], marks
    assert marks[0]["y"] == marks[1]["y"] < marks[2]["y"]     # NaN and +inf on the top edge, -inf at the bottom
    page.close()
