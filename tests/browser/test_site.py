"""The built site (build/site) in Chromium: the landing page boots Python in a worker, shows the adapter
honestly, runs the demo and "Check my GPU"; its seven ways in resolve; the API search finds names; the
coverage page shows the counts; the models and vision pages are there; nothing leaves 127.0.0.1."""
from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from borch_webgpu._server import Site, serve
from borch_webgpu.run import CHROMIUM_FLAGS, chromium_path

SITE = Path(__file__).resolve().parents[2] / "build" / "site"
WAYS = ["lessons/", "tutorials/", "models/", "vision/", "api/", "playground/", "bench/"]


@pytest.fixture(scope="module")
def site(playwright):
    """One browser context for every page of this module, so that the request log covers them all."""
    if not (SITE / "index.html").exists():
        pytest.fail("build/site is missing: scripts/test.sh builds it (python scripts/build_site.py)")
    httpd = serve(Site(root=SITE))
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS, headless=True)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    log = {"requests": [], "failed": [], "errors": []}
    context.on("request", lambda r: log["requests"].append(r.url))
    context.on("response", lambda r: log["failed"].append(f"{r.status} {r.url}") if r.status >= 400 else None)
    context.on("requestfailed", lambda r: log["failed"].append(f"failed {r.url}"))
    # a Content-Security-Policy violation anywhere (the server's policy: this origin only) is a failure
    log["csp"] = []
    context.expose_function("borchCspViolation", lambda v: log["csp"].append(v))
    context.add_init_script("document.addEventListener('securitypolicyviolation', (e) => window.borchCspViolation("
                            "`${location.pathname}: ${e.violatedDirective} ${e.blockedURI}`))")
    yield context, base, log
    browser.close()
    httpd.shutdown()


@pytest.fixture(scope="module")
def landing(site, text_log):
    context, base, log = site
    page = context.new_page()
    text_log(page, ["#boot-text"])
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.goto(base)
    page.wait_for_function("() => window.borchLanding && window.borchLanding.lastExit !== undefined", timeout=120_000)
    return page


def test_landing_boots_and_runs_demo(site, landing, artifacts, summary_line):
    context, base, log = site
    page = landing
    assert not log["errors"], log["errors"]
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
    summary_line(f"landing page boot in a worker (Pyodide + numpy + wheel + device): {t['totalMs'] / 1000:.2f} s")
    page.screenshot(path=str(artifacts / "landing.png"), full_page=True)


def test_check_my_gpu(landing, summary_line):
    page = landing
    page.click("#bench-run")
    page.wait_for_function("() => window.borchLanding.bench !== undefined", timeout=120_000)
    r = page.evaluate("window.borchLanding.bench")
    assert not r.get("error"), page.inner_text("#demo-out")
    assert r["add"]["gbps"] > 0 and r["matmul"]["gflops"] > 0 and r["checked"], r
    assert page.inner_text("#bench-gbps").endswith(" GB/s")
    assert page.inner_text("#bench-gflops").endswith(" GFLOP/s")
    note = page.inner_text("#bench-note")
    gpu = page.evaluate("window.borchLanding.gpu")
    if gpu["adapter"]["is_software"]:
        assert "not a GPU" in note and "SwiftShader" in note
    summary_line(f"check my GPU on {r['adapter']}: add {r['add']['gbps']:.2f} GB/s ({r['add']['n']} floats), "
                 f"matmul {r['matmul']['gflops']:.2f} GFLOP/s ({r['matmul']['m']}^3)")


def test_landing_seven_ways_resolve(site, landing):
    context, base, log = site
    hrefs = landing.eval_on_selector_all("#ways a", "els => els.map(e => e.getAttribute('href'))")
    assert hrefs == WAYS
    nav = landing.eval_on_selector_all("header.top nav a", "els => els.map(e => e.getAttribute('href'))")
    assert nav == WAYS
    for href in hrefs:
        with urllib.request.urlopen(urljoin(base, href)) as resp:
            assert resp.status == 200, href
            assert b"<html" in resp.read(2000).lower(), href


