"""The conv/pool checks of tests/unit/test_conv_pool.py on WebGPU in Chromium (SwiftShader here: a
CPU, not a GPU): every conv tile shape, GPU ones included (forced), split-K forward and input
gradient, strided and non-contiguous operands, pooling and resampling, against the cpu device and
direct numpy loops."""
from __future__ import annotations

import re
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "unit" / "test_conv_pool.py"


def test_conv_pool_checks_on_webgpu(browser, summary_line):
    code, out, err = browser.run_file(SCRIPT, timeout_s=600)
    last = [line for line in out.splitlines() if line.startswith("conv/pool checks on")]
    summary_line(last[-1] if last else "conv/pool checks: no summary")
    assert code == 0, out[-6000:] + err[-3000:]
    assert last and re.search(r"on webgpu: [1-9]\d* passed, 0 failed", last[-1]), out[-3000:]
    assert "ok   webgpu_conv_split_k" in out and "ok   webgpu_conv_every_tile_shape" in out, out[-3000:]
