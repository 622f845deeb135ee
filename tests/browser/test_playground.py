"""The playground (web/playground/) on the built site, driven like a person would: pick an example,
press Run, read the output pane, watch the plot and the GPU instruments, press Stop, save the plot,
reload. Served by borch_webgpu._server (COOP/COEP) from build/site, which scripts/test.sh builds
(``BORCH_SITE_DIR`` points at another build)."""
from __future__ import annotations

import base64
import os
import re
import struct
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from borch_webgpu._server import Site, serve
from borch_webgpu.run import CHROMIUM_FLAGS, chromium_path

SITE = Path(os.environ.get("BORCH_SITE_DIR") or Path(__file__).resolve().parents[2] / "build" / "site")
EXAMPLES = ["tensors", "autograd", "linear_regression", "mlp", "cnn"]
# what each example prints last when it ran to the end
LAST_LINE = {"tensors": "done", "autograd": "final loss", "linear_regression": "learned: w =",
             "mlp": "done: 120 steps", "cnn": "done: 100 steps"}
EXAMPLE_BUDGET_S = 60        # on SwiftShader (a CPU), in CI


class Playground:
    def __init__(self, page, base: str):
        self.page = page
        self.base = base

    def state(self, key: str):
        return self.page.evaluate(f"window.borchPlayground.{key}")

    def wait_ready(self, timeout_s: float = 180):
        self.page.wait_for_function("() => window.borchPlayground && window.borchPlayground.ready === true",
                                    timeout=timeout_s * 1000)

    def set_code(self, code: str):
        self.page.evaluate("c => window.borchPlayground.editor.setCode(c)", code)

    def run_and_wait(self, timeout_s: float = 180) -> dict:
        """Press the real Run button; wait until the run ends; return window.borchPlayground.lastRun."""
        runs = self.state("runs")
        assert self.page.inner_text("#run").strip().endswith("Run")
        self.page.click("#run")
        self.page.wait_for_function("n => window.borchPlayground.runs > n && !window.borchPlayground.running",
                                    arg=runs, timeout=timeout_s * 1000)
        return self.state("lastRun")

    def output(self) -> str:
        return self.page.inner_text("#output")

    def main_thread_delay_ms(self) -> float:
        """How long a task queued on the page's main thread waits before it runs (a frozen page: long)."""
        return self.page.evaluate("""() => new Promise((resolve) => {
            const t0 = performance.now(); setTimeout(() => resolve(performance.now() - t0), 0); })""")


@pytest.fixture(scope="module")
def pg(playwright):
    if not (SITE / "playground" / "editor.js").exists():
        pytest.fail(f"{SITE} has no playground/editor.js: scripts/test.sh builds the site "
                    "(python scripts/build_site.py)")
    site = Site(root=SITE)
    httpd = serve(site)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS, headless=True)
    context = browser.new_context(viewport={"width": 1400, "height": 950}, accept_downloads=True)
    page = context.new_page()
    p = Playground(page, base)
    p.requests, p.errors, p.context, p.site = [], [], context, site
    context.on("request", lambda r: p.requests.append(r.url))
    page.on("pageerror", lambda e: p.errors.append(str(e)))
    # the server's Content-Security-Policy refusing something the page does is an error too
    page.on("console", lambda m: p.errors.append(m.text)
            if m.type == "error" and "Content Security Policy" in m.text else None)
    page.goto(base + "playground/")
    p.wait_ready()
    yield p
    browser.close()
    httpd.shutdown()


