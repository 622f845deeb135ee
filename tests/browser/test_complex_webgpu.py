"""complex64 / complex128 and torch.fft on WebGPU in Chromium (complex tensors held on the host,
borch_webgpu/_dtype.py): every case of tests/golden/complex.json against PyTorch 2.13's answers
(values, printed reprs, gradients of real losses, errors), and where the values live (complex on the
host reporting webgpu:0; real results such as abs, .real, irfft and comparisons back on the GPU).
The cases about memory shared between a complex tensor and its .real / view_as_real views run on cpu
only: on webgpu those are copies (a float32 result lives on the GPU)."""
from __future__ import annotations


def test_complex_goldens_and_placement_on_webgpu(browser, summary_line):
    code, out, err = browser.run_golden("replay_complex.py", ["--device", "webgpu"], timeout_s=300)
    lines = [line for line in (out + err).splitlines() if line.startswith("complex:")]
    last = lines[-1] if lines else ""
    summary_line("webgpu " + last)
    assert code == 0 and " 0 failed" in last and "[device webgpu]" in last, (out + err)[-6000:]
    assert ", 4 cpu-only" in last, last   # exactly the four aliasing cases
