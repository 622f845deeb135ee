"""borch_webgpu.hub in Chromium, on WebGPU (SwiftShader here: a CPU, not a GPU): the published models
(web/hub/, served from our origin as the site serves them) load only after the sample is reproduced
on the device, a verified file lands in Cache Storage and is hashed again on reuse, a bad file is
refused and not cached, another origin is refused, and no request leaves 127.0.0.1. Plus the catalog's
small digit classifiers against PyTorch on WebGPU (replay_small_models.py)."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
WEB_HUB = ROOT / "web" / "hub"

SCRIPT = r"""
import dataclasses
import json
import borch_webgpu as torch
from borch_webgpu import hub
from borch_webgpu.device import _ffi
from borch_webgpu.hub._fetch import CACHE_NAME
import js

_ffi.wait(js.caches.delete(CACHE_NAME), "clearing the cache")
out = {"device": str(torch.get_default_device())}
seen = []
m = hub.load("/hub/lenet5-mnist.json", progress=lambda done, total: seen.append([done, total]))
out["first"] = dataclasses.asdict(m.hub_verified)
out["progress"] = [seen[0], seen[-1]]
out["second"] = hub.load("../hub/lenet5-mnist.json", progress=False).hub_verified.source
key = hub._cache()._key(m.hub_verified.sha256)
_ffi.cache_put(CACHE_NAME, key, b"not the weights")          # a changed cache entry is hashed and dropped
out["after_tamper"] = hub.load("/hub/lenet5-mnist.json", progress=False).hub_verified.source
cnn = hub.load("/hub/mnist_cnn-mnist.json")                   # the text progress bar goes to stderr
out["cnn"] = [cnn.hub_verified.device, cnn.hub_verified.sample_error, next(cnn.parameters()).device.type]
sd = hub.fetch_weights("/hub/mnist_cnn-digits.json", progress=False)
out["cpu_path"] = sorted({t.device.type for t in sd.values()})
errors = {}
for name, url in (("flipped", "/hub/bad-flipped.json"), ("other origin", "http://example.com/hub/lenet5-mnist.json")):
    try:
        hub.load(url, progress=False)
    except hub.HubError as e:
        errors[name] = [type(e).__name__, str(e)]
manifest = json.loads(_ffi.fetch_bytes("/hub/lenet5-mnist.json"))
manifest["limits"] = {"largest_buffer": 1 << 40, "total_bytes": 1 << 40}    # checked before anything is fetched
manifest["weights"]["url"] = "never-fetched.safetensors"
try:
    hub.load(manifest, progress=False)
except hub.HubError as e:
    errors["too big"] = [type(e).__name__, str(e)]
out["errors"] = errors
out["flipped_cached"] = _ffi.cache_get(CACHE_NAME, hub._cache()._key(BAD_SHA)) is not None
print("RESULT " + json.dumps(out))
"""


def test_verified_load_in_chromium_from_our_origin(browser, tmp_path):
    served = {f"hub/{p.name}": p for p in WEB_HUB.iterdir()}
    m = json.loads((WEB_HUB / "lenet5-mnist.json").read_text())
    bad = bytearray((WEB_HUB / m["weights"]["url"]).read_bytes())
    bad[-5] ^= 0x40
    (tmp_path / "bad-flipped.safetensors").write_bytes(bytes(bad))
    m.update(name="bad-flipped")
    # the publisher's hash (not in any cache: a cached file with the manifest's sha256 would be the right bytes)
    m["weights"].update(url="bad-flipped.safetensors", sha256=hashlib.sha256(b"the publisher's file").hexdigest())
    (tmp_path / "bad-flipped.json").write_text(json.dumps(m))
    served.update({f"hub/{p.name}": p for p in tmp_path.iterdir()})
    browser.sess.site.files.update(served)
    before = len(browser.requests)
    code, out, err = browser.run(SCRIPT.replace("BAD_SHA", repr(m["weights"]["sha256"])), timeout_s=300)
    assert code == 0, out[-3000:] + err[-3000:]
    r = json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[7:])
    assert r["device"] == "webgpu:0"
    first = r["first"]
    assert first["source"] == "network" and first["device"] == "webgpu:0" and first["sample_error"] <= 2e-5
    size = (WEB_HUB / "lenet5-mnist.safetensors").stat().st_size
    assert r["progress"] == [[0, size], [size, size]]
    assert r["second"] == "cache" and r["after_tamper"] == "network"
    assert r["cnn"][0] == "webgpu:0" and r["cnn"][1] <= 2e-5 and r["cnn"][2] == "webgpu"
    assert re.search(r"mnist_cnn-mnist\.safetensors: 100%\|██████████\| 98\.6kB/98\.6kB", err), err[-2000:]
    assert r["cpu_path"] == ["cpu"]
    assert r["errors"]["flipped"][0] == "HashMismatch" and "the manifest says" in r["errors"]["flipped"][1]
    assert r["errors"]["other origin"][0] == "CrossOriginURL"
    assert r["errors"]["too big"][0] == "AdapterTooSmall" and "this adapter's maxStorageBufferBindingSize" in \
        r["errors"]["too big"][1]
    assert not any("never-fetched" in u for u in browser.requests)
    assert r["flipped_cached"] is False
    new = browser.requests[before:]
    hosts = {urlparse(u).hostname for u in new if not u.startswith(("data:", "blob:"))}
    assert hosts == {"127.0.0.1"}, sorted(u for u in new if urlparse(u).hostname != "127.0.0.1")
    weights = [u for u in new if u.endswith("lenet5-mnist.safetensors")]
    assert len(weights) == 2, weights   # the first load, and again after the cache entry was tampered with


def test_small_catalog_models_match_pytorch_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay_small_models.py", "small models")


def test_published_timm_model_verifies_on_webgpu(browser):
    """timm/mobilenetv3_small_100 trained by us (train_hub_models.py): hub.load on WebGPU reproduces
    PyTorch's logits on the manifest's eight 56x56 test images before it returns the model."""
    browser.sess.site.files.update({f"hub/{p.name}": p for p in WEB_HUB.iterdir()})
    code, out, err = browser.run("import json\nfrom borch_webgpu import hub\n"
                                 "v = hub.load('/hub/mobilenetv3_small_100-mnist.json', progress=False).hub_verified\n"
                                 "print('RESULT ' + json.dumps([v.device, v.sample_error, v.bytes]))\n", timeout_s=300)
    assert code == 0, out[-3000:] + err[-3000:]
    device, error, size = json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[7:])
    m = json.loads((WEB_HUB / "mobilenetv3_small_100-mnist.json").read_text())
    assert device == "webgpu:0" and error <= 2e-5 and size == m["weights"]["bytes"], (device, error, size)