def test_page_boots_with_the_bundled_editor(pg):
    page = pg.page
    assert not pg.errors, pg.errors
    assert page.evaluate("crossOriginIsolated"), "the server must send COOP/COEP (Stop needs SharedArrayBuffer)"
    # CodeMirror from our own bundle, with Python highlighting
    assert page.locator("#editor .cm-editor .cm-content").count() == 1
    # the editor sits in #editor's shadow root (its styles are a constructed sheet: the CSP allows no <style>)
    assert page.evaluate("document.querySelector('#editor').shadowRoot.querySelector('.cm-content')"
                         ".dataset.language") == "python"
    assert page.evaluate("getComputedStyle(document.querySelector('#editor').shadowRoot"
                         ".querySelector('.cm-gutters')).backgroundColor") == "rgb(248, 250, 252)", "the editor is unstyled"
    assert any(u.endswith("/playground/editor.js") for u in pg.requests)
    highlighted = page.evaluate("""() => [...document.querySelector('#editor').shadowRoot.querySelectorAll('.cm-line span')]
        .filter((s) => s.textContent === 'import').length""")
    assert highlighted >= 1, "the 'import' keyword is not highlighted"
    assert page.input_value("#examples") == "tensors"
    gpu = pg.state("gpu")
    assert gpu["available"], "the playground's tests need a WebGPU adapter (SwiftShader in CI)"
    badge = page.inner_text('#instruments [data-k="badge"]')
    assert page.inner_text('#instruments [data-k="adapter"]').strip() not in ("", "–")
    if gpu["adapter"]["is_software"]:
        assert badge == "software renderer"
        assert "SwiftShader" in page.inner_text('#instruments [data-k="warning"]')
        assert page.is_visible('#instruments [data-k="warning"]')
    else:
        assert badge == "GPU"


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_runs_to_completion(pg, name, artifacts, summary_line):
    page = pg.page
    page.select_option("#examples", name)
    code = pg.page.evaluate("window.borchPlayground.editor.getCode()")
    assert code == (SITE / "playground" / "examples" / f"{name}.py").read_text()
    assert "import borch_webgpu as torch" in code and "torch.log(" in code
    delays: list[float] = []
    runs = pg.state("runs")
    t0 = time.monotonic()
    page.click("#run")
    page.wait_for_function("() => window.borchPlayground.running", timeout=10_000)
    assert page.inner_text("#run").strip().endswith("Stop")
    # the page's main thread stays free while Python trains in the worker
    while pg.state("running") and time.monotonic() - t0 < 240:
        delays.append(pg.main_thread_delay_ms())
        time.sleep(0.5)
    page.wait_for_function("n => window.borchPlayground.runs > n && !window.borchPlayground.running",
                           arg=runs, timeout=240_000)
    run = pg.state("lastRun")
    out = pg.output()
    assert run["exitCode"] == 0, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert LAST_LINE[name] in out.strip().splitlines()[-1], out[-1000:]
    assert page.inner_text("#run").strip().endswith("Run")
    # data-points follows the plot on its next animation frame: the last point may have just arrived
    page.wait_for_function("() => document.getElementById('plot').dataset.points === "
                           "String(window.borchPlayground.plot.pointCount())", timeout=5_000)
    points = int(page.get_attribute("#plot", "data-points"))
    assert points >= 30, points
    steps = int(page.get_attribute("#instruments", "data-steps"))
    assert steps >= 30, steps
    facts = {k: page.inner_text(f'#instruments [data-k="{k}"]')
             for k in ("dispatches", "gputime", "wall", "pipelines", "memory", "peak")}
    gpu = pg.state("gpu")
    assert gpu["available"], "the playground's tests need a WebGPU adapter (SwiftShader in CI)"
    assert re.fullmatch(r"\d+(\.\d)?", facts["dispatches"]) and float(facts["dispatches"]) > 0, facts
    assert re.fullmatch(r"\d+(\.\d+)? ms", facts["wall"]) and float(facts["wall"].split()[0]) > 0, facts
    if "timestamp-query" in gpu["adapter"]["features"]:
        # a measured GPU time: a positive number of milliseconds, no more than the wall time per step
        # allows (the passes of a step run within it; 2x for the window's asynchronous read-back)
        assert re.fullmatch(r"\d+(\.\d+)? ms", facts["gputime"]), facts
        gpu_ms, wall_ms = float(facts["gputime"].split()[0]), float(facts["wall"].split()[0])
        assert 0 < gpu_ms <= 2 * wall_ms + 1, facts
    else:
        assert facts["gputime"].startswith("not available on this adapter"), facts
    m = re.fullmatch(r"(\d+) \((\d+) new in this run\)", facts["pipelines"])
    assert m and int(m.group(1)) > 0 and int(m.group(2)) <= int(m.group(1)), facts
    for k in ("memory", "peak"):
        assert re.fullmatch(r"\d+(\.\d+)? (B|KiB|MiB|GiB)", facts[k]), facts
    assert not facts["peak"].startswith("0 "), facts
    assert delays, "the run ended before the page's responsiveness was measured once"
    worst = max(delays)
    summary_line(f"playground example {name}: {run['seconds']:.1f} s in the page ({points} points plotted, "
                 f"{facts['dispatches']} dispatches/step, GPU {facts['gputime']}/step, wall {facts['wall']}/step; "
                 f"longest main-thread wait while it ran {worst:.0f} ms)")
    assert worst < 1000, f"the page froze for {worst:.0f} ms while Python ran"
    assert run["seconds"] < EXAMPLE_BUDGET_S, f"{name} took {run['seconds']:.1f} s (budget {EXAMPLE_BUDGET_S} s)"
    if name == "cnn":
        page.screenshot(path=str(artifacts / "playground-cnn.png"), full_page=True)


