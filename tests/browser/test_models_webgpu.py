"""The model catalog on WebGPU in Chromium (SwiftShader here: a CPU, not a GPU), one run per family:
each catalog name the family runs on WebGPU built, loaded with the formula weights (strict=True) and
compared with timm's logits, forward_features, pre-logits and features_only maps
(tests/golden/catalog.json), plus (resnet family) the eval transforms with the image on the device.
Prints, per case, the build and forward times and the pipelines the case created."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = ("replay_catalog.py", "catalog_cases.py", "catalog.json", "golden_io.py", "resnet_weights.py")


# per family: the replay's arguments, how many model cases it runs on WebGPU (the ViTs: ViT-Tiny at 224
# and its 64x64 variant with features_only; ViT-Small and -Base at 224 take minutes on SwiftShader) and,
# where set, the most pipelines the run may create (12 ViT blocks reuse the first block's 27 or so)
FAMILIES = {"resnet": (["--family", "resnet"], 4, None), "vit": (["--family", "vit", "--no-transforms"], 2, 40)}


@pytest.mark.parametrize("family", FAMILIES)
def test_catalog_parity_on_webgpu(browser, summary_line, family):
    from borch_webgpu.run import mount_list

    args, n_cases, max_pipelines = FAMILIES[family]
    cwd = os.getcwd()
    os.chdir(GOLDEN.parents[1])
    try:
        browser.sess.mount(mount_list([f"tests/golden/{f}" for f in FILES]))
        code, out, err = browser.run_file(GOLDEN / "replay_catalog.py", ["--device", "webgpu", *args], timeout_s=600)
    finally:
        os.chdir(cwd)
    lines = [line for line in out.splitlines() if line.startswith("catalog")]
    for line in lines:
        print(line)
        summary_line("webgpu " + line)
    assert code == 0, out[-6000:] + err[-3000:]
    assert lines and re.search(r"catalog: \d+ passed, 0 failed", lines[-1]), out[-6000:]
    per_case = [line for line in lines if line.startswith("catalog case")]
    assert len(per_case) == n_cases and all("pipelines created" in line for line in per_case), lines
    if max_pipelines is not None:
        total = sum(int(re.search(r"(\d+) pipelines created", line).group(1)) for line in per_case)
        assert total <= max_pipelines, f"{total} pipelines for the {family} family: they scale with the model"
