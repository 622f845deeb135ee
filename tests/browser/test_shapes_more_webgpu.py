"""tests/unit/shapes_more_checks.py on WebGPU in Chromium (one run in the shared browser session): the random
fills' statistics and repeatability, the memory facts (get_device is 0 there), resize_, the post-accumulate
hook and writes through the new views. Their PyTorch goldens replay with the whole golden suite
(tests/browser/test_boot.py)."""
from __future__ import annotations

from pathlib import Path

CHECKS = Path(__file__).resolve().parents[1] / "unit" / "shapes_more_checks.py"


def test_shapes_more_checks_on_webgpu(browser):
    code, out, err = browser.run(CHECKS.read_text() + """
import borch_webgpu as torch
assert torch.zeros(1).device.type == "webgpu"
import time
for name, check in sorted(CHECKS.items()):
    t0 = time.perf_counter()
    check(torch, "webgpu")
    print(f"{name}: {time.perf_counter() - t0:.2f} s")
print("shapes_more checks passed:", len(CHECKS))
""")
    assert code == 0, out[-4000:] + err[-4000:]
    assert f"shapes_more checks passed: {CHECKS.read_text().count(chr(10) + 'def check_')}" in out