def test_plot_saves_as_png(pg):
    assert int(pg.page.get_attribute("#plot", "data-points")) > 0, "run an example first"
    assert int(pg.page.get_attribute("#plot", "data-series")) >= 2   # loss and test accuracy
    with pg.page.expect_download() as dl:
        pg.page.click("#save-png")
    data = Path(dl.value.path()).read_bytes()
    assert dl.value.suggested_filename.endswith(".png")
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:16]
    width, height = struct.unpack(">II", data[16:24])
    assert width >= 400 and height >= 300, (width, height)
    url = pg.state("lastPNG")
    assert url.startswith("data:image/png;base64,") and base64.b64decode(url.split(",", 1)[1]) == data


def test_traceback_shows_the_users_line(pg):
    pg.set_code("import borch_webgpu as torch\nx = torch.ones(3)\n\ny = x.view(4)\nprint(y)\n")
    run = pg.run_and_wait(60)
    assert run["exitCode"] == 1 and not run["stopped"]
    out = pg.output()
    assert "Traceback (most recent call last)" in out and 'File "main.py", line 4' in out, out
    link = pg.page.locator("#output a.lineref").last
    assert link.inner_text() == "line 4" and link.get_attribute("data-line") == "4"
    assert "RuntimeError" in pg.page.locator("#output .exc").last.inner_text()
    assert pg.page.locator("#editor .cm-error-line").inner_text() == "y = x.view(4)"
    assert "Failed" in pg.page.inner_text("#status")


def test_import_torch_note_once_per_run_and_the_setting_turns_it_off(pg):
    """`import torch` runs borch_webgpu with one note line per run (the worker keeps its modules between
    runs); Settings' checkbox turns it off for the next run (ModuleNotFoundError), and back on."""
    pg.set_code("import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader\nimport torchvision\n"
                "import torch\nprint(torch.__name__, nn.Linear(2, 1).weight.device.type)\n")
    for _ in range(2):
        assert pg.run_and_wait(60)["exitCode"] == 0
        out = pg.output()
        assert out.count("note: 'import torch' runs borch_webgpu") == 1 and "borch_webgpu webgpu" in out, out
        assert "Settings turns it off" in pg.page.locator("#output .note").last.inner_text()
    pg.page.click("#settings summary")
    pg.page.uncheck("#torch-alias")
    try:
        run = pg.run_and_wait(60)
        out = pg.output()
        assert run["exitCode"] == 1 and "note:" not in out, out
        assert "ModuleNotFoundError: No module named 'torch'" in out, out
    finally:
        pg.page.check("#torch-alias")
        pg.page.click("#settings summary")
    assert pg.run_and_wait(60)["exitCode"] == 0 and "note: 'import torch'" in pg.output()