def test_api_search_finds_conv2d(site, artifacts):
    context, base, log = site
    page = context.new_page()
    page.goto(base + "api/")
    page.wait_for_function("() => window.borchApiReady === true")
    page.click("#api-search")
    page.keyboard.type("Conv2d")
    page.wait_for_selector("#api-results:not([hidden]) li")
    names = page.eval_on_selector_all("#api-results li code", "els => els.map(e => e.textContent)")
    assert names[0] == "torch.nn.Conv2d", names
    assert "torch.nn.functional.conv2d" in names
    page.screenshot(path=str(artifacts / "api.png"), full_page=False)
    page.click("#api-results li a >> nth=0")
    page.wait_for_url("**/api/torch.nn.html#torch.nn.Conv2d")
    entry = page.locator('[id="torch.nn.Conv2d"]')
    assert entry.is_visible()
    assert "pytorch.org/docs/stable/generated/torch.nn.Conv2d.html" in entry.inner_html()
    page.close()


def test_api_search_names_pytorch_names_we_lack(site):
    """A PyTorch name that borch_webgpu lacks is listed as such, with a link to the coverage page."""
    context, base, log = site
    page = context.new_page()
    page.goto(base + "api/")
    page.wait_for_function("() => window.borchApiReady === true")
    page.fill("#api-search", "lstm")
    page.wait_for_selector("#api-results:not([hidden]) li.missing")
    ours = page.eval_on_selector_all("#api-results li:not(.missing) a code", "els => els.map(e => e.textContent)")
    assert "torch.nn.LSTM" in ours, ours
    lacking = page.locator("#api-results li.missing", has_text="torch.lstm_cell")
    assert "not in borch_webgpu" in lacking.inner_text()
    assert lacking.locator("a").get_attribute("href").endswith("coverage.html#torch")
    assert "not in borch_webgpu (see coverage)" in page.inner_text("#api-count")
    page.fill("#api-search", "lstm_cell")           # nothing of ours: the answer is still not "0 names"
    page.wait_for_function("() => document.getElementById('api-count').textContent.includes('not in')")
    assert page.inner_text("#api-count").startswith("0 names; ")
    page.close()


def test_coverage_page_shows_counts(site):
    context, base, log = site
    data = json.loads((SITE / "api" / "coverage.json").read_text())
    page = context.new_page()
    page.goto(base + "api/coverage.html")
    for ns in data["namespaces"]:
        row = page.locator(f'tr[data-ns="{ns["namespace"]}"]')
        assert f'{ns["have"]} / {ns["torch"]}' in row.inner_text(), ns["namespace"]
        heading = page.locator(f'[id="{ns["namespace"]}"] h2').inner_text()
        assert f'{ns["have"]} of {ns["torch"]}' in heading
    assert "2.13.0" in page.inner_text("p.lead")
    up = data["upstream"]      # the names PyTorch's own examples use (scripts/scan_upstream.py)
    assert page.inner_text("#upstream h2") == f'Used by upstream examples: {up["present"]} of {up["total"]} present'
    assert page.locator("#upstream p.names code").count() == len(up["missing"]) == up["total"] - up["present"]
    page.close()


def test_models_and_vision_pages(site):
    context, base, log = site
    page = context.new_page()
    page.goto(base + "models/")
    assert page.locator('tr[id^="catalog-"]').count() >= 6 and page.locator('tr[id^="hub-"]').count() >= 3
    assert page.locator("tr[data-params]").count() >= 10
    page.goto(base + "vision/")
    for name in ("MNIST", "Digits"):
        sec = page.locator(f'section[id="{name}"]')
        assert int(sec.get_attribute("data-train")) > 0 and int(sec.get_attribute("data-test")) > 0
        assert page.evaluate(f"document.querySelector('section[id={name}] img').naturalWidth") > 0
    page.close()


def _header_links(page: Path) -> set[str]:
    """The site paths (from the root, ending in /) that the header of a built page links to."""
    import posixpath
    import re
    head = re.search(r'<header class="top">(.*?)</header>', page.read_text(encoding="utf-8"), re.S)
    assert head, f"{page.relative_to(SITE)} has no site header"
    here = "/" + page.parent.relative_to(SITE).as_posix() + "/"
    out = set()
    for href in re.findall(r'<nav>.*?</nav>', head.group(1), re.S)[0].split('href="')[1:]:
        href = href.split('"', 1)[0]
        out.add(posixpath.normpath(posixpath.join(here, href)).rstrip("/") + "/")
    return out


