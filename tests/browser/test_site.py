"""The landing page served from build/site: boots, shows the adapter honestly, runs the demo."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

from borch_webgpu._server import Site, serve
from borch_webgpu.run import CHROMIUM_FLAGS, chromium_path

SITE = Path(__file__).resolve().parents[2] / "build" / "site"


@pytest.fixture(scope="module")
def site_page(playwright):
    if not (SITE / "index.html").exists():
        pytest.fail("build/site is missing: scripts/test.sh builds it (python scripts/build_site.py)")
    httpd = serve(Site(root=SITE))
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS, headless=True)
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base)
    page.wait_for_function("window.borchLanding && window.borchLanding.lastExit !== undefined", timeout=120_000)
    yield page, requests, errors, base
    browser.close()
    httpd.shutdown()


def test_landing_boots_and_runs_demo(site_page, artifacts, summary_line):
    page, requests, errors, base = site_page
    assert not errors, errors
    assert page.evaluate("window.borchLanding.lastExit") == 0
    out = page.inner_text("#demo-out")
    assert "tensor([[ 1.0000,  0.0000,  5.0000]," in out, out
    assert "sum: 12.0" in out and "device: webgpu:0" in out
    badge = page.inner_text("#adapter-badge")
    gpu = page.evaluate("window.borchLanding.gpu")
    if gpu["adapter"]["is_software"]:
        assert badge == "software renderer"
        assert "SwiftShader" in page.inner_text("#adapter-name")
    else:
        assert badge == "GPU"
    t = page.evaluate("window.borchLanding.timings")
    summary_line(f"landing page boot (Pyodide + numpy + wheel + device): {t['totalMs'] / 1000:.2f} s")
    page.screenshot(path=str(artifacts / "landing.png"), full_page=True)


def test_site_requests_stay_on_origin(site_page):
    page, requests, errors, base = site_page
    hosts = {urlparse(u).hostname for u in requests if not u.startswith(("data:", "blob:"))}
    assert hosts == {"127.0.0.1"}, requests


def test_playground_placeholder_is_served(site_page):
    page, requests, errors, base = site_page
    page2 = page.context.browser.new_page()
    page2.goto(base + "playground/")
    assert "Playground" in page2.inner_text("h1")
    page2.close()