def test_ctrl_enter_runs_and_stderr_streams(pg):
    """Ctrl+Enter in the editor runs the code (the Run button is not touched); stdout and stderr both
    arrive while the script is still running, stderr in its own style."""
    pg.set_code("import sys, time\nprint('to stdout', flush=True)\nprint('to stderr', file=sys.stderr, flush=True)\n"
                "time.sleep(3)\nprint('after the sleep')\n")
    runs = pg.state("runs")
    pg.page.click("#editor .cm-content")
    pg.page.keyboard.press("Control+Enter")
    pg.page.wait_for_function("n => window.borchPlayground.running || window.borchPlayground.runs > n",
                              arg=runs, timeout=10_000)
    pg.page.wait_for_function("""() => { const t = document.querySelector('#output').textContent;
        return t.includes('to stdout') && t.includes('to stderr'); }""", timeout=30_000)
    assert pg.state("running") and "after the sleep" not in pg.output(), "the output did not stream"
    pg.page.wait_for_function("n => window.borchPlayground.runs > n && !window.borchPlayground.running",
                              arg=runs, timeout=60_000)
    assert pg.state("lastRun")["exitCode"] == 0
    assert "after the sleep" in pg.output()
    assert any("to stderr" in t for t in pg.page.locator("#output .err").all_inner_texts())
    assert pg.page.evaluate("window.borchPlayground.editor.getCode()").endswith("print('after the sleep')\n"), \
        "Ctrl+Enter inserted a newline instead of running"


def test_stop_interrupts_an_endless_loop(pg):
    pg.set_code("import time\nprint('looping', flush=True)\nn = 0\nwhile True:\n    n += 1\n")
    runs = pg.state("runs")
    pg.page.click("#run")
    pg.page.wait_for_function("() => document.querySelector('#output').textContent.includes('looping')",
                              timeout=30_000)
    time.sleep(1.0)
    assert pg.state("running") and pg.page.inner_text("#run").strip().endswith("Stop")
    assert pg.main_thread_delay_ms() < 500, "the page is not responsive while Python loops"
    t0 = time.monotonic()
    pg.page.click("#run")   # now "Stop"
    pg.page.wait_for_function("n => window.borchPlayground.runs > n && !window.borchPlayground.running",
                              arg=runs, timeout=15_000)
    stopped_in = time.monotonic() - t0
    run = pg.state("lastRun")
    assert run["stopped"], run
    assert "KeyboardInterrupt" in pg.output()
    assert pg.state("restarts") == 0, "Stop should interrupt, not restart the worker"
    assert stopped_in < 3.0, stopped_in
    # Python is still the same process: a module imported before is still there
    pg.set_code("import sys\nprint('alive', 'borch_webgpu' in sys.modules)\n")
    assert pg.run_and_wait(60)["exitCode"] == 0
    assert "alive True" in pg.output()


def test_stop_restarts_a_script_that_ignores_the_interrupt(pg):
    pg.set_code("print('stubborn', flush=True)\nwhile True:\n    try:\n        while True:\n            pass\n"
                "    except KeyboardInterrupt:\n        pass\n")
    runs = pg.state("runs")
    pg.page.click("#run")
    pg.page.wait_for_function("() => document.querySelector('#output').textContent.includes('stubborn')",
                              timeout=30_000)
    pg.page.click("#run")
    pg.page.wait_for_function("n => window.borchPlayground.runs > n", arg=runs, timeout=15_000)
    assert pg.state("lastRun")["stopped"] and pg.state("restarts") == 1
    assert "restarting it" in pg.output()
    pg.wait_ready()
    pg.set_code("print('fresh worker')\n")
    assert pg.run_and_wait(60)["exitCode"] == 0
    assert "fresh worker" in pg.output()


