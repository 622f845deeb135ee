"""torch.autocast and torch.amp.GradScaler on WebGPU in Chromium: the expressions of tests/golden/amp.json
with autocast on the 'webgpu' device type in bfloat16 (SwiftShader has no float16) against PyTorch's CPU
answers (output dtypes exactly, values to their tolerance), and what the no-GPU cases become where WebGPU
runs ('cuda' enabled, no warning)."""
from __future__ import annotations


def test_amp_goldens_on_webgpu(browser, summary_line):
    code, out, err = browser.run_golden("replay_amp.py", ["--device", "webgpu"], timeout_s=600)
    lines = [line for line in (out + err).splitlines() if line.startswith("amp:")]
    last = lines[-1] if lines else ""
    summary_line("webgpu " + last)
    summary_line(next((line for line in out.splitlines() if line.startswith("slowest:")), "slowest: ?"))
    assert code == 0 and " 0 failed" in last and "[device webgpu]" in last, (out + err)[-6000:]
