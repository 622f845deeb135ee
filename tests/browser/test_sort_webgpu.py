"""The bitonic sort on WebGPU in Chromium at both of its workgroup sizes (GPUs' 256 threads and software
adapters' 4, each forced): tests/browser/scripts/sort_workgroups.py against numpy. The golden replay
checks the sort family (sort, argsort, topk, median, unique, ...) against PyTorch at this adapter's size."""
from __future__ import annotations

import re
from pathlib import Path

SCRIPT = Path(__file__).parent / "scripts" / "sort_workgroups.py"


def test_sort_at_both_workgroup_sizes(browser, summary_line):
    code, out, err = browser.run(SCRIPT.read_text(), timeout_s=300)
    last = [line for line in out.splitlines() if line.startswith("sort workgroups:")]
    summary_line(last[-1] if last else "sort workgroups: no summary")
    assert code == 0, out[-4000:] + err[-3000:]
    assert last and re.search(r": 8 passed, 0 failed", last[-1]), out[-3000:]
