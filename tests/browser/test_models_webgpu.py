"""The model catalog on WebGPU in Chromium (SwiftShader here: a CPU, not a GPU): every case that runs on
WebGPU built, loaded with the formula weights (strict=True) and compared with timm's logits,
forward_features, pre-logits and features_only maps (tests/golden/catalog.json), plus the eval
transforms with the image on the device. One test per browser group of tests/golden/catalog_cases.py
(the ResNets with the transforms; the EfficientNet / MobileNet families; the ViTs). Prints, per case,
the build and forward times, the pipelines the case created and the kernels its forward used."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = ("replay_catalog.py", "catalog_cases.py", "catalog.json", "golden_io.py", "resnet_weights.py")
sys.path.insert(0, str(GOLDEN))

from catalog_cases import CASES, browser_group, runs_on_webgpu  # noqa: E402

# efficientnet_b7 (66M parameters) must run with a bounded pipeline count: pipelines are keyed by
# kernel, dtype and flags, never by a layer's sizes
MAX_KERNELS = 100
# the ViT group (ViT-Tiny at 224 and its 64x64 variant with features_only) may create at most this many
# pipelines: 12 ViT blocks reuse the first block's 27 or so
MAX_VIT_PIPELINES = 40


def _names(group: str) -> list[str]:
    return [c["id"] for c in CASES if runs_on_webgpu(c) and browser_group(c) == group]


def _replay(browser, summary_line, group: str) -> list[str]:
    from borch_webgpu.run import mount_list

    cwd = os.getcwd()
    os.chdir(GOLDEN.parents[1])
    try:
        browser.sess.mount(mount_list([f"tests/golden/{f}" for f in FILES]))
        code, out, err = browser.run_file(GOLDEN / "replay_catalog.py", ["--device", "webgpu", "--group", group],
                                          timeout_s=600)
    finally:
        os.chdir(cwd)
    lines = [line for line in out.splitlines() if line.startswith("catalog")]
    for line in lines:
        print(line)
    summary_line(lines[-1] if lines else "catalog: no summary line")
    assert code == 0, out[-6000:] + err[-3000:]
    assert lines and re.search(r"catalog: \d+ passed, 0 failed", lines[-1]), out[-6000:]
    per_case = [line for line in lines if line.startswith("catalog case")]
    ran = [re.match(r"catalog case (.*?): logits", line).group(1) for line in per_case]
    assert ran == _names(group) and all("pipelines created" in line for line in per_case), lines
    return per_case


def test_catalog_parity_on_webgpu(browser, summary_line):
    _replay(browser, summary_line, "base")


def test_efficientnet_mobilenet_parity_on_webgpu(browser, summary_line):
    per_case = _replay(browser, summary_line, "convnets")
    b7 = next(line for line in per_case if line.startswith("catalog case timm/efficientnet_b7:"))
    used = int(re.search(r"(\d+) used by the forward", b7).group(1))
    assert 0 < used <= MAX_KERNELS, b7


def test_vit_parity_on_webgpu(browser, summary_line):
    per_case = _replay(browser, summary_line, "vit")
    total = sum(int(re.search(r"(\d+) pipelines created", line).group(1)) for line in per_case)
    assert total <= MAX_VIT_PIPELINES, f"{total} pipelines for the ViTs: they scale with the model"
