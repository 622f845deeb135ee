"""The benchmark page (web/bench/) end to end on the built site, at its small sizes: our eager and
compiled runs, TensorFlow.js and ONNX Runtime Web in one page and one run, each peer through the
parity gate on our weights, then the table, the chart and the JSON. Every request stays on our origin.
No Content-Security-Policy violation on the way (TF.js, ORT's wasm, the worker). Served by
borch_webgpu._server from build/site, which scripts/test.sh builds."""
from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import urlparse

import pytest

from borch_webgpu._server import Site, serve
from borch_webgpu.run import CHROMIUM_FLAGS, chromium_path

SITE = Path(os.environ.get("BORCH_SITE_DIR") or Path(__file__).resolve().parents[2] / "build" / "site")


@pytest.fixture(scope="module")
def bench(playwright, artifacts):
    if not (SITE / "bench" / "index.html").exists() or not (SITE / "tfjs").is_dir():
        pytest.fail(f"{SITE} has no bench/ or tfjs/: scripts/test.sh builds the site (python scripts/build_site.py)")
    httpd = serve(Site(root=SITE))
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS, headless=True)
    context = browser.new_context(viewport={"width": 1300, "height": 1400})
    page = context.new_page()
    requests, errors, csp = [], [], []
    context.on("request", lambda r: requests.append(r.url))
    context.expose_function("borchCspViolation", lambda v: csp.append(v))
    context.add_init_script("document.addEventListener('securitypolicyviolation', (e) => window.borchCspViolation("
                            "e.violatedDirective + ' ' + e.blockedURI))")
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(base + "bench/?sizes=small&autorun=1")
    page.wait_for_function("() => window.borchBench && window.borchBench.done", timeout=900_000)
    page.screenshot(path=str(artifacts / "bench-page.png"), full_page=True)
    result = page.evaluate("() => window.borchBench.result")
    if result:
        (artifacts / "bench-page.json").write_text(json.dumps(result, indent=1))
    yield page, result, requests, errors + csp, page.evaluate("() => window.borchBench.error")
    browser.close()
    httpd.shutdown()


def test_all_three_runtimes_pass_parity_and_are_timed(bench, summary_line):
    page, result, requests, errors, error = bench
    assert error is None, error + "\n" + page.inner_text("#log")[-4000:]
    assert not errors, errors
    assert result["sizes"] == "small" and result["config"]["train_batch"] == 4
    for name in ("tfjs", "ort"):
        r = result[name]
        assert "error" not in r, (name, r)
        assert r["parity"]["passed"], (name, r["parity"])
        assert r["parity"]["max_abs_diff"] <= 1e-3
    assert result["tfjs"]["backend"] == "webgpu"
    rows = {r["workload"]: r for r in result["rows"]}
    assert set(rows) == {"train B4", "infer B1", "infer B4"}, rows
    for w, r in rows.items():
        for k in ("ours_eager", "ours_compiled", "tfjs") + (("ort",) if w.startswith("infer") else ()):
            assert isinstance(r[k], (int, float)) and r[k] > 0, (w, k, r)
    assert rows["train B4"]["ort"] is None   # ORT Web does not train
    summary_line("bench page (small sizes, " + ("software renderer" if result["adapter"].get("is_software") else "GPU")
                 + f", ORT {result['ort']['ep']} EP): " + "; ".join(
                     f"{w}: ours {r['ours_compiled']:.1f} ms compiled / {r['ours_eager']:.1f} eager, TF.js "
                     f"{r['tfjs']:.1f}" + (f", ORT {r['ort']:.1f}" if r["ort"] else "") for w, r in rows.items()))


def test_the_page_shows_the_table_the_chart_and_the_environment(bench):
    page, result, _, _, _ = bench
    head = page.eval_on_selector_all("#results thead th", "els => els.map(e => e.textContent)")
    assert head[1:5] == ["borch_webgpu eager", "borch_webgpu compiled", "TensorFlow.js", "ONNX Runtime Web"]
    body = page.eval_on_selector_all("#results tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
    assert [r[0] for r in body] == [r["workload"] for r in result["rows"]]
    train = body[0]
    assert train[4] == "does not train" and train[3].endswith(" ms") and train[2].endswith(" ms"), train
    for r in body[1:]:
        assert all(c.endswith(" ms") for c in r[1:5]), r
    assert page.locator("#chart svg rect").count() >= 11   # 3 + 4 + 4 bars and the legend
    env = page.inner_text("#env")
    assert "Adapter:" in env and "Browser:" in env and result["date"][:10] in env
    if result["adapter"].get("is_software"):
        assert "not a GPU" in env
    assert page.get_attribute("#download", "href").startswith("blob:")
    # the committed figures (bench/results/published.json through scripts/site/40_bench.py)
    published = json.loads((SITE / "bench" / "published.json").read_text())
    assert page.locator("#published table").count() == len(published["runs"]) >= 2
    h200 = page.eval_on_selector_all("#published table:first-of-type th", "els => els.map(e => e.textContent)")
    assert "native PyTorch" in h200 and "TensorFlow.js" in h200, h200
    assert "H200" in page.inner_text("#published")


def test_every_request_stays_on_our_origin(bench):
    _, _, requests, _, _ = bench
    assert {urlparse(u).hostname for u in requests if not u.startswith(("blob:", "data:"))} == {"127.0.0.1"}
    paths = {urlparse(u).path for u in requests}
    assert {"/tfjs/tf-backend-webgpu.es2017.min.js", "/ort/ort.webgpu.min.mjs", "/bench/ours.py"} <= paths, paths
