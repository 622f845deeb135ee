"""borch_webgpu.onnx.export inside Pyodide, run by ONNX Runtime Web in the same page (see the script)."""
from __future__ import annotations

import json
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "scripts" / "onnx_ort_web.py"


def test_exported_models_run_in_onnx_runtime_web_and_match_our_forward(browser, summary_line):
    from borch_webgpu import _assets

    browser.sess.site.files.update(_assets.ort_web_files())   # /ort/ on the same server as Pyodide
    code, out, err = browser.run_file(SCRIPT, timeout_s=600)
    assert code == 0, out[-3000:] + err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    assert r["device"].startswith(("webgpu", "cuda")), r["device"]
    from urllib.parse import urlparse
    ort_urls = [u for u in browser.requests if "/ort/" in u]
    assert any(u.endswith("/ort/ort-wasm-simd-threaded.asyncify.wasm") for u in ort_urls), ort_urls
    assert {urlparse(u).hostname for u in ort_urls} == {"127.0.0.1"}, ort_urls
    for name, res in r["results"].items():
        summary_line(f"onnx export -> ONNX Runtime Web: {name} ran on the {res['ep']} EP "
                     f"(max |diff| {res['max_abs_diff']}, export {res['export_s']} s"
                     + (f"; webgpu EP failed: {res['ep_errors']}" if res["ep_errors"] else "") + ")")
        assert set(res["max_abs_diff"]) == {"2", "3"}, res
        assert max(res["max_abs_diff"].values()) < 1e-4, (name, res)
        assert res["ep"] == "wasm" or res["ort_webgpu_device"], res   # the WebGPU EP made its GPUDevice
