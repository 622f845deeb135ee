"""nn.Transformer, its encoder and decoder stacks, the is_causal hints and F.scaled_dot_product_attention on
WebGPU in Chromium: PyTorch's answers frozen in tests/golden/transformer.json replayed on the device (outputs
and gradients of the ON_WEBGPU cases of transformer_cases.py, every error, warning, repr and registered name)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_transformer_goldens_on_webgpu(browser, summary_line):
    from borch_webgpu.run import mount_list
    sys.path.insert(0, str(GOLDEN))
    try:
        from transformer_cases import ON_WEBGPU
    finally:
        sys.path.remove(str(GOLDEN))
    cwd = os.getcwd()
    os.chdir(GOLDEN.parents[1])
    try:
        browser.sess.mount(mount_list(["tests/golden"]))
        code, out, err = browser.run_file(GOLDEN / "replay_transformer.py", ["--device", "webgpu", *ON_WEBGPU],
                                          timeout_s=600)
    finally:
        os.chdir(cwd)
    last = [line for line in out.splitlines() if line.startswith("transformer:")]
    summary_line("webgpu " + (last[-1] if last else "transformer: no summary"))
    assert code == 0 and last and " 0 failed" in last[-1], (out + err)[-6000:]
