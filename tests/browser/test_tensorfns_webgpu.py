"""The tensor functions of issue 11 (unique, searchsorted, diagonal, scatter_reduce, quantile, ...) on WebGPU
in Chromium, against the frozen PyTorch goldens of tests/golden/cases_tensorfns*.py: values, gradients,
exception types and PyTorch's messages (errors that a GPU kernel finds come at the next read)."""
from __future__ import annotations

import os
import re
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
CASE_FILES = ("cases_tensorfns.py", "cases_tensorfns_index.py", "cases_tensorfns_reduce.py")


def _ops() -> list[str]:
    """The ops those files give golden generators for."""
    names = []
    for name in CASE_FILES:
        text = (GOLDEN / name).read_text()
        names += re.findall(r'@golden\("([^"]+)"\)', text) + re.findall(r'_clamp_one\("([^"]+)"', text)
    return sorted(set(names))


def test_tensor_function_goldens_on_webgpu(browser, summary_line):
    from borch_webgpu.run import mount_list
    ops = _ops()
    assert len(ops) >= 30, ops
    cwd = os.getcwd()
    os.chdir(GOLDEN.parents[1])
    try:
        browser.sess.mount(mount_list(["tests/golden"]))
        code, out, err = browser.run_file(GOLDEN / "replay.py", ["--device", "webgpu", *ops], timeout_s=600)
    finally:
        os.chdir(cwd)
    last = [line for line in out.splitlines() if line.startswith("golden:")]
    summary_line("webgpu tensor functions " + (last[-1] if last else "(no result)"))
    assert code == 0 and last and " 0 failed" in last[-1], (out + err)[-6000:]
