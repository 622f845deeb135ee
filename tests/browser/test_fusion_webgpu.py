"""Inference fusion on WebGPU in Chromium (SwiftShader here: a CPU, not a GPU): nn.utils.fusion's folded
weights, ao.quantization.fuse_modules on a small ResNet-like network (print(model), outputs before and
after), the QAT containers in train mode and the errors, against PyTorch 2.13 (tests/golden/fusion.json)."""
from __future__ import annotations

import os
import re
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = ("replay_fusion.py", "fusion_cases.py", "fusion_model_cases.py", "fusion.json", "golden_io.py")


def test_fusion_goldens_on_webgpu(browser, summary_line):
    from borch_webgpu.run import mount_list

    cwd = os.getcwd()
    os.chdir(GOLDEN.parents[1])
    try:
        browser.sess.mount(mount_list([f"tests/golden/{f}" for f in FILES]))
        code, out, err = browser.run_file(GOLDEN / "replay_fusion.py", ["--device", "webgpu"], timeout_s=600)
    finally:
        os.chdir(cwd)
    last = [line for line in out.splitlines() if line.startswith("fusion:")]
    summary_line("webgpu " + (last[-1] if last else "fusion: no summary"))
    assert code == 0, out[-6000:] + err[-3000:]
    assert last and re.search(r"fusion: [1-9]\d* passed, 0 failed \[device webgpu\]", last[-1]), out[-6000:]
