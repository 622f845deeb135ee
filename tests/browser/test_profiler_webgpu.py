"""torch.profiler on WebGPU in Chromium: the golden replay (names, counts, table layout, nn layers, backward
ranges and schedules against PyTorch 2.13) and the device work per op (each op's WebGPU dispatches; their sum
is the profile's total). The operators' names and the legacy API do not depend on the device: they are
replayed on cpu only (tests/unit/test_profiler.py), which keeps this test near 10 s."""
from __future__ import annotations


def test_profiler_on_webgpu(browser, summary_line):
    code, out, err = browser.run_golden("replay_profiler.py", ["--device", "webgpu", "block", "model", "backward", "schedules"], timeout_s=300)
    lines = (out + err).splitlines()
    last = [ln for ln in lines if ln.startswith("profiler:")]
    disp = [ln for ln in lines if ln.startswith("dispatches:")]
    summary_line("webgpu " + (last[-1] if last else "profiler: no result") + (" | " + disp[0] if disp else ""))
    assert code == 0 and last and " 0 failed" in last[-1], (out + err)[-6000:]
    assert disp and "aten::mm=0" not in disp[0] and "'device': 'webgpu'" in disp[0], disp