def test_gpu_time_ms_accumulates(pg):
    """borch_webgpu.webgpu.enable_gpu_timing / gpu_time_ms (timestamp-query, read back asynchronously)."""
    pg.set_code("""import borch_webgpu as torch
w = torch.webgpu
if not w.enable_gpu_timing():
    print("timing: unsupported", w.gpu_time_ms())
else:
    t0 = w.gpu_time_ms()
    x = torch.randn(128, 128)
    y = (x @ x).sum().item()
    for _ in range(100):          # the timestamps arrive asynchronously
        w.synchronize()
        if w.gpu_time_ms() > t0:
            break
    t = w._rt.runtime().gpu_time()
    print("timing: measured", w.gpu_time_ms() > t0, y == y, f"ms={t['ms']!r} passes={t['passes']}")
""")
    assert pg.run_and_wait(60)["exitCode"] == 0, pg.output()
    gpu = pg.state("gpu")
    assert gpu["available"], "the playground's tests need a WebGPU adapter (SwiftShader in CI)"
    # the branch taken follows the browser's own adapter, not only what the worker reported
    has_ts = pg.page.evaluate("""async () => {
        const a = await navigator.gpu.requestAdapter();
        return !!a && a.features.has('timestamp-query'); }""")
    assert has_ts == ("timestamp-query" in gpu["adapter"]["features"]), (has_ts, gpu["adapter"])
    out = pg.output()
    if has_ts:
        m = re.search(r"timing: measured True True ms=([0-9.e+-]+) passes=(\d+)", out)
        assert m, out
        ms, passes = float(m.group(1)), int(m.group(2))
        assert passes >= 1 and 0 < ms < 60_000, (ms, passes)
    else:
        assert "timing: unsupported None" in out, out


def test_code_survives_reload_and_shared_link(pg):
    code = "# kept across reloads\nimport borch_webgpu as torch\nprint(torch.arange(3) * 7)\n"
    pg.set_code(code)
    pg.page.wait_for_function("c => window.borchPlayground.saved === c", arg=code, timeout=5_000)
    assert pg.page.evaluate("location.hash").startswith("#code=")
    assert pg.page.input_value("#examples") == ""
    url = pg.page.url
    pg.page.reload()
    pg.page.wait_for_function("() => window.borchPlayground && window.borchPlayground.editor", timeout=60_000)
    assert pg.page.evaluate("window.borchPlayground.editor.getCode()") == code
    # without the link, from localStorage
    pg.page.goto(pg.base + "playground/")
    pg.page.wait_for_function("() => window.borchPlayground && window.borchPlayground.editor", timeout=60_000)
    assert pg.page.evaluate("window.borchPlayground.editor.getCode()") == code
    # a shared link opens the same code in a browser that has never seen it (no localStorage)
    other = pg.context.browser.new_context()
    page2 = other.new_page()
    page2.on("request", lambda r: pg.requests.append(r.url))
    page2.goto(url)
    page2.wait_for_function("() => window.borchPlayground && window.borchPlayground.editor", timeout=60_000)
    assert page2.evaluate("window.borchPlayground.editor.getCode()") == code
    other.close()
    # and the reloaded page runs it
    pg.wait_ready()
    assert pg.run_and_wait(60)["exitCode"] == 0
    assert "tensor([ 0,  7, 14])" in pg.output()


def test_no_request_leaves_the_origin(pg):
    hosts = {urlparse(u).hostname for u in pg.requests if not u.startswith(("data:", "blob:"))}
    assert hosts == {"127.0.0.1"}, sorted(set(pg.requests))
    assert not pg.errors, pg.errors


def test_nan_and_inf_losses_are_marked_on_the_plot(pg):
    pg.set_code("import borch_webgpu as torch\n"
                "for v in [1.0, 0.5, float('nan'), 0.25, float('inf'), -float('inf'), 0.1]:\n"
                "    torch.log('loss', v)\n")
    assert pg.run_and_wait()["exitCode"] == 0
    pg.page.wait_for_function("() => document.getElementById('plot').dataset.points === '7'")
    assert pg.page.get_attribute("#plot", "data-nonfinite") == "3"
    marks = pg.page.evaluate("window.borchPlayground.plot.marks")
    assert [(m["step"], m["kind"]) for m in marks] == [(2, "NaN"), (4, "inf"), (5, "-inf")], marks
    top, bottom = marks[0]["y"], marks[2]["y"]
    assert top < bottom and marks[1]["y"] == top      # NaN and +inf on the top edge, -inf at the bottom