def test_every_page_links_to_every_section():
    """Every page of the site (landing, lessons, tutorials, API, models, vision, playground, the 404 page)
    has the header with all seven sections."""
    pages = [p for p in SITE.rglob("*.html") if p.relative_to(SITE).parts[0] not in ("pyodide", "runtime", "ort")]
    assert len(pages) > 30
    want = {"/" + w for w in WAYS}
    bad = {str(p.relative_to(SITE)): sorted(want - _header_links(p)) for p in pages if want - _header_links(p)}
    assert not bad, bad


def test_folders_without_their_slash_and_missing_pages(site):
    """/lessons redirects to /lessons/, so its relative links work; a missing page is the site's own 404."""
    context, base, log = site
    page = context.new_page()
    page.goto(base + "lessons")
    assert page.url == base + "lessons/"
    first = page.eval_on_selector("ol.lesson-list a", "a => a.href")   # resolved against the page's URL
    assert first.startswith(base + "lessons/01-"), first
    with urllib.request.urlopen(first) as resp:
        assert resp.status == 200
    resp = page.goto(base + "lessons/no-such-lesson.html")
    assert resp.status == 404 and page.locator("#not-found").is_visible()
    assert page.eval_on_selector_all("header.top nav a", "els => els.map(e => e.getAttribute('href'))") == \
        ["/" + w for w in WAYS]
    log["failed"].remove(f"404 {base}lessons/no-such-lesson.html")
    page.close()


def test_landing_shows_boot_progress(landing, text_log):
    log = landing.evaluate("window.borchLanding.progressLog")
    assert list(dict.fromkeys(e["stage"] for e in log if e["done"])) == ["python", "numpy", "borch_webgpu", "device"]
    texts = [e["text"] for e in text_log.read(landing, "#boot-text")]
    assert any(re.match(r"Starting Python: Python \d+\.\d of \d+\.\d MB", t) for t in texts), texts
    assert any("numpy" in t and " MB" in t for t in texts), "\n".join(texts[-12:])
    assert landing.locator("#boot-progress").is_hidden()    # gone once Python is ready


def test_a_reload_comes_from_the_browser_cache(playwright, summary_line, tmp_path):
    """With a browser profile (a disk cache, as a person's browser has), the second visit downloads
    nothing again: the server's ETag / Last-Modified let the browser revalidate (304)."""
    site = Site(root=SITE)
    httpd = serve(site)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    sent = []
    ctx = playwright.chromium.launch_persistent_context(str(tmp_path / "profile"), executable_path=chromium_path(),
                                                        args=CHROMIUM_FLAGS, headless=True)
    try:
        for _ in range(2):
            before = site.body_bytes
            page = ctx.new_page()
            page.goto(base)
            page.wait_for_function("() => window.borchLanding && window.borchLanding.timings !== undefined",
                                   timeout=120_000)
            sent.append(site.body_bytes - before)
            page.close()
    finally:
        ctx.close()
        httpd.shutdown()
    summary_line(f"landing page: first visit {sent[0] / 1e6:.1f} MB, reload {sent[1] / 1e6:.2f} MB")
    assert sent[0] > 15e6, sent          # Pyodide, numpy and the wheel
    assert sent[1] < 100_000, sent


