"""float64 on WebGPU in Chromium (held on the host, borch_webgpu/_dtype.py): the expressions of
tests/golden/dtype64.json against PyTorch's answers (floats to rtol 1e-12), and where the values live
(float64 on the host reporting webgpu:0, other dtypes back on the GPU)."""
from __future__ import annotations


def test_float64_goldens_and_placement_on_webgpu(browser, summary_line):
    code, out, err = browser.run_golden("replay_dtype64.py", ["--device", "webgpu"], timeout_s=600)
    lines = [line for line in (out + err).splitlines() if line.startswith("dtype64:")]
    last = lines[-1] if lines else ""
    summary_line("webgpu " + last)
    assert code == 0 and " 0 failed" in last and "[device webgpu]" in last, (out + err)[-6000:]
