"""The matrix-product checks of tests/unit/test_linalg.py on WebGPU in Chromium, through both gemm
kernels (the software adapters' gemm_sw and the GPUs' gemm, each forced whatever the adapter is):
every kernel path of device/gpu_matmul.py (tile shapes, split K, the vector kernel, strided and
broadcast operands, integers, float16, zero sizes, PyTorch's errors) against float64 numpy."""
from __future__ import annotations

import re
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "unit" / "test_linalg.py"


def test_matmul_checks_through_both_gemm_kernels_on_webgpu(browser, summary_line):
    code, out, err = browser.run_file(SCRIPT, timeout_s=600)
    last = [line for line in out.splitlines() if line.startswith("linalg checks on")]
    summary_line(last[-1] if last else "linalg checks: no summary")
    assert code == 0, out[-6000:] + err[-3000:]
    assert last and re.search(r"on webgpu: [1-9]\d* passed, 0 failed", last[-1]), out[-3000:]
    assert "ok   big_tiles_and_split_k [gemm_sw]" in out and "ok   big_tiles_and_split_k [gemm]" in out, out[-3000:]
