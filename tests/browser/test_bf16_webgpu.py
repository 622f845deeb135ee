"""bfloat16 on WebGPU in Chromium (held on the host, borch_webgpu/_dtype.py): the expressions of
tests/golden/bf16.json against PyTorch's answers (exactly, reductions and matmul to their tolerance), and
where the values live (bfloat16 on the host reporting webgpu:0; casts, comparisons and float32 results
back on the GPU)."""
from __future__ import annotations


def test_bf16_goldens_and_placement_on_webgpu(browser, summary_line):
    code, out, err = browser.run_golden("replay_bf16.py", ["--device", "webgpu"], timeout_s=600)
    lines = [line for line in (out + err).splitlines() if line.startswith("bf16:")]
    last = lines[-1] if lines else ""
    summary_line("webgpu " + last)
    summary_line(next((line for line in out.splitlines() if line.startswith("slowest:")), "slowest: ?"))
    assert code == 0 and " 0 failed" in last and "[device webgpu]" in last, (out + err)[-6000:]
