"""Shared fixtures: one headless Chromium with Pyodide + borch_webgpu booted for the whole session."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
_session_info: dict = {}


class Browser:
    """Runs Python source in the booted page and returns (exit code, stdout, stderr)."""

    def __init__(self, playwright):
        from borch_webgpu.run import BrowserSession

        self.out: list[str] = []
        self.err: list[str] = []
        self.requests: list[str] = []
        self.sess = BrowserSession(on_stdout=self.out.append, on_stderr=self.err.append,
                                   on_request=lambda r: self.requests.append(r.url), playwright=playwright)
        self.boot = self.sess.boot
        self.counter = 0
        self.golden_mounted = False

    def run(self, source: str, argv=(), timeout_s: float = 600) -> tuple[int, str, str]:
        self.out.clear()
        self.err.clear()
        self.counter += 1
        code = self.sess.run(source, f"/home/pyodide/snippet_{self.counter}.py", list(argv), timeout_s)
        return code, "".join(self.out), "".join(self.err)

    def run_file(self, path: Path, argv=(), timeout_s: float = 600) -> tuple[int, str, str]:
        from borch_webgpu.run import guest_path

        self.out.clear()
        self.err.clear()
        code = self.sess.run(path.read_text(), guest_path(path), list(argv), timeout_s)
        return code, "".join(self.out), "".join(self.err)

    def mount_golden(self) -> None:
        """Copy tests/golden (14 MB) into the page as /home/pyodide/tests/golden, once per session."""
        from borch_webgpu.run import mount_list

        if self.golden_mounted:
            return
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            self.sess.mount(mount_list(["tests/golden"]))
        finally:
            os.chdir(cwd)
        self.golden_mounted = True

    def run_golden(self, script: str, argv=(), timeout_s: float = 600) -> tuple[int, str, str]:
        """Run tests/golden/<script> as the page's __main__, tests/golden mounted."""
        self.mount_golden()
        cwd = os.getcwd()
        os.chdir(ROOT)   # the guest path of the script is its path from the repository root
        try:
            return self.run_file(ROOT / "tests" / "golden" / script, argv, timeout_s)
        finally:
            os.chdir(cwd)


@pytest.fixture(scope="session")
def playwright():
    """One Playwright driver for the session (two sync instances cannot share a thread)."""
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    yield pw
    pw.stop()


@pytest.fixture(scope="session")
def browser(playwright):
    b = Browser(playwright)
    gpu = b.boot["gpu"]
    a = gpu.get("adapter") or {}
    _session_info["adapter"] = (f"{a.get('vendor')} / {a.get('architecture')}"
                                f"{' (software renderer: SwiftShader on the CPU, not a GPU)' if a.get('is_software') else ''}"
                                if gpu.get("available") else f"none ({gpu.get('reason')})")
    _session_info["boot"] = b.boot["timings"]
    yield b
    b.sess.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def pytest_terminal_summary(terminalreporter):
    if "adapter" in _session_info:
        t = _session_info["boot"]
        terminalreporter.write_line(f"browser tests ran in Chromium on WebGPU adapter: {_session_info['adapter']}")
        terminalreporter.write_line(f"boot: Pyodide {t['pyodideMs'] / 1000:.2f} s + numpy and wheel "
                                    f"{t['packagesMs'] / 1000:.2f} s + device {t['gpuMs'] / 1000:.2f} s "
                                    f"= {t['totalMs'] / 1000:.2f} s")
    for line in _session_info.get("lines", []):
        terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def summary_line():
    """Call it with a line to print at the end of the run (figures the tests measured)."""
    return lambda line: _session_info.setdefault("lines", []).append(line)


@pytest.fixture(scope="session")
def replay_on_webgpu(browser, summary_line):
    """Run one of tests/golden's replay scripts on WebGPU in the browser (tests/golden mounted) and
    assert that its last line starting with ``prefix`` reports ``0 failed``; ``args`` follow ``--device webgpu``
    (e.g. the case ids to replay)."""
    def run(script: str, prefix: str, args=()) -> None:
        code, out, err = browser.run_golden(script, ["--device", "webgpu", *args], timeout_s=1800)
        last = [line for line in out.splitlines() if line.startswith(prefix)]
        summary_line("webgpu " + " / ".join(last))
        assert code == 0, out[-6000:] + err[-3000:]
        assert last and " 0 failed" in last[-1]

    return run


# Records every text an element shows (each textContent assignment replaces its text node, so every
# mutation record carries one value), with performance.now(): a page's boot goes by too fast to poll.
_TEXT_LOG_JS = """(selectors) => {
  window.__texts = {};
  const watch = () => {
    for (const sel of selectors) {
      const el = document.querySelector(sel);
      if (!el || el.__watched) continue;
      el.__watched = true;
      const log = (window.__texts[sel] = [{ t: performance.now(), text: el.textContent }]);
      new MutationObserver((ms) => {
        for (const m of ms) for (const n of m.addedNodes) log.push({ t: performance.now(), text: n.textContent });
      }).observe(el, { childList: true, characterData: true, subtree: true });
    }
  };
  document.addEventListener("DOMContentLoaded", watch);
  new MutationObserver(watch).observe(document, { childList: true, subtree: true });
}"""


class TextLog:
    """text_log(page, [selectors]) before page.goto; later text_log.read(page, selector) -> [{t, text}]."""

    def __call__(self, page, selectors):
        import json
        page.add_init_script(f"({_TEXT_LOG_JS})({json.dumps(list(selectors))})")

    def read(self, page, selector):
        return page.evaluate("(s) => (window.__texts || {})[s] || []", selector)


@pytest.fixture(scope="session")
def text_log():
    return TextLog()
