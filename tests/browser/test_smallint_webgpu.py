"""uint8, int8 and int16 on WebGPU in Chromium (held on the host, borch_webgpu/_dtype.py): the expressions
of tests/golden/smallint.json against PyTorch's answers (exactly), and where the values live (these
dtypes on the host reporting webgpu:0, results of other dtypes back on the GPU)."""
from __future__ import annotations


def test_small_int_goldens_and_placement_on_webgpu(browser, summary_line):
    code, out, err = browser.run_golden("replay_smallint.py", ["--device", "webgpu"], timeout_s=600)
    lines = [line for line in (out + err).splitlines() if line.startswith("smallint:")]
    last = lines[-1] if lines else ""
    summary_line("webgpu " + last)
    assert code == 0 and " 0 failed" in last and "[device webgpu]" in last, (out + err)[-6000:]