def test_boot_progress_and_the_cpu_switch(pg, text_log):
    """A second tab: the status line shows each download's bytes while Python boots; "no WebGPU adapter"
    appears nowhere before the WebGPU probe has finished; on SwiftShader the instruments say the cpu
    device is faster here and switch to it (tests/browser/test_site.py checks the reload cache)."""
    page = pg.context.new_page()
    text_log(page, ["#status", '#instruments [data-k="gputime"]', '#instruments [data-k="badge"]'])
    page.goto(pg.base + "playground/")
    page.wait_for_function("() => window.borchPlayground && window.borchPlayground.ready === true", timeout=180_000)
    log = page.evaluate("window.borchPlayground.progressLog")
    ends = {e["stage"]: e for e in log if e["done"]}
    assert list(ends) == ["python", "numpy", "borch_webgpu", "device"], log
    assert ends["python"]["total"] > 5e6 and ends["python"]["loaded"] == ends["python"]["total"]
    assert ends["numpy"]["total"] > 1e6 and ends["numpy"]["loaded"] == ends["numpy"]["total"]
    status = [e["text"] for e in text_log.read(page, "#status")]
    assert any(re.match(r"Starting Python: Python \d+\.\d of \d+\.\d MB", t) for t in status), status
    assert any(re.match(r"Starting Python: (numpy|borch_webgpu) \d+\.\d of", t) for t in status), status
    probe_done = ends["device"]["t"]
    early = [e for sel in ('#instruments [data-k="gputime"]', '#instruments [data-k="badge"]')
             for e in text_log.read(page, sel) if "no WebGPU" in e["text"] and e["t"] < probe_done]
    assert not early, early
    gpu = page.evaluate("window.borchPlayground.gpu")
    switch = page.locator('#instruments [data-k="switch"]')
    if not gpu["adapter"]["is_software"]:
        assert switch.is_hidden()
        page.close()
        return
    assert "cpu device (numpy) is faster" in page.inner_text('#instruments [data-k="warning"]')
    assert switch.get_attribute("data-device") == "cpu" and "cpu device" in switch.inner_text()
    switch.click()
    page.wait_for_url(lambda u: "/playground/?device=cpu" in u)
    page.wait_for_function("() => window.borchPlayground && window.borchPlayground.ready === true", timeout=180_000)
    assert page.inner_text('#instruments [data-k="badge"]') == "cpu device"
    page.evaluate("c => window.borchPlayground.editor.setCode(c)",
                  "import borch_webgpu as torch\nprint(torch.cuda.is_available(), torch.ones(2).device)\n")
    page.click("#run")
    page.wait_for_function("() => window.borchPlayground.runs > 0 && !window.borchPlayground.running")
    assert "False cpu" in page.inner_text("#output")
    assert switch.get_attribute("data-device") == "webgpu"
    page.close()


def test_stop_interrupts_a_loop_that_reads_values(pg):
    """Issue 12 item 7: Stop lands while Python waits in a blocking GPU read (.item()), not only between
    bytecodes; the worker survives (same process, no restart) and its GPU device reads again."""
    pg.page.goto(pg.base + "playground/")   # on WebGPU (an earlier test may have left ?device=cpu)
    pg.wait_ready()
    pg.set_code("import borch_webgpu as torch\nx = torch.randn(64, 64)\nprint('reading on', x.device, flush=True)\n"
                "while True:\n    v = (x @ x).sum().item()\n")
    runs = pg.state("runs")
    pg.page.click("#run")
    pg.page.wait_for_function("() => document.querySelector('#output').textContent.includes('reading')",
                              timeout=60_000)
    assert "reading on webgpu:0" in pg.output(), pg.output()[-1000:]
    time.sleep(1.5)
    t0 = time.monotonic()
    pg.page.click("#run")   # now "Stop"
    pg.page.wait_for_function("n => window.borchPlayground.runs > n && !window.borchPlayground.running",
                              arg=runs, timeout=15_000)
    stopped_in = time.monotonic() - t0
    assert pg.state("lastRun")["stopped"], pg.state("lastRun")
    assert "KeyboardInterrupt" in pg.output(), pg.output()[-2000:]
    assert pg.state("restarts") == 0, "Stop should interrupt the read, not restart the worker"
    assert stopped_in < 3.0, stopped_in
    pg.set_code("import sys\nimport borch_webgpu as torch\n"
                "print('alive', 'borch_webgpu' in sys.modules, (torch.ones(3) * 2).sum().item())\n")
    assert pg.run_and_wait(60)["exitCode"] == 0, pg.output()[-2000:]
    assert "alive True 6.0" in pg.output()
