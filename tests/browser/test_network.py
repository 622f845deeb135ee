"""No request leaves 127.0.0.1: Pyodide, numpy, the wheel and every script come from our origin."""
from __future__ import annotations

from urllib.parse import urlparse


def test_every_request_stays_on_our_origin(browser):
    code, out, err = browser.run("import borch_webgpu as torch\nprint((torch.ones(3) + 1).tolist())\n")
    assert code == 0, err
    assert browser.requests, "no requests were recorded"
    hosts = {urlparse(u).hostname for u in browser.requests if not u.startswith(("data:", "blob:"))}
    assert hosts == {"127.0.0.1"}, sorted(u for u in browser.requests if urlparse(u).hostname != "127.0.0.1")
    # the things that could have come from a CDN did come from us
    names = " ".join(browser.requests)
    for part in ("pyodide.asm.wasm", "python_stdlib.zip", "numpy-2.0.2", "borch_webgpu-"):
        assert part in names, part