def test_models_page_downloads_verifies_and_predicts(site, artifacts):
    """The hub widget: download and verify a published model (progress, size, sha256, the sample
    reproduced), then classify one of the manifest's test images and a digit drawn with the mouse."""
    context, base, log = site
    page = context.new_page()
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.goto(base + "models/#hub")
    page.wait_for_function("() => window.borchModels && window.borchModels.ready", timeout=120_000)
    page.select_option("#hub-model", "lenet5-mnist")
    page.click("#hub-load")
    page.wait_for_function("() => window.borchModels.done >= 1", timeout=180_000)
    loaded = page.evaluate("() => window.borchModels.loaded")
    assert loaded, page.inner_text("#hub-result")
    gpu = page.evaluate("() => window.borchModels.gpu")
    assert loaded["device"] == ("webgpu:0" if gpu else "cpu") and loaded["source"] == "network"
    assert loaded["sample_error"] <= 2e-5 and "all 64 digits match" in page.inner_text("#hub-result")
    assert page.evaluate("() => document.getElementById('hub-progress').value") == loaded["bytes"]
    manifest = page.evaluate("() => window.borchModels.manifest")
    page.locator("#hub-samples canvas").nth(3).click()
    page.wait_for_function("() => window.borchModels.prediction && window.borchModels.prediction.what.startsWith('test')",
                           timeout=60_000)
    assert page.evaluate("() => window.borchModels.prediction.best") == manifest["sample"]["labels"][3]
    box = page.locator("#hub-canvas").bounding_box()
    x = box["x"] + box["width"] / 2
    page.mouse.move(x, box["y"] + 30)
    page.mouse.down()
    for i in range(1, 11):   # a vertical stroke: a one
        page.mouse.move(x + i * 0.5, box["y"] + 30 + i * 16)
    page.mouse.up()
    page.evaluate("() => { window.borchModels.prediction = null; }")
    page.click("#hub-predict")
    page.wait_for_function("() => window.borchModels.prediction", timeout=60_000)
    assert page.evaluate("() => window.borchModels.prediction.best") == 1, page.inner_text("#hub-pred")
    page.locator("#hub-demo").screenshot(path=str(artifacts / "models-hub.png"))
    assert not log["errors"], log["errors"]
    page.close()


def test_models_page_catalog_parity_and_build_and_run(site, artifacts, summary_line):
    """The catalog table: each name's parity on cpu and WebGPU (from the committed records), and its
    "build and run" button building the architecture in the page's worker at a small resolution."""
    context, base, log = site
    page = context.new_page()
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.goto(base + "models/#catalog")
    page.wait_for_function("() => window.borchModels && window.borchModels.ready", timeout=120_000)
    from borch_webgpu import models
    rows = page.locator("#catalog-table tbody tr")
    assert rows.count() == len(models.list_models())
    assert page.locator('#catalog-table tr[data-cpu="pass"]').count() == rows.count()
    records = json.loads((Path(__file__).resolve().parents[1] / "golden" / "catalog_parity.json").read_text())["records"]
    on_webgpu = [str(n) for n in models.list_models() if str(n) in records["webgpu"]]
    assert page.locator('#catalog-table tr[data-webgpu="pass"]').count() == len(on_webgpu) >= 17
    built = []
    for name, out, side in (("timm/resnet18", [1, 1000], 64), ("borchvision/mnist_cnn", [1, 10], 28)):
        row = page.locator(f'tr[id="catalog-{name}"]')
        row.locator("button.build-run").click()
        page.wait_for_function("(n) => window.borchModels.builds.length >= n", arg=len(built) + 1, timeout=180_000)
        b = page.evaluate("() => window.borchModels.builds.at(-1)")
        assert b.get("name") == name and b.get("output") == out and b["finite"], b
        gpu = page.evaluate("() => window.borchModels.gpu")
        assert b["device"] == ("webgpu:0" if gpu else "cpu") and b["input"][-1] == side, b
        assert (b["pipelines"] > 0) if gpu else b["pipelines"] is None, b
        assert f"output {' x '.join(map(str, out))}" in row.locator(".build-out").inner_text()
        built.append(f"{name} built {b['build_s']:.2f} s, forward {b['forward_s']:.2f} s, {b['pipelines']} pipelines")
    summary_line("models page build and run: " + "; ".join(built))
    page.locator("#catalog-table").screenshot(path=str(artifacts / "models-catalog.png"))
    assert not log["errors"], log["errors"]
    page.close()


def test_site_requests_stay_on_origin(site):
    """Runs last: every page above (and the worker) is in the log."""
    context, base, log = site
    urls = [u for u in log["requests"] if not u.startswith(("data:", "blob:"))]
    assert any(u.endswith(".wasm") for u in urls) and any("/api/" in u for u in urls)
    hosts = {urlparse(u).hostname for u in urls}
    assert hosts == {"127.0.0.1"}, [u for u in urls if urlparse(u).hostname != "127.0.0.1"]
    assert not log["failed"], log["failed"]
    assert not log["csp"], log["csp"]
